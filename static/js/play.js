// The board page in the browser: trace words (drag, tap or keyboard), send them, the round's clock, sharing.
// The server decides everything; this script collects words and shows what the server answers.
// Wired by ids, classes and data- attributes (strict CSP: no inline script, no hx-on).
//
// A player plays a stream of words. Each word is captured when the player finishes it (the path or the text
// at that moment) and goes into a queue that sends one word at a time, in order, so the answers come back in
// the order the words were sent and the round in the cookie is never written by two requests at once. An
// answer never touches what the player is doing now: while a word is being traced, or more words wait to be
// sent, the board keeps the trace and only the panel (result, score, words found) is updated.
(function () {
  "use strict";

  // A tile counts as entered when the pointer is this close to its centre (as a share of its width),
  // so that a diagonal move does not catch the corner of a side neighbour.
  var HIT_RADIUS = 0.42;
  var LOW_TIME = 10;
  var RETRY_DELAYS = [500, 1000, 2000, 3000, 5000];  // ms before each new try of a word not sent; then every 5 s
  var TIMEOUT = 8000;               // ms an attempt may take (a worker restarting, Wi-Fi lost)
  var REPEAT_WINDOW = 1500;         // ms after a word is sent in which an empty Enter is a double press
  var CONFIRM_WINDOW = 4000;        // ms in which a second press of "End round" ends it
  var ANSWERS_SHOWN = 5;

  var trace = [];          // [[row, col], ...] of the word being traced
  var dragging = false;
  var moved = false;
  var pressCell = null;    // the tile the current press started on
  var tappedLast = false;
  var focusCell = null;    // the tile that had keyboard focus, to give it back after the board is swapped
  var clock = null;        // {element, endsAt, url}

  function board() { return document.querySelector("#board.board-play"); }
  function form() { return document.getElementById("word-form"); }
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
  function tracing() { return dragging || trace.length > 0; }

  // --- The trace on the board -----------------------------------------------------------------------------

  // The words the page lists as found, to say so while the same word is traced again.
  function foundWords() {
    var words = {};
    document.querySelectorAll("#found .word-list a").forEach(function (a) { words[a.textContent.trim()] = true; });
    return words;
  }

  // Show the trace: tiles marked (and pressed, for a screen reader), the word so far, a line through the tiles.
  function draw() {
    var b = board();
    if (!b) return;
    b.querySelectorAll("td.traced").forEach(function (td) {
      td.classList.remove("traced");
      td.querySelector(".tile-face").setAttribute("aria-pressed", "false");
    });
    trace.forEach(function (cell) {
      var td = tdAt(cell);
      td.classList.add("traced");
      td.querySelector(".tile-face").setAttribute("aria-pressed", "true");
    });
    var letters = lettersOf(trace);
    var banner = document.getElementById("trace");
    if (banner) {
      var known = trace.length >= 2 && foundWords()[letters];
      banner.textContent = letters + (known ? " · " + banner.dataset.foundText : "");
      banner.classList.toggle("trace-known", Boolean(known));
    }
    var line = b.parentElement.querySelector(".trail-line");
    if (line && (trace.length || !b.querySelector("td.on-path"))) {
      line.setAttribute("points", trace.map(function (c) { return (c[1] + 0.5) + "," + (c[0] + 0.5); }).join(" "));
    }
  }

  // The last word's path (drawn by the server) goes when a new word starts: a new trace starts on a clean board.
  function clearHighlight() {
    var b = board();
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
    if (trace.length < 2) return;
    var path = trace.map(function (c) { return c[0] + "," + c[1]; }).join(" ");
    enqueue({ path: path }, lettersOf(trace));
    trace = [];
    draw();
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

  function release() {
    if (!dragging) return;
    dragging = false;
    if ((moved || tappedLast) && trace.length >= 2) sendTrace();  // release ends a drag; a second tap on the last tile sends it
    else flushBoard();
  }
  document.addEventListener("pointerup", release);
  document.addEventListener("pointercancel", function () { dragging = false; flushBoard(); });

  // Keyboard: arrows move between tiles, Space adds the tile, Enter sends the word, Backspace and Escape undo.
  document.addEventListener("keydown", function (event) {
    var td = closest(event.target, "#board.board-play td[data-cell]");
    if (!td) return;
    var cell = cellOf(td);
    var b = board();
    var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      var next = [cell[0] + moves[event.key][0], cell[1] + moves[event.key][1]];
      if (next[0] >= 0 && next[1] >= 0 && next[0] < Number(b.dataset.rows) && next[1] < Number(b.dataset.cols)) {
        focusTile(next);
      }
    } else if (event.key === " " || event.key === "Spacebar") {
      if (!trace.length) clearHighlight();
      var at = indexOf(cell);
      if (at === trace.length - 1 && at !== -1) { trace.pop(); }
      else if (at === -1 && (!trace.length || adjacent(last(), cell))) { trace.push(cell); }
      else if (at === -1) { trace = [cell]; }
      draw();
    } else if (event.key === "Enter") {
      if (trace.length >= 2) sendTrace();
    } else if (event.key === "Backspace") {
      trace.pop();
      draw();
    } else if (event.key === "Escape") {
      trace = [];
      draw();
    } else {
      return;
    }
    event.preventDefault();
  });

  function focusTile(cell) {
    var target = tdAt(cell);
    if (!target) return;
    board().querySelectorAll(".tile-face").forEach(function (button) { button.tabIndex = -1; });
    var button = target.querySelector(".tile-face");
    button.tabIndex = 0;
    button.focus();
    focusCell = cell;
  }

  document.addEventListener("focusin", function (event) {
    var td = closest(event.target, "#board td[data-cell]");
    focusCell = td ? cellOf(td) : null;
  });

  // The word form: a typed word is taken (and the box emptied) the moment it is sent; tapped tiles go too.
  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (f.id !== "word-form") return;
    event.preventDefault();
    var typed = f.elements.word.value.trim();
    if (typed) {
      f.elements.word.value = "";
      enqueue({ word: typed }, typed.toUpperCase());
    } else if (trace.length >= 2) {
      sendTrace();
    } else if (!busy() && Date.now() - lastSent > REPEAT_WINDOW) {
      enqueue({ word: "" }, "");  // the server says what to do; a double press right after a word says nothing
    }
  }, true);

  // --- The queue of words on their way ---------------------------------------------------------------------

  // No word is lost to the network: a word that cannot be sent (offline, a dropped request, a server restarting or
  // asking to slow down) stays first in the queue and is tried again by itself, sooner and sooner apart at first,
  // then every few seconds, and at once when the browser says the network is back. The words after it wait their
  // turn (the server must see them in the order they were played). A word played before the end that arrives
  // within the round's grace counts; one that arrives later is answered "time is up" and shown as too late.
  var queue = [];          // words waiting, oldest first: {fields, label, attempts, entry, url}
  var inFlight = null;     // the word on its way (or waiting to be tried again)
  var retryTimer = null;
  var lastSent = 0;
  var idleWaiters = [];    // callbacks to run once no word is waiting or on its way
  var heldBoard = null;    // a board sent while the player was tracing: shown when the trace ends
  var tooLate = [];        // words of this round the server answered after its end

  function busy() { return inFlight !== null || queue.length > 0; }

  function wordsUrl() {
    var game = document.getElementById("game");
    return game ? game.dataset.wordsUrl : null;
  }

  function enqueue(fields, label) {
    var item = { fields: fields, label: label, attempts: 0, entry: null, url: wordsUrl() };
    if (!item.url) return;
    item.entry = showSending(item);
    lastSent = Date.now();
    queue.push(item);
    pump();
  }

  function pump() {
    if (inFlight) return;
    showWaiting();
    if (!queue.length) {
      flushBoard();
      var waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach(function (callback) { callback(); });
      return;
    }
    inFlight = queue.shift();
    attempt(inFlight);
  }

  function whenIdle(callback) {
    if (busy()) idleWaiters.push(callback); else callback();
  }

  function attempt(item) {
    clearTimeout(retryTimer);
    retryTimer = null;
    item.attempts += 1;
    item.sending = true;
    item.controller = window.AbortController ? new AbortController() : null;
    ask(item.url, {
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
      if (item.attempts >= 2 || item.tooFast) showWaiting();  // a network's first failure is tried again quietly
      retryTimer = setTimeout(function () { attempt(item); }, delay);
    });
  }

  // A request of the page's own (a word, a region it waits for), answered as {response, html}: it gives up after
  // TIMEOUT (or when `controller` aborts it), and the time its answer carries sets the page's clock.
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
    var target = document.querySelector(headers.get("HX-Retarget") || "#result");
    var outcome = outcomeOf(headers);
    showOutcome(item, outcome);
    if (outcome.tooLate) tooLate.push(item.label);
    if (outcome.refused && item.label) announce(item.label + ": " + (outcome.text || "✗"));
    if (!target) return;
    htmx.swap(target, answer.html, { swapStyle: headers.get("HX-Reswap") || "outerHTML", swapDelay: 0, settleDelay: 0 });
  }

  // What the answer says of the word, as the server states it (the HX-Trigger header's "ruzzle:word": views/pages.py
  // word_outcome): found (with its points) or refused (with the reason), or too late. An answer without it (a proxy's
  // error page) is a refusal without words.
  function outcomeOf(headers) {
    var detail;
    try { detail = JSON.parse(headers.get("HX-Trigger") || "{}")["ruzzle:word"]; } catch (error) { detail = null; }
    if (!detail) return { refused: true, text: "" };
    if (detail.outcome === "found") return { refused: false, text: "+" + detail.points };
    return { refused: true, tooLate: detail.outcome === "too-late", text: detail.message || "" };
  }

  // An answer for an earlier word does not redraw the board under a finger: while the player traces, or more
  // words are on their way, the new board is held and shown once the trace ends and the queue is empty.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail.target;
    if (!target || target.id !== "board_frame") return;
    if (tracing() || queue.length) {
      event.detail.shouldSwap = false;
      heldBoard = queue.length ? null : event.detail.fragment;  // only the last word's path is worth showing
    } else {
      heldBoard = null;
    }
  });

  function flushBoard() {
    if (!heldBoard || tracing() || busy()) return;
    var fragment = heldBoard;
    heldBoard = null;
    var frame = document.getElementById("board_frame");
    if (frame && fragment) {
      var element = fragment.querySelector ? fragment.querySelector("#board_frame") || fragment : fragment;
      if (element.id === "board_frame") {
        element.removeAttribute("hx-swap-oob");
        htmx.swap(frame, element.outerHTML, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
      }
    }
  }

  // --- The list of words sent: on their way, answered, or waiting for the network ----------------------------

  function sentList() { return document.getElementById("sent"); }

  function showSending(item) {
    var list = sentList();
    if (!list || !item.label) return null;
    var entry = document.createElement("li");
    entry.className = "sent-item sent-sending";
    entry.setAttribute("lang", list.closest("[lang]") ? list.closest("[lang]").getAttribute("lang") : "");
    var word = document.createElement("span");
    word.className = "sent-word";
    word.textContent = item.label;
    entry.appendChild(word);
    list.appendChild(entry);
    return entry;
  }

  function showOutcome(item, outcome) {
    var entry = item.entry;
    if (!entry || !entry.isConnected) return;
    entry.className = "sent-item " + (outcome.refused ? "sent-refused" : "sent-found");
    entry.textContent = "";
    var word = document.createElement("span");
    word.className = "sent-word";
    word.textContent = item.label;
    entry.appendChild(word);
    var note = document.createElement("span");
    note.className = "sent-note";
    note.textContent = outcome.tooLate ? sentList().dataset.tooLateText : outcome.refused ? "✗" : outcome.text;
    if (outcome.refused && outcome.text) entry.title = outcome.text;
    entry.appendChild(note);
    trimAnswers();
  }

  function trimAnswers() {
    var list = sentList();
    if (!list) return;
    var answered = list.querySelectorAll(".sent-found, .sent-refused");
    for (var i = 0; i < answered.length - ANSWERS_SHOWN; i++) answered[i].remove();
  }

  // The words waiting for the network, counted beside the board (a bar that stays in view, over the page's top
  // edge, so the board does not move under a finger when it shows), with a button to try at once.
  function waitingCount() {
    return inFlight && (inFlight.attempts >= 2 || inFlight.tooFast) ? queue.length + 1 : 0;
  }

  function showWaiting() {
    var bar = document.getElementById("network");
    if (!bar) return;
    var count = waitingCount();
    var wasHidden = bar.hidden;
    bar.hidden = count === 0;
    document.querySelectorAll("#sent .sent-item").forEach(function (entry) {
      entry.classList.toggle("sent-waiting", count > 0 && entry.classList.contains("sent-sending"));
    });
    if (!count) return;
    // (words sent faster than anyone plays them wait as long as the server asks: that is not the network)
    var text = inFlight.tooFast ? bar.dataset.slow : (count === 1 ? bar.dataset.one : bar.dataset.many).replace("{n}", count);
    bar.querySelector(".network-text").textContent = text;
    if (wasHidden) announce(text);
  }

  document.addEventListener("click", function (event) {
    if (closest(event.target, "#network .network-retry")) sendWaitingNow();
  });

  // Words answered after the end are named on the round's summary, which replaced the list they were in.
  function showTooLate(root) {
    var game = root && root.querySelector && (root.id === "game" ? root : root.querySelector("#game"));
    if (!game) return;
    if (!game.classList.contains("game-over")) { tooLate = []; return; }  // another round's lobby or board
    if (!tooLate.length || !game.dataset.tooLateText || game.querySelector(".notice-too-late")) return;
    var panel = game.querySelector(".game-panel") || game;
    var notice = document.createElement("p");
    notice.className = "notice notice-refused notice-too-late";
    notice.setAttribute("role", "status");
    notice.textContent = game.dataset.tooLateText.replace("{words}", tooLate.join(", "));
    panel.insertBefore(notice, panel.firstChild);
  }

  // --- The end of the round ---------------------------------------------------------------------------------

  // "End round" asks once, then waits for the words still on their way before it ends the round.
  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (!f.classList || !f.classList.contains("give-up-form")) return;
    event.preventDefault();
    var button = f.querySelector("button[type=submit]");
    if (!f.dataset.armed) {
      f.dataset.armed = "1";
      button.dataset.label = button.textContent;
      button.textContent = button.dataset.confirmText;
      button.classList.add("button-danger");
      setTimeout(function () {
        if (!button.isConnected || button.disabled) return;
        delete f.dataset.armed;
        button.textContent = button.dataset.label;
        button.classList.remove("button-danger");
      }, CONFIRM_WINDOW);
      return;
    }
    button.disabled = true;
    if (busy()) button.textContent = button.dataset.waitingText;
    whenIdle(function () { f.submit(); });
  }, true);

  // The server's time: every answer says it (X-Ruzzle-Time). The offset from this device's clock is taken from
  // the answer that came back the fastest (its time is known best: it was stamped halfway there and back), so a
  // phone whose own clock is off, or a slow answer, does not move the round's end.
  var serverOffset = null;  // milliseconds to add to Date.now() to read the server's clock
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

  // The clock counts down to the end the server said, on the server's time; paused, it stands still. At zero (once
  // the last words are answered) the server's page shows the round's end. A screen reader hears the time left at
  // each whole minute and at 10 seconds, not every second.
  function startClock(timer) {
    var remaining = Number(timer.dataset.remaining) * 1000;
    if (timer.dataset.paused !== undefined) { clock = null; return; }
    var serverNow = Number(timer.dataset.serverNow) * 1000;
    var endsAt = serverOffset !== null && serverNow ? serverNow + remaining - serverOffset : Date.now() + remaining;
    clock = { element: timer, endsAt: endsAt, url: timer.dataset.refreshUrl, target: timer.dataset.refreshTarget || "#game",
              said: Math.ceil(remaining / 1000), after: Number(timer.dataset.refreshAfter || 0) * 1000,
              spread: Number(timer.dataset.refreshSpread || 0) * 1000, timeUp: timer.dataset.timeUp };
    if (timer.dataset.aheadUrl) fetchAhead(timer, clock.url, timer.dataset.aheadUrl);
    tick();
  }

  // Each tick comes right when the clock's second turns (and at least every 250 ms, should a timer be late).
  var clockTimer = null;
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
      whenIdle(function () {
        setTimeout(function () { if (!(ahead && useAhead(url, target))) refresh(url, target); }, wait);
      });
    }
  }

  // A room's board comes during the 3-2-1, each phone when its lobby poll saw the 3-2-1 (a school's 2,000 phones ask
  // over a few seconds, not at the same instant), drawn as of the start; at 0 it shows without asking. Without it (a
  // phone that could not fetch it), the board is asked for at 0, as any page that waits.
  var aheads = {};  // the page's URL -> its region as of the start

  function fetchAhead(timer, url, aheadUrl) {
    delete aheads[url];
    ask(aheadUrl, { headers: { "HX-Request": "true" } }).then(function (answer) {
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
      announce((left === 60 ? texts.dataset.minute : texts.dataset.minutes).replace("{n}", left / 60));
    } else if (left === LOW_TIME) {
      announce(texts.dataset.seconds.replace("{n}", left));
    }
  }

  // One polite live region for what a screen reader should hear without moving the focus.
  function announce(text) {
    var region = document.getElementById("announce");
    if (!region || !text) return;
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 50);
  }

  // --- Never stuck: the page that waits for something always gets it ------------------------------------------

  // A page waiting for the next thing (the board after 3-2-1, the results at 0:00) asks for it until it has it: a
  // try that fails (offline, the server restarting) is made again, a little later each time (at most every 4 s),
  // and at once when the network comes back or the phone wakes up.
  var REFRESH_DELAYS = [1000, 2000, 3000, 4000];
  var pending = null;  // {url, target, failures, timer}

  function refresh(url, target) {
    if (pending) clearTimeout(pending.timer);
    pending = { url: url, target: target, failures: 0, timer: null };
    tryRefresh();
  }

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
    return ask(url, { headers: { "HX-Request": "true", "HX-Current-URL": location.href } }).then(function (answer) {
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
  function dropAnswersOfDetachedPolls(root) {
    var polls = Array.prototype.slice.call(root.querySelectorAll ? root.querySelectorAll("[hx-trigger]") : []);
    if (root.matches && root.matches("[hx-trigger]")) polls.push(root);
    polls.forEach(function (elt) {
      if (elt.dataset.ruzzleGuarded || !isPolling(elt)) return;
      elt.dataset.ruzzleGuarded = "1";
      elt.addEventListener("htmx:beforeOnLoad", function (event) { if (!elt.isConnected) event.preventDefault(); });
    });
  }
  htmx.onLoad(dropAnswersOfDetachedPolls);

  // The network is back, or the page is looked at again (a phone woken up, a tab brought back, a frozen page
  // resumed, a page restored from the back-forward cache): words waiting are sent, and every poll asks at once, dropping a try that hangs
  // on the old network.
  function wakeUp() {
    pollFailures = 0;
    pollQuietUntil = 0;
    sendWaitingNow();
    if (pending) { clearTimeout(pending.timer); tryRefresh(); }
    document.querySelectorAll("[hx-trigger]").forEach(function (elt) {
      if (!isPolling(elt)) return;
      htmx.trigger(elt, "htmx:abort");
      var asked = htmx.ajax("GET", elt.getAttribute("hx-get"), { source: elt });
      if (asked && asked.catch) asked.catch(function () {});  // a failure is the poll's own, backed off as any
    });
    if (clock) tick();
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

  // --- Sharing ------------------------------------------------------------------------------------------------

  function share(button) {
    var url = button.dataset.share;
    if (navigator.share) {
      navigator.share({ url: url, text: button.dataset.shareText }).catch(function () {});
      return;
    }
    var done = function () {
      var label = button.textContent;
      button.textContent = button.dataset.copiedLabel;  // in the page's language, like every text here
      setTimeout(function () { button.textContent = label; }, 2000);
    };
    if (navigator.clipboard && window.isSecureContext) {
      // (a live round's result copies its whole text, the link in it: data-copy-text)
      navigator.clipboard.writeText(button.dataset.copyText || url).then(done, function () { selectShareField(); });
    } else {
      selectShareField();
    }
  }
  function selectShareField() {
    var field = document.getElementById("share-url");
    if (field) { field.focus(); field.select(); }
  }
  document.addEventListener("click", function (event) {
    var button = closest(event.target, "[data-share]");
    if (button) share(button);
  });

  // Whatever htmx brings in (a new board, a new game region): start its clock, give back the focus, and at the
  // end of a round take the focus to the summary's heading, so a screen reader says the round is over.
  htmx.onLoad(function (root) {
    if (!root.querySelectorAll) return;
    root.querySelectorAll("[data-share]").forEach(function (button) {
      // Share buttons need this script: shown only now, named for what they will do in this browser.
      if (!navigator.share) button.textContent = button.dataset.copyLabel;
      button.hidden = false;
    });
    showTooLate(root);
    var timer = root.matches && root.matches("#timer") ? root : root.querySelector("#timer[data-remaining]");
    if (timer && timer.dataset.remaining) startClock(timer);
    var summary = root.querySelector("#summary-title");
    if (summary && root !== document.body) {
      summary.focus();
    } else if (root.querySelector("#board") && focusCell && board()) {
      if (document.activeElement === document.body || !document.activeElement) focusTile(focusCell);
    }
  });
})();
