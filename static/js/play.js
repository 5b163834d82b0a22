// The board page in the browser: trace words (drag, tap or keyboard), the round's clock, sharing.
// The server decides everything; this script only collects a path and shows what htmx brings back.
// Wired by ids, classes and data- attributes (strict CSP: no inline script, no hx-on).
(function () {
  "use strict";

  // A tile counts as entered when the pointer is this close to its centre (as a share of its width),
  // so that a diagonal move does not catch the corner of a side neighbour.
  var HIT_RADIUS = 0.42;
  var LOW_TIME = 10;

  var trace = [];          // [[row, col], ...] of the word being traced
  var dragging = false;
  var moved = false;
  var tappedLast = false;
  var focusCell = null;    // the tile that had keyboard focus, to give it back after the board is swapped
  var clock = null;        // {element, endsAt, url}

  function board() { return document.querySelector("#board.board-play"); }
  function form() { return document.getElementById("word-form"); }
  function cellOf(td) { return td.dataset.cell.split(",").map(Number); }
  function same(a, b) { return a && b && a[0] === b[0] && a[1] === b[1]; }
  function adjacent(a, b) { return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])) === 1; }
  function indexOf(cell) { for (var i = 0; i < trace.length; i++) { if (same(trace[i], cell)) return i; } return -1; }
  function tdAt(cell) { var b = board(); return b && b.querySelector('td[data-cell="' + cell[0] + "," + cell[1] + '"]'); }
  function last() { return trace[trace.length - 1]; }

  // Show the trace: highlighted tiles, the letters so far, a line through the tiles' centres.
  function draw() {
    var b = board();
    if (!b) return;
    var letters = "";
    b.querySelectorAll("td.traced").forEach(function (td) { td.classList.remove("traced"); });
    trace.forEach(function (cell) {
      var td = tdAt(cell);
      td.classList.add("traced");
      letters += td.querySelector(".tile-letter").textContent;
    });
    var out = document.getElementById("trace");
    if (out) out.textContent = letters;
    var line = b.parentElement.querySelector(".trail-line");
    if (line && trace.length) {
      line.setAttribute("points", trace.map(function (c) { return (c[1] + 0.5) + "," + (c[0] + 0.5); }).join(" "));
    }
  }

  function clearTrace() {
    trace = [];
    draw();
  }

  // Add a tile to the trace, or step back when it is the tile before the last (as in the app).
  function enter(cell) {
    var at = indexOf(cell);
    if (at !== -1 && at === trace.length - 2) { trace.pop(); draw(); return; }
    if (at !== -1) return;
    if (trace.length && !adjacent(last(), cell)) return;
    trace.push(cell);
    moved = true;
    draw();
  }

  function submitTrace() {
    var f = form();
    if (!f || trace.length < 2) return;
    f.elements.word.value = "";
    f.requestSubmit();
  }

  function tileUnderPointer(event) {
    var element = document.elementFromPoint(event.clientX, event.clientY);
    var td = element && element.closest("#board td[data-cell]");
    if (!td) return null;
    var box = td.getBoundingClientRect();
    var dx = event.clientX - (box.left + box.width / 2);
    var dy = event.clientY - (box.top + box.height / 2);
    return Math.hypot(dx, dy) <= HIT_RADIUS * box.width ? cellOf(td) : null;
  }

  document.addEventListener("pointerdown", function (event) {
    var td = event.target.closest && event.target.closest("#board.board-play td[data-cell]");
    if (!td || event.button > 0) return;
    event.preventDefault();
    var cell = cellOf(td);
    var at = indexOf(cell);
    tappedLast = trace.length >= 2 && at === trace.length - 1;
    if (at !== -1) {
      trace = trace.slice(0, at + 1);       // back to a tile already in the word
    } else if (trace.length && adjacent(last(), cell)) {
      trace.push(cell);                      // tap the next tile
    } else {
      trace = [cell];                        // a new word starts here
    }
    dragging = true;
    moved = false;
    draw();
  });

  document.addEventListener("pointermove", function (event) {
    if (!dragging) return;
    var cell = tileUnderPointer(event);
    if (cell && !same(cell, last())) enter(cell);
  });

  function release() {
    if (!dragging) return;
    dragging = false;
    if ((moved || tappedLast) && trace.length >= 2) submitTrace();  // release ends a drag; a second tap on the last tile sends it
  }
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", function () { dragging = false; });

  // Keyboard: arrows move between tiles, Space adds the tile, Enter sends the word, Backspace and Escape undo.
  document.addEventListener("keydown", function (event) {
    var td = event.target.closest && event.target.closest("#board.board-play td[data-cell]");
    if (!td) return;
    var cell = cellOf(td);
    var b = board();
    var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      var next = [cell[0] + moves[event.key][0], cell[1] + moves[event.key][1]];
      if (next[0] >= 0 && next[1] >= 0 && next[0] < Number(b.dataset.rows) && next[1] < Number(b.dataset.cols)) {
        focusTile(next);
      }
    } else if (event.key === " " || event.key === "Spacebar") {
      var at = indexOf(cell);
      if (at === trace.length - 1 && at !== -1) { trace.pop(); }
      else if (at === -1 && (!trace.length || adjacent(last(), cell))) { trace.push(cell); }
      else if (at === -1) { trace = [cell]; }
      draw();
    } else if (event.key === "Enter") {
      if (trace.length >= 2) submitTrace();
    } else if (event.key === "Backspace") {
      trace.pop();
      draw();
    } else if (event.key === "Escape") {
      clearTrace();
    } else {
      return;
    }
    event.preventDefault();
  });

  function focusTile(cell) {
    var target = tdAt(cell);
    if (!target) return;
    board().querySelectorAll(".tile-face").forEach(function (button) { button.tabIndex = -1; });
    var button = target.querySelector(".tile-face");
    button.tabIndex = 0;
    button.focus();
    focusCell = cell;
  }

  document.addEventListener("focusin", function (event) {
    var td = event.target.closest && event.target.closest("#board td[data-cell]");
    focusCell = td ? cellOf(td) : null;
  });

  // The word form sends the traced path when there is one, else the typed word.
  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (f.id !== "word-form") return;
    f.elements.path.value = (trace.length >= 2 && !f.elements.word.value.trim())
      ? trace.map(function (c) { return c[0] + "," + c[1]; }).join(" ")
      : "";
  }, true);

  document.addEventListener("htmx:afterRequest", function (event) {
    var f = event.detail.elt;
    if (!f || f.id !== "word-form") return;
    f.elements.word.value = "";
    f.elements.path.value = "";
    trace = [];
  });

  // The clock counts down from what the server said; at zero the server's page shows the round's end.
  function tick() {
    if (!clock || !document.body.contains(clock.element)) return;
    var left = Math.max(0, Math.ceil((clock.endsAt - Date.now()) / 1000));
    clock.element.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    clock.element.classList.toggle("timer-low", left <= LOW_TIME);
    if (left === 0) {
      var url = clock.url;
      clock = null;
      htmx.ajax("GET", url, { target: "#game", swap: "outerHTML" });
    }
  }
  setInterval(tick, 250);

  function share(button) {
    var url = button.dataset.share;
    if (navigator.share) {
      navigator.share({ url: url, text: button.dataset.shareText }).catch(function () {});
      return;
    }
    var done = function () {
      var label = button.textContent;
      button.textContent = "Link copied";
      setTimeout(function () { button.textContent = label; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, function () { selectShareField(); });
    } else {
      selectShareField();
    }
  }
  function selectShareField() {
    var field = document.getElementById("share-url");
    if (field) { field.focus(); field.select(); }
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-share]");
    if (button) share(button);
  });

  // Whatever htmx brings in (a new board, a new game region): start its clock, give back the focus.
  htmx.onLoad(function (root) {
    // Share buttons need this script: shown only now, named for what they will do in this browser.
    if (root.querySelectorAll) {
      root.querySelectorAll("[data-share]").forEach(function (button) {
        if (!navigator.share) button.textContent = button.dataset.copyLabel;
        button.hidden = false;
      });
    }
    var timer = root.querySelector ? (root.matches && root.matches("#timer") ? root : root.querySelector("#timer[data-remaining]")) : null;
    if (timer && timer.dataset.remaining) {
      clock = { element: timer, endsAt: Date.now() + Number(timer.dataset.remaining) * 1000, url: timer.dataset.refreshUrl };
    }
    if (root.querySelector && root.querySelector("#board") && focusCell && board()) {
      var wanted = focusCell;
      if (document.activeElement === document.body || !document.activeElement) focusTile(wanted);
    }
  });
})();
