// The host's pages, on top of forms that work without it: copy buttons and a deadline typed
// in local time sent as UTC (times.js shows times in the host's zone, with countdowns).
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

  // A deadline typed in the host's local time: sent as the UTC instant it means.
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "your time";
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
