// Share buttons ([data-share]: a board's link, a live round's result): the phone's share sheet, or else a copy to
// the clipboard (the button says so for two seconds), or else the link's field selected. They need this script, so
// they are shown only by it, named for what they will do in this browser.
// Listens: a click on [data-share]; htmx's load of a new region (htmx.onLoad).
// Sends: nothing.
(function () {
  "use strict";

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
    var button = event.target.closest ? event.target.closest("[data-share]") : null;
    if (button) share(button);
  });

  htmx.onLoad(function (root) {
    if (!root.querySelectorAll) return;
    root.querySelectorAll("[data-share]").forEach(function (button) {
      if (!navigator.share) button.textContent = button.dataset.copyLabel;
      button.hidden = false;
    });
  });
})();
