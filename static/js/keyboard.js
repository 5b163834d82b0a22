// The board from the keyboard, and where the focus goes: arrows move between the tiles (one tile in the tab order),
// Space, Enter, Backspace and Escape on a tile are passed on to the trace (trace.js). A board that htmx brings in
// gives the focus back to the tile that had it; at the end of a round the focus goes to the summary's heading, so a
// screen reader says the round is over.
// Listens: keydown and focusin on the board's tiles; htmx's load of a new region (htmx.onLoad).
// Sends: ruzzle:tile-key {cell: [row, col], action: "toggle" | "send" | "back" | "clear"}.
(function () {
  "use strict";

  var MOVES = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  var ACTIONS = { " ": "toggle", Spacebar: "toggle", Enter: "send", Backspace: "back", Escape: "clear" };
  var focusCell = null;    // the tile that had keyboard focus, to give it back after the board is swapped

  function board() { return document.querySelector("#board.board-play"); }
  function cellOf(td) { return td.dataset.cell.split(",").map(Number); }
  function closest(target, selector) { return target && target.closest ? target.closest(selector) : null; }

  function focusTile(cell) {
    var b = board();
    var target = b && b.querySelector('td[data-cell="' + cell[0] + "," + cell[1] + '"]');
    if (!target) return;
    b.querySelectorAll(".tile-face").forEach(function (button) { button.tabIndex = -1; });
    var button = target.querySelector(".tile-face");
    button.tabIndex = 0;
    button.focus();
    focusCell = cell;
  }

  document.addEventListener("keydown", function (event) {
    var td = closest(event.target, "#board.board-play td[data-cell]");
    if (!td) return;
    var cell = cellOf(td);
    var b = board();
    if (MOVES[event.key]) {
      var next = [cell[0] + MOVES[event.key][0], cell[1] + MOVES[event.key][1]];
      if (next[0] >= 0 && next[1] >= 0 && next[0] < Number(b.dataset.rows) && next[1] < Number(b.dataset.cols)) {
        focusTile(next);
      }
    } else if (ACTIONS[event.key]) {
      document.dispatchEvent(new CustomEvent("ruzzle:tile-key", { detail: { cell: cell, action: ACTIONS[event.key] } }));
    } else {
      return;
    }
    event.preventDefault();
  });

  document.addEventListener("focusin", function (event) {
    var td = closest(event.target, "#board td[data-cell]");
    focusCell = td ? cellOf(td) : null;
  });

  htmx.onLoad(function (root) {
    if (!root.querySelector) return;
    var summary = root.querySelector("#summary-title");
    if (summary && root !== document.body) {
      summary.focus();
    } else if (root.querySelector("#board") && focusCell && board()) {
      if (document.activeElement === document.body || !document.activeElement) focusTile(focusCell);
    }
  });
})();
