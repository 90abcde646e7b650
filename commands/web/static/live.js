// The match pages' one script: the round slider shows the round it points at, and the page
// reloads when the match's public log grows (server-sent events from /matches/{match}/events),
(function () {
  "use strict";
  var slider = document.getElementById("round-slider");
  var shown = document.getElementById("round-shown");
  if (slider && shown) {
    slider.addEventListener("input", function () { shown.textContent = slider.value; });
  }
  var live = document.querySelector("[data-live]");
  if (!live || !window.EventSource) { return; }
  var typing = false;
  document.addEventListener("input", function (e) { if (e.target !== slider) { typing = true; } });
  var source = new EventSource(live.getAttribute("data-live"));
  var timer = null;
  source.addEventListener("open", function () { live.hidden = false; });
  source.addEventListener("entry", function () {
    // A close brings several entries at once: reload once they have all arrived.
    clearTimeout(timer);
    timer = setTimeout(function () {
      if (typing) {
        live.textContent = "The match has moved on: reload the page to see it.";
        live.classList.add("banner");
        return;
      }
      source.close();
      window.location.reload();
    }, 400);
  });
})();
