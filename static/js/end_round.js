// "End round" (a board's .give-up-form, a room's "End now" on the projector and the remote) asks once: a round ended
// by a slip cannot come back. A second press within a few seconds ends it, once the words still on their way are
// answered (Ruzzle.whenIdle, net.js).
// Listens: submit of a .give-up-form.
// Sends: ruzzle:when-idle through Ruzzle.whenIdle.
(function () {
  "use strict";

  var CONFIRM_WINDOW = 4000;  // ms in which a second press of "End round" ends it

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
    if (window.Ruzzle.whenIdle(function () { f.submit(); })) button.textContent = button.dataset.waitingText;
  }, true);
})();
