// The word form (#word-form): a typed word is taken (and the box emptied) the moment it is sent; with the box empty,
// the traced tiles go; an empty Enter with nothing traced asks the server (which says what to do), unless it is a
// double press right after a word or words are still on their way.
// Listens: submit of #word-form; ruzzle:word-queued (a word went into the queue: its time); ruzzle:queue {busy}.
// Sends: ruzzle:word-played {fields: {word: "typed"}, label: "TYPED"}; ruzzle:send-trace (cancelable: trace.js
//   cancels it when it sent the traced word).
(function () {
  "use strict";

  var REPEAT_WINDOW = 1500;  // ms after a word is sent in which an empty Enter is a double press
  var lastSent = 0;
  var busy = false;

  function play(fields, label) {
    document.dispatchEvent(new CustomEvent("ruzzle:word-played", { detail: { fields: fields, label: label } }));
  }

  document.addEventListener("ruzzle:word-queued", function () { lastSent = Date.now(); });
  document.addEventListener("ruzzle:queue", function (event) { busy = event.detail.busy; });

  document.addEventListener("submit", function (event) {
    var f = event.target;
    if (f.id !== "word-form") return;
    event.preventDefault();
    var typed = f.elements.word.value.trim();
    if (typed) {
      f.elements.word.value = "";
      play({ word: typed }, typed.toUpperCase());
    } else if (!document.dispatchEvent(new CustomEvent("ruzzle:send-trace", { cancelable: true }))) {
      return;  // the traced word went
    } else if (!busy && Date.now() - lastSent > REPEAT_WINDOW) {
      play({ word: "" }, "");
    }
  }, true);
})();
