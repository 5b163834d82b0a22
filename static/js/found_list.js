// The list of words found (#found-words): a word's answer brings the word's item (a <template class="found-item"> in
// #result, with data-before: the word it goes before, "" for the end; the list's order is the server's). The item
// goes there, or at the end when that word is not listed, and only once: a word sent again after the answer that
// found it was lost on the way brings its item again.
// Listens: htmx's load of a new #result (htmx.onLoad).
// Sends: nothing.
(function () {
  "use strict";

  function wordOf(item) {
    var link = item.querySelector("a");
    return link ? link.textContent.trim() : "";
  }

  htmx.onLoad(function (root) {
    var carried = root && root.id === "result" ? root.querySelector("template.found-item") : null;
    if (!carried) return;
    carried.remove();
    var list = document.getElementById("found-words");
    var item = carried.content.querySelector("li");
    if (!list || !item) return;
    var word = wordOf(item), before = carried.dataset.before, next = null;
    for (var i = 0; i < list.children.length; i++) {
      var listed = wordOf(list.children[i]);
      if (listed === word) return;
      if (before && listed === before) next = list.children[i];
    }
    var added = document.importNode(item, true);
    list.insertBefore(added, next);
    htmx.process(added);  // its link opens the word's path, as the items drawn with the page do
  });
})();
