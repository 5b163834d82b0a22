// The start page's "Set as homework": the deadline is typed in the teacher's local time (a datetime-local input);
// this picks the browser's UTC offset on that date (summer time included) in the time zone select, which the
// teacher can still change. Without JavaScript the select shows UTC and the teacher picks their offset.
(function () {
  "use strict";

  function offsetText(minutesEast) {
    var sign = minutesEast < 0 ? "-" : "+";
    var abs = Math.abs(minutesEast);
    var pad = function (n) { return (n < 10 ? "0" : "") + n; };
    return sign + pad(Math.floor(abs / 60)) + ":" + pad(abs % 60);
  }

  function pickOffset(local, select) {
    var moment = local.value ? new Date(local.value) : new Date();
    if (isNaN(moment.getTime())) return;
    var wanted = offsetText(-moment.getTimezoneOffset());
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === wanted) {
        select.selectedIndex = i;
        return;
      }
    }
  }

  function init() {
    var local = document.getElementById("due-local");
    var select = document.getElementById("due-offset");
    if (!local || !select) return;
    pickOffset(local, select);
    local.addEventListener("change", function () { pickOffset(local, select); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
