// The host's pages, on top of forms that work without it: copy buttons, times in the host's
// own zone with a countdown to a deadline, and a deadline typed in local time sent as UTC.
(function () {
  "use strict";

  // Copy buttons: the text stays selectable without them.
  Array.prototype.forEach.call(document.querySelectorAll("[data-copy]"), function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field || !navigator.clipboard) { return; }
    button.hidden = false;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(field.value).then(function () {
        button.textContent = "Copied";
        setTimeout(function () { button.textContent = "Copy"; }, 2000);
      }, function () { field.select(); });
    });
  });

  // Times in the reader's zone (the page shows UTC without JavaScript).
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "your time";
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

  // A deadline typed in the host's local time: sent as the UTC instant it means.
  var form = document.getElementById("deadline-form");
  if (form) {
    Array.prototype.forEach.call(form.querySelectorAll(".zone"), function (z) { z.textContent = zone; });
    form.addEventListener("submit", function () {
      var typed = form.elements.deadline.value;
      var when = typed ? new Date(typed) : null;
      form.elements.deadline_utc.value = when && !isNaN(when) ? when.toISOString() : "";
    });
  }
})();
