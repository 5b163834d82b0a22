// The host's view of a room: a presentation clicker (PageDown, →, Space, Enter) presses the stage's main action
// (Start before the round, Resume while paused, "Walk through the words" after it), whatever has the focus, once per
// press; its "blank screen" key (B or .) pauses and resumes the round.
(function () {
  "use strict";

  var NEXT = ["ArrowRight", "PageDown", " ", "Spacebar", "Enter"];
  var BLANK = ["b", "B", "."];
  var pressed = false;  // a Start already sent: a clicker's double press must not send it twice

  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
    var blank = BLANK.indexOf(event.key) !== -1;
    if (NEXT.indexOf(event.key) === -1 && !blank) return;
    var action = document.querySelector(blank ? "[data-clicker-pause]" : "[data-clicker]");
    if (!action) return;
    // Enter or Space on another button or link the host reached with Tab presses that one
    var focused = event.target.closest && event.target.closest("a[href], button");
    if (focused && focused !== action && (event.key === "Enter" || event.key === " ")) return;
    event.preventDefault();
    if (pressed) return;
    pressed = true;
    action.click();
  });

  // A new stage (htmx swapped it in) has its own action: the clicker may press it.
  document.addEventListener("htmx:afterSwap", function () { pressed = false; });
  window.addEventListener("pageshow", function () { pressed = false; });
})();

// The host's stage polls and is swapped whole when something changed: the players' tools the teacher opened stay
// open (the remote's link does not: it closes with the next change, so it does not stay on the projector), and a
// stage is not swapped under a teacher typing a pupil's new name or extra time.
(function () {
  "use strict";

  var open = [];
  document.addEventListener("htmx:beforeRequest", function (event) {
    var stage = event.detail.elt;
    if (!stage || stage.id !== "game") return;
    var active = document.activeElement;
    if (active && stage.contains(active) && active.matches("input, select, textarea")) event.preventDefault();
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.target && event.detail.target.id === "game") {
      open = Array.prototype.map.call(document.querySelectorAll("#game details#manage[open]"), function (d) { return d.id; });
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    open.forEach(function (id) { var details = document.getElementById(id); if (details) details.open = true; });
  });
  function openFromAddress() {
    var details = location.hash && document.getElementById(location.hash.slice(1));
    if (details && details.tagName === "DETAILS") details.open = true;
  }
  document.addEventListener("DOMContentLoaded", openFromAddress);
})();
