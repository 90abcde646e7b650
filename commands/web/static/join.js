// A personal link is /m/MATCH/join#TOKEN: the token never reaches the server's logs. Post it
// once as the form would, and take it out of the address bar and the history.
(function () {
  "use strict";
  var token = window.location.hash.slice(1);
  if (!token) { return; }
  history.replaceState(null, "", window.location.pathname);
  var form = document.getElementById("join");
  form.elements.token.value = decodeURIComponent(token);
  form.submit();
})();
