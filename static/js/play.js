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
  var ATTEMPTS = 3;                 // a word is tried this often before the player is asked to retry it
  var RETRY_DELAYS = [500, 1500];   // ms before the second and third attempts
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

  var queue = [];          // words waiting, oldest first: {fields, label, attempts, entry}
  var inFlight = null;     // the word on its way
  var lastSent = 0;
  var idleWaiters = [];    // callbacks to run once no word is waiting or on its way
  var heldBoard = null;    // a board sent while the player was tracing: shown when the trace ends

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
    item.attempts += 1;
    var controller = window.AbortController ? new AbortController() : null;
    var timer = setTimeout(function () { if (controller) controller.abort(); }, TIMEOUT);
    var sent = Date.now();
    fetch(item.url, {
      method: "POST",
      body: new URLSearchParams(item.fields),
      headers: { "HX-Request": "true", "HX-Target": "result", "HX-Current-URL": location.href },
      credentials: "same-origin",
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      // 5xx: a worker restarting or a proxy between: the word is safe to send again (a repeat is "already found")
      noteServerTime(sent, Date.now(), response.headers.get("X-Ruzzle-Time"));
      if (response.status >= 500) throw new Error("server answered " + response.status);
      return response.text().then(function (html) { return { response: response, html: html }; });
    }).then(function (answer) {
      clearTimeout(timer);
      showAnswer(item, answer);
      inFlight = null;
      pump();
    }, function () {
      clearTimeout(timer);
      if (item.attempts < ATTEMPTS) {
        setTimeout(function () { attempt(item); }, RETRY_DELAYS[item.attempts - 1]);
        return;
      }
      showFailed(item);
      inFlight = null;
      pump();
    });
  }

  // The server's answer goes where htmx would put it (its fragments carry their out-of-band regions).
  function showAnswer(item, answer) {
    var headers = answer.response.headers;
    var target = document.querySelector(headers.get("HX-Retarget") || "#result");
    var outcome = outcomeOf(answer.html);
    showOutcome(item, outcome);
    if (!target) return;
    htmx.swap(target, answer.html, { swapStyle: headers.get("HX-Reswap") || "outerHTML", swapDelay: 0, settleDelay: 0 });
  }

  // What the answer says of the word: found (with its points) or refused (with the reason).
  function outcomeOf(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    var result = template.content.querySelector("#result");
    if (!result) return { refused: true, text: "" };
    var total = result.querySelector(".breakdown-total");
    if (result.classList.contains("result-found") && total) return { refused: false, text: "+" + total.textContent.replace(/\D+/g, "") };
    var message = result.querySelector(".result-message");
    return { refused: true, text: message ? message.textContent.trim() : "" };
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

  // --- The list of words sent: on their way, answered, or waiting to be retried ------------------------------

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
    note.textContent = outcome.refused ? "✗" : outcome.text;
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

  // A word that could not be sent stays, as a button: tapping it sends it again.
  function showFailed(item) {
    var list = sentList();
    if (!list) return;
    var entry = item.entry && item.entry.isConnected ? item.entry : document.createElement("li");
    entry.className = "sent-item sent-failed";
    entry.textContent = "";
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button button-small sent-retry";
    button.textContent = (item.label || "…") + " · " + list.dataset.failedText;
    button.addEventListener("click", function () {
      item.attempts = 0;
      entry.className = "sent-item sent-sending";
      entry.textContent = "";
      var word = document.createElement("span");
      word.className = "sent-word";
      word.textContent = item.label;
      entry.appendChild(word);
      queue.push(item);
      pump();
    });
    entry.appendChild(button);
    if (!entry.isConnected) list.appendChild(entry);
    item.entry = entry;
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
  // the last words are answered) the server's page shows the round's end.
  function startClock(timer) {
    var remaining = Number(timer.dataset.remaining) * 1000;
    if (timer.dataset.paused !== undefined) { clock = null; return; }
    var serverNow = Number(timer.dataset.serverNow) * 1000;
    var endsAt = serverOffset !== null && serverNow ? serverNow + remaining - serverOffset : Date.now() + remaining;
    clock = { element: timer, endsAt: endsAt, url: timer.dataset.refreshUrl, target: timer.dataset.refreshTarget || "#game" };
    tick();
  }

  function tick() {
    if (!clock || !document.body.contains(clock.element)) return;
    var left = Math.max(0, Math.ceil((clock.endsAt - Date.now()) / 1000));
    clock.element.textContent = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    clock.element.classList.toggle("timer-low", left <= LOW_TIME);
    if (left === 0) {
      var url = clock.url, target = clock.target;
      clock = null;
      whenIdle(function () { htmx.ajax("GET", url, { target: target, swap: "outerHTML" }); });
    }
  }
  setInterval(tick, 250);

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
      navigator.clipboard.writeText(url).then(done, function () { selectShareField(); });
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
