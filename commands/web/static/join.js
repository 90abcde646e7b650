// A personal link is /m/MATCH/join#CODE: the join code never reaches the server's logs. Post it
// once as the form would, and take it out of the address bar and the back button (the
// browser's history database still keeps the visit: docs/pages.md).
(function () {
  "use strict";
  var token = window.location.hash.slice(1);  // the join code
  if (!token) { return; }
  history.replaceState(null, "", window.location.pathname);
  var form = document.getElementById("join");
  form.elements.token.value = decodeURIComponent(token);
  form.submit();
})();
