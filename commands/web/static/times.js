// Times in the reader's own zone, and a countdown to each deadline still ahead: the pages
// show UTC without JavaScript. Loaded by the host's and the players' pages.
(function () {
  "use strict";
  var format = new Intl.DateTimeFormat(undefined, {
    weekday: "short", day: "numeric", month: "short", year: "numeric",
    hour: "2-digit", minute: "2-digit", timeZoneName: "short"
  });
  Array.prototype.forEach.call(document.querySelectorAll("time[data-local]"), function (t) {
    var when = new Date(t.getAttribute("datetime"));
    if (!isNaN(when)) { t.textContent = format.format(when); t.title = t.getAttribute("datetime"); }
  });

  // A countdown to each deadline still ahead.
  var counters = document.querySelectorAll("[data-until]");
  function left(ms) {
    var minutes = Math.floor(ms / 60000), days = Math.floor(minutes / 1440);
    var hours = Math.floor((minutes % 1440) / 60), mins = minutes % 60;
    if (days) { return days + " d " + hours + " h"; }
    if (hours) { return hours + " h " + mins + " min"; }
    if (minutes) { return mins + " min"; }
    return Math.max(0, Math.floor(ms / 1000)) + " s";
  }
  function tick() {
    Array.prototype.forEach.call(counters, function (c) {
      var ms = new Date(c.getAttribute("data-until")) - new Date();
      c.textContent = ms > 0 ? " (in " + left(ms) + ")" : " (passed: the round closes now)";
    });
  }
  if (counters.length) { tick(); setInterval(tick, 1000); }
})();
