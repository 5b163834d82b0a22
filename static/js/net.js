// The page's own requests and the server's time, for the scripts of a page that follows a round (the clock, the
// word queue, the page that waits for its next part). The one shared namespace, window.Ruzzle, holds:
//   Ruzzle.ask(url, init, controller) -> Promise of {response, html}: a request that gives up after TIMEOUT (or when
//     `controller` aborts it); the time its answer carries sets the page's clock.
//   Ruzzle.serverOffset() -> milliseconds to add to Date.now() to read the server's clock (null until known).
//   Ruzzle.whenIdle(callback) -> runs `callback` once no word is waiting or on its way; true if it has to wait.
// Sends: ruzzle:when-idle {then: callback}, cancelable: the word queue (word_queue.js) cancels it when words are on
//   their way and calls `then` once they are answered; nobody cancels it (no word, or no queue on the page): now.
// Listens: htmx:beforeRequest, htmx:beforeSwap (every htmx answer says the server's time too).
(function () {
  "use strict";

  var TIMEOUT = 8000;  // ms an attempt may take (a worker restarting, Wi-Fi lost)

  // The server's time: every answer says it (X-Ruzzle-Time). The offset from this device's clock is taken from
  // the answer that came back the fastest (its time is known best: it was stamped halfway there and back), so a
  // phone whose own clock is off, or a slow answer, does not move the round's end.
  var serverOffset = null;
  var bestTrip = Infinity;

  function noteServerTime(sent, received, header) {
    var stamped = Number(header) * 1000;
    if (!header || !isFinite(stamped)) return;
    var trip = received - sent;
    if (trip > bestTrip * 1.5 + 50) return;
    bestTrip = Math.min(bestTrip, trip);
    serverOffset = stamped - (sent + received) / 2;
  }
  document.addEventListener("htmx:beforeRequest", function (event) { event.detail.xhr.ruzzleSent = Date.now(); });
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail.xhr;
    if (xhr && xhr.ruzzleSent) noteServerTime(xhr.ruzzleSent, Date.now(), xhr.getResponseHeader("X-Ruzzle-Time"));
  });
  (function fromThePageItself() {
    // before any answer: the page's own request, stamped between its start and its first byte
    var navigation = window.performance && performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    var timer = document.querySelector("#timer[data-server-now]");
    if (!navigation || !timer || !performance.timeOrigin) return;
    noteServerTime(performance.timeOrigin + navigation.requestStart, performance.timeOrigin + navigation.responseStart,
                   timer.dataset.serverNow);
  })();

  function ask(url, init, controller) {
    controller = controller || (window.AbortController ? new AbortController() : null);
    var timer = setTimeout(function () { if (controller) controller.abort(); }, TIMEOUT);
    var sent = Date.now();
    init.credentials = "same-origin";
    init.signal = controller ? controller.signal : undefined;
    return fetch(url, init).then(function (response) {
      noteServerTime(sent, Date.now(), response.headers.get("X-Ruzzle-Time"));
      return response.text().then(function (html) { return { response: response, html: html }; });
    }).then(function (answer) {
      clearTimeout(timer);
      return answer;
    }, function (error) {
      clearTimeout(timer);
      throw error;
    });
  }

  function whenIdle(callback) {
    var waits = !document.dispatchEvent(new CustomEvent("ruzzle:when-idle", { cancelable: true, detail: { then: callback } }));
    if (!waits) callback();
    return waits;
  }

  window.Ruzzle = window.Ruzzle || {};
  window.Ruzzle.ask = ask;
  window.Ruzzle.serverOffset = function () { return serverOffset; };
  window.Ruzzle.whenIdle = whenIdle;
})();
