// The solution explorer and the typing form: a tile filters the word list; a click cycles a typed tile's
// multiplier. Wired by ids and classes (strict CSP: no inline script); everything also works without it.
(function () {
  "use strict";

  // Solution page: a tile of the board picks "words through this tile" (again: every tile).
  document.addEventListener("click", function (event) {
    var td = event.target.closest && event.target.closest("#board.board-filter td[data-cell]");
    var select = document.getElementById("cell");
    if (!td || !select) return;
    select.value = select.value === td.dataset.cell ? "" : td.dataset.cell;
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });

  // Solution page: the word shown is the list's current row; on a phone, where the board sits above the
  // list, the board comes into view to show the word's path (beside the list it is always in view).
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.target.id !== "solution_word") return;
    var word = event.target.querySelector(".breakdown-word");
    var current = document.querySelector(".word-table tr[aria-current]");
    if (current) current.removeAttribute("aria-current");
    var link = word && document.getElementById("w-" + word.textContent);
    if (link) link.closest("tr").setAttribute("aria-current", "true");
    var board = document.getElementById("solution_board");
    if (board && board.getBoundingClientRect().top < 0) board.scrollIntoView({ block: "start" });
  });

  // Typing form: a letter typed moves on to the next tile; a click beside the letter cycles the multiplier through
  // the choices the server gave the tile's select (none, then each multiplier's code).
  function choices(select) {
    return Array.prototype.map.call(select.options, function (option) { return option.value; });
  }

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (!input.classList || !input.classList.contains("typing-letter") || !input.value) return;
    input.value = input.value.toUpperCase();
    var inputs = Array.prototype.slice.call(document.querySelectorAll(".typing-letter"));
    var next = inputs[inputs.indexOf(input) + 1];
    if (next) { next.focus(); next.select(); }
  });

  document.addEventListener("click", function (event) {
    var td = event.target.closest && event.target.closest("td.typing-cell");
    if (!td || event.target.closest("input, select")) return;
    var select = td.querySelector(".typing-multiplier");
    var cycle = choices(select);
    select.value = cycle[(cycle.indexOf(select.value) + 1) % cycle.length];
    select.dispatchEvent(new Event("change", { bubbles: true }));
  });

  document.addEventListener("change", function (event) {
    var select = event.target;
    if (!select.classList || !select.classList.contains("typing-multiplier")) return;
    var td = select.closest("td");
    choices(select).forEach(function (code) { if (code) td.classList.remove("tile-" + code); });
    if (select.value) td.classList.add("tile-" + select.value);
  });
})();
