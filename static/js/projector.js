// The projector: presentation-clicker keys step the walk-through whatever has the focus (a clicker sends
// PageDown/PageUp, arrows, Space, Enter); the teacher's timer has its own key (T) and buttons, and keeps
// running across the page's own reloads (theme, order, scores), kept in sessionStorage per board.
(function () {
  "use strict";

  var NEXT = ["ArrowRight", "PageDown", " ", "Spacebar", "ArrowDown", "Enter"];
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
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var id;
    if (event.key === "t" || event.key === "T") { event.preventDefault(); toggleTimer(); return; }
    // Enter on a link or button the teacher reached with Tab follows it; every other clicker key steps the
    // walk even when a button has the focus (Space would otherwise press it: Start, then Space, paused the timer)
    if (event.key === "Enter" && event.target.closest && event.target.closest("a[href], button")) return;
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

  // The theme option swaps only the walk-through: the page's colours follow the theme it names.
  document.addEventListener("htmx:afterSwap", function (event) {
    var walk = document.getElementById("walk");
    if (!walk || !walk.dataset.theme) return;
    var root = document.documentElement;
    root.classList.toggle("theme-dark", walk.dataset.theme === "dark");
    root.classList.toggle("theme-light", walk.dataset.theme !== "dark");
  });
  document.addEventListener("htmx:afterRequest", function (event) { if (!event.detail.successful) forget(); });
  document.addEventListener("htmx:sendError", forget);
  document.addEventListener("htmx:historyRestore", forget);
  window.addEventListener("popstate", forget);

  // The timer counts down on this screen only: it is the teacher's clock for the class. Its state (the moment
  // it ends while it runs, the seconds left while paused) is kept for this board in sessionStorage, so the
  // page's own links (theme, order, scores) do not reset it.
  var display = null;
  var startButton = null;
  var total = 0;
  var state = null;    // {endsAt} while running, {left} while paused
  var ticking = null;
  var key = null;

  function secondsLeft() {
    if (!state) return total;
    if (state.endsAt) return Math.max(0, Math.ceil((state.endsAt - Date.now()) / 1000));
    return state.left;
  }

  function save() {
    try {
      if (state) sessionStorage.setItem(key, JSON.stringify(state)); else sessionStorage.removeItem(key);
    } catch (error) { /* storage off: the timer still runs on this page */ }
  }

  function show() {
    var left = secondsLeft();
    display.textContent = window.Ruzzle.clockText(left);
    display.classList.toggle("timer-low", left <= 10);
    display.classList.toggle("timer-done", left === 0);
    // the labels come from the page, in its language
    startButton.textContent = state && state.endsAt && left > 0 ? startButton.dataset.pauseText : startButton.dataset.startText;
    if (state && state.endsAt && left === 0) { state = { left: 0 }; save(); stopTicking(); }
  }

  function stopTicking() { if (ticking) { clearInterval(ticking); ticking = null; } }
  function startTicking() { stopTicking(); ticking = setInterval(show, 250); }

  function toggleTimer() {
    if (!display) return;
    var left = secondsLeft();
    if (state && state.endsAt) {
      state = { left: left };
      stopTicking();
    } else if (left > 0) {
      state = { endsAt: Date.now() + left * 1000 };
      startTicking();
    }
    save();
    show();
  }

  function resetTimer() {
    state = null;
    stopTicking();
    save();
    show();
  }

  function setUp() {
    display = document.getElementById("projector-timer");
    startButton = document.getElementById("timer-start");
    var reset = document.getElementById("timer-reset");
    if (!display || !startButton || !reset) return;
    total = Number(display.dataset.seconds);
    key = "ruzzle-projector-timer:" + location.pathname;
    try { state = JSON.parse(sessionStorage.getItem(key) || "null"); } catch (error) { state = null; }
    startButton.hidden = false;
    reset.hidden = false;
    // a mouse click leaves no focus behind on the button, so the clicker's Space and Enter stay the walk's
    startButton.addEventListener("click", function () { toggleTimer(); startButton.blur(); });
    reset.addEventListener("click", function () { resetTimer(); reset.blur(); });
    if (state && state.endsAt) startTicking();
    show();
  }

  document.addEventListener("DOMContentLoaded", setUp);
})();

// A meaning cut at its fourth line (projector.css) offers the whole meaning, in a tab of its own.
(function () {
  "use strict";

  htmx.onLoad(function offerWholeMeaning(root) {
    var panels = root.querySelectorAll ? Array.prototype.slice.call(root.querySelectorAll(".meaning-large")) : [];
    if (root.matches && root.matches(".meaning-large")) panels.push(root);
    panels.forEach(function (panel) {
      var line = panel.querySelector(".meaning-line");
      var more = panel.querySelector(".meaning-more");
      if (line && more) more.hidden = line.scrollHeight <= line.clientHeight + 1;
    });
  });
})();
