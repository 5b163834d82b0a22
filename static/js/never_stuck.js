// Never stuck: the page that waits for something always gets it. A page waiting for the next thing (the board after
// the 3-2-1, the results at 0:00) asks for it until it has it; the page's polls go on whatever happens, backing off
// after a failure; and when the network comes back or the phone wakes up, everything asks at once.
// Listens: ruzzle:refresh {url, target} (round_clock.js): GET `url` and swap it into `target` as htmx would, until it
//   is there; htmx:beforeRequest, htmx:afterRequest of the polls; online, resume, pageshow, visibilitychange.
// Sends: ruzzle:wake-up (word_queue.js sends the waiting word, round_clock.js ticks).
(function () {
  "use strict";

  // A try that fails (offline, the server restarting) is made again, a little later each time (at most every 4 s),
  // and at once when the network comes back or the phone wakes up.
  var REFRESH_DELAYS = [1000, 2000, 3000, 4000];
  var pending = null;  // {url, target, failures, timer}

  function refresh(url, target) {
    if (pending) clearTimeout(pending.timer);
    pending = { url: url, target: target, failures: 0, timer: null };
    tryRefresh();
  }
  document.addEventListener("ruzzle:refresh", function (event) { refresh(event.detail.url, event.detail.target); });

  function tryRefresh() {
    var job = pending;
    if (!job || job.loading) return;
    clearTimeout(job.timer);
    job.loading = true;
    load(job.url, job.target).then(function (done) {
      job.loading = false;
      if (pending !== job) return;
      if (done) { pending = null; return; }
      job.failures += 1;
      job.timer = setTimeout(tryRefresh, REFRESH_DELAYS[Math.min(job.failures, REFRESH_DELAYS.length) - 1]);
    });
  }

  // GET a page region and swap it in as htmx would; true once it is in place.
  function load(url, target) {
    return window.Ruzzle.ask(url, { headers: { "HX-Request": "true", "HX-Current-URL": location.href } }).then(function (answer) {
      var headers = answer.response.headers;
      if (headers.get("HX-Redirect")) { location.href = headers.get("HX-Redirect"); return true; }
      if (!answer.response.ok) return false;
      var element = document.querySelector(headers.get("HX-Retarget") || target);
      if (element) htmx.swap(element, answer.html, { swapStyle: headers.get("HX-Reswap") || "outerHTML", swapDelay: 0, settleDelay: 0 });
      return true;
    }).catch(function () { return false; });
  }

  // The page's polls (hx-trigger "every 2s": the lobby, the room's clock, the results until the next round) go on
  // whatever happens; after a failed one they back off (the network: a little; a server in trouble: as long as it
  // asks, or up to 30 s) and the next success brings them back to their pace.
  var pollFailures = 0;
  var pollQuietUntil = 0;

  function isPolling(elt) {  // an element whose hx-trigger asks "every Ns"
    return Boolean(elt && elt.getAttribute && /(^|,)\s*every /.test(elt.getAttribute("hx-trigger") || ""));
  }

  function isPoll(detail) {
    return !detail.requestConfig.triggeringEvent && isPolling(detail.elt);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (isPoll(event.detail) && Date.now() < pollQuietUntil) event.preventDefault();
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isPoll(event.detail)) return;
    var xhr = event.detail.xhr;
    var status = xhr ? xhr.status : 0;
    if (status && status < 400) { pollFailures = 0; pollQuietUntil = 0; return; }
    pollFailures += 1;
    var asked = status ? Number(xhr.getResponseHeader("Retry-After")) * 1000 || 0 : 0;
    var wait = status >= 429 ? Math.max(asked, Math.min(30000, 1000 * Math.pow(2, pollFailures))) :
      Math.min(3000, 1000 * pollFailures);  // no answer at all: nothing reached the server, try again soon
    pollQuietUntil = Date.now() + wait;
  });

  // A poll's answer that comes back after its element left the page (the region it was in was swapped meanwhile)
  // is dropped: it can no longer be put anywhere it belongs. (Events on a detached element do not bubble, so each
  // poll gets its own listener.)
  htmx.onLoad(function dropAnswersOfDetachedPolls(root) {
    var polls = Array.prototype.slice.call(root.querySelectorAll ? root.querySelectorAll("[hx-trigger]") : []);
    if (root.matches && root.matches("[hx-trigger]")) polls.push(root);
    polls.forEach(function (elt) {
      if (elt.dataset.ruzzleGuarded || !isPolling(elt)) return;
      elt.dataset.ruzzleGuarded = "1";
      elt.addEventListener("htmx:beforeOnLoad", function (event) { if (!elt.isConnected) event.preventDefault(); });
    });
  });

  // The network is back, or the page is looked at again (a phone woken up, a tab brought back, a frozen page
  // resumed, a page restored from the back-forward cache): words waiting are sent, and every poll asks at once,
  // dropping a try that hangs on the old network.
  function wakeUp() {
    pollFailures = 0;
    pollQuietUntil = 0;
    document.dispatchEvent(new CustomEvent("ruzzle:wake-up"));
    if (pending) { clearTimeout(pending.timer); tryRefresh(); }
    document.querySelectorAll("[hx-trigger]").forEach(function (elt) {
      if (!isPolling(elt)) return;
      htmx.trigger(elt, "htmx:abort");
      var asked = htmx.ajax("GET", elt.getAttribute("hx-get"), { source: elt });
      if (asked && asked.catch) asked.catch(function () {});  // a failure is the poll's own, backed off as any
    });
  }
  window.addEventListener("online", wakeUp);
  document.addEventListener("resume", wakeUp);  // a page the phone froze in the background runs again
  window.addEventListener("pageshow", function (event) { if (event.persisted) wakeUp(); });
  var hiddenAt = null;
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") { hiddenAt = Date.now(); return; }
    if (hiddenAt !== null && Date.now() - hiddenAt > 1000) wakeUp();
    hiddenAt = null;
  });
})();
