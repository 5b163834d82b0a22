// What became of each word sent, beside the board: the list #sent shows each word on its way, then its answer (the
// points, or ✗ with the reason as its title, or "too late"), the last few answers only; a refused word is said to a
// screen reader; the words answered after the round's end are named on the round's summary, which replaced the list.
// Listens: ruzzle:word-queued {id, label}; ruzzle:word-answered {id, label, outcome, points, message} (word_queue.js);
//   ruzzle:queue {waiting} (words not sent yet are marked as waiting); htmx's load of a new region (htmx.onLoad).
// Sends: ruzzle:announce {text} (announce.js).
(function () {
  "use strict";

  var ANSWERS_SHOWN = 5;
  var entries = {};        // a word's id -> its line in #sent, until it is answered
  var tooLate = [];        // words of this round the server answered after its end

  function sentList() { return document.getElementById("sent"); }

  function line(label, className) {
    var entry = document.createElement("li");
    entry.className = "sent-item " + className;
    var word = document.createElement("span");
    word.className = "sent-word";
    word.textContent = label;
    entry.appendChild(word);
    return entry;
  }

  document.addEventListener("ruzzle:word-queued", function (event) {
    var list = sentList();
    if (!list || !event.detail.label) return;
    var entry = line(event.detail.label, "sent-sending");
    entry.setAttribute("lang", list.closest("[lang]") ? list.closest("[lang]").getAttribute("lang") : "");
    list.appendChild(entry);
    entries[event.detail.id] = entry;
  });

  document.addEventListener("ruzzle:word-answered", function (event) {
    var detail = event.detail;
    var refused = detail.outcome !== "found", text = refused ? detail.message || "" : "+" + detail.points;
    if (detail.outcome === "too-late") tooLate.push(detail.label);
    showAnswer(entries[detail.id], detail, refused, text);
    delete entries[detail.id];
    if (refused && detail.label) {
      document.dispatchEvent(new CustomEvent("ruzzle:announce", { detail: { text: detail.label + ": " + (text || "✗") } }));
    }
  });

  function showAnswer(entry, detail, refused, text) {
    if (!entry || !entry.isConnected) return;
    var answered = line(detail.label, refused ? "sent-refused" : "sent-found");
    entry.className = answered.className;
    entry.textContent = "";
    entry.appendChild(answered.firstChild);
    var note = document.createElement("span");
    note.className = "sent-note";
    note.textContent = detail.outcome === "too-late" ? sentList().dataset.tooLateText : refused ? "✗" : text;
    if (refused && text) entry.title = text;
    entry.appendChild(note);
    var shown = sentList().querySelectorAll(".sent-found, .sent-refused");
    for (var i = 0; i < shown.length - ANSWERS_SHOWN; i++) shown[i].remove();
  }

  document.addEventListener("ruzzle:queue", function (event) {
    var waiting = event.detail.waiting > 0;
    document.querySelectorAll("#sent .sent-item").forEach(function (entry) {
      entry.classList.toggle("sent-waiting", waiting && entry.classList.contains("sent-sending"));
    });
  });

  htmx.onLoad(function (root) {
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
  });
})();
