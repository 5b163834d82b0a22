// The text of every clock the pages count down (a round, a room's 3-2-1, the projector's timer): m:ss, whole seconds
// rounded up, as the server writes the same clocks (views/pages.py clock_text), so a clock never jumps when the
// script takes over from the page.
(function () {
  "use strict";

  window.Ruzzle = window.Ruzzle || {};
  window.Ruzzle.clockText = function (seconds) {
    var whole = Math.max(0, Math.ceil(seconds));
    return Math.floor(whole / 60) + ":" + String(whole % 60).padStart(2, "0");
  };
})();
