// The words waiting for the network, counted in a bar (#network) that stays in view over the page's top edge (so
// the board does not move under a finger when it shows), with a button to try at once; a screen reader hears it
// when it appears. Words sent faster than anyone plays them wait as long as the server asks: that is not the network.
// Listens: ruzzle:queue {waiting, slow} (word_queue.js); a click on the bar's button.
// Sends: ruzzle:send-now (word_queue.js); ruzzle:announce {text} (announce.js).
(function () {
  "use strict";

  document.addEventListener("ruzzle:queue", function (event) {
    var bar = document.getElementById("network");
    if (!bar) return;
    var count = event.detail.waiting;
    var wasHidden = bar.hidden;
    bar.hidden = count === 0;
    if (!count) return;
    var text = event.detail.slow ? bar.dataset.slow : (count === 1 ? bar.dataset.one : bar.dataset.many).replace("{n}", count);
    bar.querySelector(".network-text").textContent = text;
    if (wasHidden) document.dispatchEvent(new CustomEvent("ruzzle:announce", { detail: { text: text } }));
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("#network .network-retry") : null;
    if (button) document.dispatchEvent(new CustomEvent("ruzzle:send-now"));
  });
})();
