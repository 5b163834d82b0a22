// The queue of words on their way: a player plays a stream of words; each goes into this queue, which sends one word
// at a time, in order, so the answers come back in the order the words were played (the round lives in the store,
// whose atomic step keeps a word from being lost or doubled even when two requests cross). No word is lost to the
// network: a word that cannot be sent (offline, a dropped request, a server restarting or asking to slow down) stays
// first and is tried again by itself, sooner and sooner apart at first, then every few seconds, and at once when the
// network is back. An answer goes where htmx would put it (#result and its out-of-band regions: the score; the
// word's path and list item come in #result, for trace.js and found_list.js).
// Listens: ruzzle:word-played {fields, label} (trace.js, word_form.js): a word to send, `fields` as the form posts
//   them ({path} or {word}), `label` as the player sees it; ruzzle:send-now (network_notice.js) and ruzzle:wake-up
//   (never_stuck.js): try the waiting word at once; ruzzle:when-idle {then} (net.js): cancelled and called back
//   later while words wait.
// Sends: ruzzle:word-queued {id, label}; ruzzle:word-answered {id, label, outcome: "found" | "refused" | "too-late",
//   points, reason, message}: what the server said of the word (its HX-Trigger header's ruzzle:word, views/pages.py
//   word_outcome; an answer without it, a proxy's error page, is "refused" without a message);
//   ruzzle:queue {busy, waiting, slow}: words queued or on their way, how many wait for the network (0 while the
//   first try of a word is under way), and whether they wait because the server asked to slow down.
(function () {
  "use strict";

  var RETRY_DELAYS = [500, 1000, 2000, 3000, 5000];  // ms before each new try of a word not sent; then every 5 s

  var queue = [];          // words waiting, oldest first: {id, fields, label, attempts, url}
  var inFlight = null;     // the word on its way (or waiting to be tried again)
  var retryTimer = null;
  var idleWaiters = [];    // callbacks to run once no word is waiting or on its way
  var lastId = 0;

  function emit(name, detail) { document.dispatchEvent(new CustomEvent(name, { detail: detail })); }
  function busy() { return inFlight !== null || queue.length > 0; }

  function wordsUrl() {
    var game = document.getElementById("game");
    return game ? game.dataset.wordsUrl : null;
  }

  function enqueue(fields, label) {
    var item = { id: ++lastId, fields: fields, label: label, attempts: 0, url: wordsUrl() };
    if (!item.url) return;
    emit("ruzzle:word-queued", { id: item.id, label: label });
    queue.push(item);
    pump();
  }

  function pump() {
    if (inFlight) return;
    report();
    if (!queue.length) {
      var waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach(function (callback) { callback(); });
      return;
    }
    inFlight = queue.shift();
    attempt(inFlight);
  }

  // The words waiting for the network: a network's first failure is tried again quietly.
  function report() {
    var waiting = inFlight && (inFlight.attempts >= 2 || inFlight.tooFast) ? queue.length + 1 : 0;
    emit("ruzzle:queue", { busy: busy(), waiting: waiting, slow: Boolean(waiting && inFlight.tooFast) });
  }

  function attempt(item) {
    clearTimeout(retryTimer);
    retryTimer = null;
    item.attempts += 1;
    item.sending = true;
    item.controller = window.AbortController ? new AbortController() : null;
    window.Ruzzle.ask(item.url, {
      method: "POST",
      body: new URLSearchParams(item.fields),
      headers: { "HX-Request": "true", "HX-Target": "result", "HX-Current-URL": location.href },
    }, item.controller).then(function (answer) {
      // 5xx (a worker restarting, the store busy, a proxy between) or 429 (too fast): the word is safe to send
      // again (a repeat is "already found"), after the time the server asks for, if it says
      var status = answer.response.status;
      if (status >= 500 || status === 429) {
        var busyServer = new Error("server answered " + status);
        busyServer.retryAfter = Number(answer.response.headers.get("Retry-After")) || 0;
        busyServer.tooFast = status === 429;
        throw busyServer;
      }
      return answer;
    }).then(function (answer) {
      item.sending = false;
      showAnswer(item, answer);
      inFlight = null;
      pump();
    }, function (error) {
      item.sending = false;
      if (inFlight !== item) return;
      var delay = item.atOnce ? 0 : error && error.retryAfter ? error.retryAfter * 1000 :
        RETRY_DELAYS[Math.min(item.attempts, RETRY_DELAYS.length) - 1];
      item.atOnce = false;
      item.tooFast = Boolean(error && error.tooFast);
      if (item.attempts >= 2 || item.tooFast) report();
      retryTimer = setTimeout(function () { attempt(item); }, delay);
    });
  }

  // Send the waiting word now (the network is back, the page is looked at again, or the player asked): a try that
  // hangs on the old network is dropped for a new one.
  function sendWaitingNow() {
    var item = inFlight;
    if (!item) return;
    if (item.sending) {
      if (item.attempts >= 2 && item.controller) { item.atOnce = true; item.controller.abort(); }
      return;
    }
    attempt(item);
  }

  // The server's answer goes where htmx would put it (its fragments carry their out-of-band regions).
  function showAnswer(item, answer) {
    var headers = answer.response.headers;
    var outcome = outcomeOf(headers);
    emit("ruzzle:word-answered", Object.assign({ id: item.id, label: item.label }, outcome));
    var target = document.querySelector(headers.get("HX-Retarget") || "#result");
    if (!target) return;
    htmx.swap(target, answer.html, { swapStyle: headers.get("HX-Reswap") || "outerHTML", swapDelay: 0, settleDelay: 0 });
  }

  function outcomeOf(headers) {
    var detail;
    try { detail = JSON.parse(headers.get("HX-Trigger") || "{}")["ruzzle:word"]; } catch (error) { detail = null; }
    return detail && detail.outcome ? detail : { outcome: "refused", message: "" };
  }

  document.addEventListener("ruzzle:word-played", function (event) { enqueue(event.detail.fields, event.detail.label); });
  document.addEventListener("ruzzle:send-now", sendWaitingNow);
  document.addEventListener("ruzzle:wake-up", sendWaitingNow);
  document.addEventListener("ruzzle:when-idle", function (event) {
    if (!busy()) return;
    idleWaiters.push(event.detail.then);
    event.preventDefault();
  });
})();
