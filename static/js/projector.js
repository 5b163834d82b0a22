// The projector: presentation-clicker keys step the walk-through; the teacher starts the round's timer.
(function () {
  "use strict";

  var NEXT = ["ArrowRight", "PageDown", " ", "Spacebar", "ArrowDown"];
  var PREVIOUS = ["ArrowLeft", "PageUp", "ArrowUp", "Backspace"];

  // A clicker pressed twice quickly means two steps: presses that come while a step is loading wait
  // their turn, and each is taken from the links of the walk-through as it stands after the last one.
  // A held key's repeats are not queued, and a step that never lands (Back pressed while it loads, a lost
  // answer) stops blocking after a few seconds.
  var STUCK_MS = 4000;
  var waiting = [];
  var loadingSince = 0;

  function loading() { return loadingSince && Date.now() - loadingSince < STUCK_MS; }

  function step(id) {
    var link = document.getElementById(id);
    if (!link) { takeNext(); return; }
    loadingSince = Date.now();
    link.click();
  }

  function takeNext() {
    loadingSince = 0;
    if (waiting.length) step(waiting.shift());
  }

  function forget() { waiting = []; loadingSince = 0; }

  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, select, textarea, button")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var id;
    if (NEXT.indexOf(event.key) !== -1) id = "walk-next";
    else if (PREVIOUS.indexOf(event.key) !== -1) id = "walk-previous";
    else return;
    event.preventDefault();
    if (!loading()) { waiting = []; step(id); }
    else if (!event.repeat) waiting.push(id);
  });

  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target.id === "walk") takeNext();
  });
  document.addEventListener("htmx:afterRequest", function (event) { if (!event.detail.successful) forget(); });
  document.addEventListener("htmx:sendError", forget);
  document.addEventListener("htmx:historyRestore", forget);
  window.addEventListener("popstate", forget);

  // The timer counts down on this screen only: it is the teacher's clock for the class.
  var timer = null;
  var left = 0;
  var display = null;

  function show() {
    display.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    display.classList.toggle("timer-low", left <= 10);
    display.classList.toggle("timer-done", left === 0);
  }

  function setUp() {
    display = document.getElementById("projector-timer");
    var start = document.getElementById("timer-start");
    var reset = document.getElementById("timer-reset");
    if (!display || !start || !reset) return;
    left = Number(display.dataset.seconds);
    start.hidden = false;
    reset.hidden = false;
    start.addEventListener("click", function () {
      if (timer) {
        clearInterval(timer);
        timer = null;
        start.textContent = "Start";
        return;
      }
      start.textContent = "Pause";
      timer = setInterval(function () {
        left = Math.max(0, left - 1);
        show();
        if (left === 0) { clearInterval(timer); timer = null; start.textContent = "Start"; }
      }, 1000);
    });
    reset.addEventListener("click", function () {
      if (timer) { clearInterval(timer); timer = null; }
      start.textContent = "Start";
      left = Number(display.dataset.seconds);
      show();
    });
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();
