// The word being traced on the board (#board.board-play): drag across the tiles or tap them one by one; the trace
// is drawn (tiles marked and pressed for a screen reader, the word so far in #trace, a line through the tiles).
// And the path of the word the result shows (a word found, or opened from a list): its answer brings only the path,
// in #result's data-path, drawn here on the tiles as the server draws it (numbered, named, a line through them). A
// path that comes while a finger traces, or while more words are on their way, waits and is drawn when the trace
// ends and the last answer is in (only the last word's path is worth showing; never redrawn under a finger).
// Listens: pointerdown/move/up/cancel on the board's tiles;
//   ruzzle:tile-key {cell: [row, col], action: "toggle" | "send" | "back" | "clear"} (keyboard.js): a key on a tile;
//   ruzzle:send-trace (cancelable; word_form.js): send the trace if it is a word, and cancel the event if it was;
//   ruzzle:word-queued, ruzzle:word-answered (word_queue.js): the words on their way; htmx's load of a new #result.
// Sends: ruzzle:word-played {fields: {path: "r,c r,c ..."}, label: "WORD"} when a traced word is finished;
//   ruzzle:trace {active: bool, letters: "WO"} whenever the trace changes (active: a finger is down or tiles are marked).
(function () {
  "use strict";

  // A tile counts as entered when the pointer is this close to its centre (as a share of its width),
  // so that a diagonal move does not catch the corner of a side neighbour.
  var HIT_RADIUS = 0.42;

  var trace = [];          // [[row, col], ...] of the word being traced
  var dragging = false;
  var moved = false;
  var pressCell = null;    // the tile the current press started on
  var tappedLast = false;
  var queued = 0;          // words sent to the queue, and words answered: the difference is still on its way
  var answered = 0;
  var heldPath = null;     // the path of a result that came while the player traced ("" for none), drawn after

  function board() { return document.querySelector("#board.board-play"); }
  function cellOf(td) { return td.dataset.cell.split(",").map(Number); }
  function same(a, b) { return a && b && a[0] === b[0] && a[1] === b[1]; }
  function adjacent(a, b) { return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1])) === 1; }
  function indexOf(cell) { for (var i = 0; i < trace.length; i++) { if (same(trace[i], cell)) return i; } return -1; }
  function tdAt(cell) { var b = board(); return b && b.querySelector('td[data-cell="' + cell[0] + "," + cell[1] + '"]'); }
  function last() { return trace[trace.length - 1]; }
  function closest(target, selector) { return target && target.closest ? target.closest(selector) : null; }
  function lettersOf(path) {
    return path.map(function (cell) { var td = tdAt(cell); return td ? td.querySelector(".tile-letter").textContent : ""; }).join("");
  }
  function emit(name, detail) { document.dispatchEvent(new CustomEvent(name, { detail: detail })); }

  // The words the page lists as found, to say so while the same word is traced again.
  function foundWords() {
    var words = {};
    document.querySelectorAll("#found .word-list a").forEach(function (a) { words[a.textContent.trim()] = true; });
    return words;
  }

  // Show the trace, and tell the page whether a word is being traced.
  function draw() {
    var b = board();
    if (b) {
      b.querySelectorAll("td.traced").forEach(function (td) {
        td.classList.remove("traced");
        td.querySelector(".tile-face").setAttribute("aria-pressed", "false");
      });
      trace.forEach(function (cell) {
        var td = tdAt(cell);
        td.classList.add("traced");
        td.querySelector(".tile-face").setAttribute("aria-pressed", "true");
      });
      var banner = document.getElementById("trace");
      if (banner) {
        var known = trace.length >= 2 && foundWords()[lettersOf(trace)];
        banner.textContent = lettersOf(trace) + (known ? " · " + banner.dataset.foundText : "");
        banner.classList.toggle("trace-known", Boolean(known));
      }
      var line = b.parentElement.querySelector(".trail-line");
      if (line && (trace.length || !b.querySelector("td.on-path"))) {
        line.setAttribute("points", trace.map(function (c) { return (c[1] + 0.5) + "," + (c[0] + 0.5); }).join(" "));
      }
    }
    emit("ruzzle:trace", { active: tracing(), letters: lettersOf(trace) });
    flushPath();
  }

  // The last word's path goes when a new word starts: a new trace starts on a clean board.
  function clearHighlight() { clearPath(board()); }

  function clearPath(b) {
    if (!b) return;
    b.querySelectorAll("td.on-path").forEach(function (td) {
      td.classList.remove("on-path", "path-start");
      var step = td.querySelector(".tile-step");
      if (step) step.remove();
      var face = td.querySelector(".tile-face");
      if (face.dataset.plainLabel) face.setAttribute("aria-label", face.dataset.plainLabel);
    });
    var trail = b.parentElement.querySelector(".trail");
    if (trail) {
      trail.querySelectorAll(".trail-start").forEach(function (dot) { dot.remove(); });
      var line = trail.querySelector(".trail-line");
      if (line) line.setAttribute("points", "");
    }
  }

  // A path ("r,c r,c ...") drawn as _board_table.html draws it: each tile marked and numbered, its name saying which
  // letter of the word it is (the board's data-step-label), a line from a dot on the first tile.
  function drawPath(text) {
    var b = document.getElementById("board");
    clearPath(b);
    if (!b || !text) return;
    var cells = text.split(" ").map(function (pair) { return pair.split(",").map(Number); });
    cells.forEach(function (cell, index) {
      var td = b.querySelector('td[data-cell="' + cell[0] + "," + cell[1] + '"]');
      if (!td) return;
      var step = index + 1, face = td.querySelector(".tile-face");
      td.classList.add("on-path");
      if (step === 1) td.classList.add("path-start");
      var visible = [".tile-letter", ".tile-mult", ".tile-value"].map(function (part) {
        var span = face.querySelector(part);
        return span ? span.textContent.trim() : "";
      }).filter(Boolean).join(" ");
      var plain = face.dataset.plainLabel || face.getAttribute("aria-label") || "";
      var which = (b.dataset.stepLabel || "").replace("{n}", step);
      face.dataset.plainLabel = plain;
      face.setAttribute("aria-label", plain.indexOf(visible + ",") === 0 ?
        visible + " " + step + plain.slice(visible.length) + ", " + which : plain + ", " + which);
      var mark = document.createElement("span");
      mark.className = "tile-step";
      mark.textContent = String(step);
      face.appendChild(mark);
    });
    var trail = b.parentElement.querySelector(".trail");
    var line = trail && trail.querySelector(".trail-line");
    if (!line) return;
    line.setAttribute("points", cells.map(function (c) { return (c[1] + 0.5) + "," + (c[0] + 0.5); }).join(" "));
    var dot = document.createElementNS("http://www.w3.org/2000/svg", "circle");
    dot.setAttribute("class", "trail-start");
    dot.setAttribute("cx", cells[0][1] + 0.5);
    dot.setAttribute("cy", cells[0][0] + 0.5);
    dot.setAttribute("r", "0.12");
    trail.appendChild(dot);
  }

  function tracing() { return dragging || trace.length > 0; }

  function showPath(text) {
    if (queued > answered) { heldPath = null; return; }  // a later word's answer brings the path to show
    if (tracing()) { heldPath = text; return; }
    heldPath = null;
    drawPath(text);
  }

  function flushPath() {
    if (heldPath === null || tracing() || queued > answered) return;
    var text = heldPath;
    heldPath = null;
    drawPath(text);
  }

  // Add a tile to the trace, or step back when it is the tile before the last (as in the app).
  function enter(cell) {
    var at = indexOf(cell);
    if (at !== -1 && at === trace.length - 2) { trace.pop(); draw(); return; }
    if (at !== -1) return;
    if (trace.length && !adjacent(last(), cell)) return;
    trace.push(cell);
    draw();
  }

  function sendTrace() {
    if (trace.length < 2) return false;
    var path = trace.map(function (c) { return c[0] + "," + c[1]; }).join(" ");
    emit("ruzzle:word-played", { fields: { path: path }, label: lettersOf(trace) });
    trace = [];
    draw();
    return true;
  }

  function tileUnderPointer(event) {
    var element = document.elementFromPoint(event.clientX, event.clientY);
    var td = closest(element, "#board td[data-cell]");
    if (!td) return null;
    var box = td.getBoundingClientRect();
    var dx = event.clientX - (box.left + box.width / 2);
    var dy = event.clientY - (box.top + box.height / 2);
    return Math.hypot(dx, dy) <= HIT_RADIUS * box.width ? cellOf(td) : null;
  }

  document.addEventListener("pointerdown", function (event) {
    var td = closest(event.target, "#board.board-play td[data-cell]");
    if (!td || event.button > 0) return;
    event.preventDefault();
    clearHighlight();
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
    pressCell = cell;
    dragging = true;
    moved = false;
    draw();
  });

  document.addEventListener("pointermove", function (event) {
    if (!dragging) return;
    var cell = tileUnderPointer(event);
    if (!cell || same(cell, last())) return;
    if (!moved) {
      // A press that moves is always a new word: tiles tapped before it (a stray tap) are not part of it.
      moved = true;
      trace = [pressCell];
      if (same(cell, pressCell)) { draw(); return; }
    }
    enter(cell);
  });

  // Release ends a drag; a second tap on the last tile sends the word.
  document.addEventListener("pointerup", function () {
    if (!dragging) return;
    dragging = false;
    if (!((moved || tappedLast) && sendTrace())) draw();
  });
  document.addEventListener("pointercancel", function () { dragging = false; draw(); });

  // A key on a tile: Space adds the tile (or takes back the last), Enter sends, Backspace and Escape undo.
  document.addEventListener("ruzzle:tile-key", function (event) {
    var cell = event.detail.cell, action = event.detail.action;
    if (action === "toggle") {
      if (!trace.length) clearHighlight();
      var at = indexOf(cell);
      if (at === trace.length - 1 && at !== -1) { trace.pop(); }
      else if (at === -1 && (!trace.length || adjacent(last(), cell))) { trace.push(cell); }
      else if (at === -1) { trace = [cell]; }
    } else if (action === "send") {
      sendTrace();
      return;
    } else if (action === "back") {
      trace.pop();
    } else if (action === "clear") {
      trace = [];
    }
    draw();
  });

  document.addEventListener("ruzzle:send-trace", function (event) { if (sendTrace()) event.preventDefault(); });

  document.addEventListener("ruzzle:word-queued", function () { queued += 1; });
  document.addEventListener("ruzzle:word-answered", function () { answered += 1; });
  htmx.onLoad(function (root) {
    if (root && root.id === "result" && root.hasAttribute("data-path")) showPath(root.dataset.path);
  });
})();
