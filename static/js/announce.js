// One polite live region (#announce) for what a screen reader should hear without moving the focus: the time left,
// a word refused or not sent.
// Listens: ruzzle:announce {text} (round_clock.js, feedback.js, network_notice.js).
// Sends: nothing.
(function () {
  "use strict";

  document.addEventListener("ruzzle:announce", function (event) {
    var region = document.getElementById("announce");
    var text = event.detail && event.detail.text;
    if (!region || !text) return;
    region.textContent = "";
    setTimeout(function () { region.textContent = text; }, 50);
  });
})();
