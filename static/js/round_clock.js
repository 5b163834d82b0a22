// The round's clock (#timer): it counts down to the end the server said, on the server's time (net.js); paused, it
// stands still. A screen reader hears the time left at each whole minute and at 10 seconds, not every second. At
// zero, once the last words are answered, the page asks for what comes next (the round's end, or the board after a
// room's 3-2-1, which was fetched ahead and shows without asking).
// Listens: htmx's load of a region with a #timer (htmx.onLoad); ruzzle:wake-up (never_stuck.js): tick at once.
// Sends: ruzzle:announce {text} (announce.js); ruzzle:refresh {url, target} (never_stuck.js) at zero;
//   ruzzle:when-idle through Ruzzle.whenIdle (net.js).
(function () {
  "use strict";

  var LOW_TIME = 10;
  var clock = null;        // {element, endsAt, url, target, said, after, spread, timeUp}
  var clockTimer = null;
  var aheads = {};         // the page's URL -> its region as of the start

  function emit(name, detail) { document.dispatchEvent(new CustomEvent(name, { detail: detail })); }

  function startClock(timer) {
    var remaining = Number(timer.dataset.remaining) * 1000;
    if (timer.dataset.paused !== undefined) { clock = null; return; }
    var serverNow = Number(timer.dataset.serverNow) * 1000;
    var offset = window.Ruzzle.serverOffset();
    var endsAt = offset !== null && serverNow ? serverNow + remaining - offset : Date.now() + remaining;
    clock = { element: timer, endsAt: endsAt, url: timer.dataset.refreshUrl, target: timer.dataset.refreshTarget || "#game",
              said: Math.ceil(remaining / 1000), after: Number(timer.dataset.refreshAfter || 0) * 1000,
              spread: Number(timer.dataset.refreshSpread || 0) * 1000, timeUp: timer.dataset.timeUp };
    if (timer.dataset.aheadUrl) fetchAhead(timer, clock.url, timer.dataset.aheadUrl);
    tick();
  }

  // Each tick comes right when the clock's second turns (and at least every 250 ms, should a timer be late).
  function tick() {
    clearTimeout(clockTimer);
    if (!clock || !document.body.contains(clock.element)) return;
    var toGo = clock.endsAt - Date.now();
    var left = Math.max(0, Math.ceil(toGo / 1000));
    if (left > 0) clockTimer = setTimeout(tick, Math.min(250, toGo - (left - 1) * 1000 + 5));
    clock.element.textContent = window.Ruzzle.clockText(left);
    clock.element.classList.toggle("timer-low", left <= LOW_TIME);
    if (left < clock.said) {
      clock.said = left;
      sayTimeLeft(left);
    }
    if (left === 0) {
      var url = clock.url, target = clock.target, ahead = Boolean(clock.element.dataset.aheadUrl);
      // A big room's phones say "Time's up" themselves and ask for the results once no word can land any more, each
      // at a moment of its own within the spread the server gave (not every phone of a school at the same second).
      var wait = clock.after + Math.random() * clock.spread;
      if (clock.timeUp) clock.element.textContent = clock.timeUp;
      clock = null;
      window.Ruzzle.whenIdle(function () {
        setTimeout(function () { if (!(ahead && useAhead(url, target))) emit("ruzzle:refresh", { url: url, target: target }); }, wait);
      });
    }
  }

  // A room's board comes during the 3-2-1, each phone when its lobby poll saw the 3-2-1 (a school's 2,000 phones ask
  // over a few seconds, not at the same instant), drawn as of the start; at 0 it shows without asking. Without it (a
  // phone that could not fetch it), the board is asked for at 0, as any page that waits.
  function fetchAhead(timer, url, aheadUrl) {
    delete aheads[url];
    window.Ruzzle.ask(aheadUrl, { headers: { "HX-Request": "true" } }).then(function (answer) {
      // too late once the 3-2-1 is gone (the board was asked for at 0): a board as of the start would be stale
      if (answer.response.status === 200 && document.body.contains(timer)) aheads[url] = answer.html;
    }).catch(function () {});
  }

  function useAhead(url, target) {
    var html = aheads[url], element = document.querySelector(target);
    delete aheads[url];
    if (!html || !element) return false;
    htmx.swap(element, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
    return true;
  }

  function sayTimeLeft(left) {
    var texts = document.getElementById("announce");
    if (!texts || !texts.dataset.minutes) return;
    if (left > 0 && left % 60 === 0) {
      emit("ruzzle:announce", { text: (left === 60 ? texts.dataset.minute : texts.dataset.minutes).replace("{n}", left / 60) });
    } else if (left === LOW_TIME) {
      emit("ruzzle:announce", { text: texts.dataset.seconds.replace("{n}", left) });
    }
  }

  document.addEventListener("ruzzle:wake-up", function () { if (clock) tick(); });

  htmx.onLoad(function (root) {
    if (!root.querySelector) return;
    var timer = root.matches && root.matches("#timer") ? root : root.querySelector("#timer[data-remaining]");
    if (timer && timer.dataset.remaining) startClock(timer);
  });
})();
