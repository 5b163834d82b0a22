// The host's view of a room: a presentation clicker (PageDown, →, Space, Enter) presses the stage's main action
// (Start before the round, "Walk through the words" after it), whatever has the focus, once per press.
(function () {
  "use strict";

  var NEXT = ["ArrowRight", "PageDown", " ", "Spacebar", "Enter"];
  var pressed = false;  // a Start already sent: a clicker's double press must not send it twice

  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.repeat) return;
    if (NEXT.indexOf(event.key) === -1) return;
    var action = document.querySelector("[data-clicker]");
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
