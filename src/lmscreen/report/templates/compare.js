(function () {
  "use strict";
  function show() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id ? document.getElementById(id) : null;
    if (el && el.className === "ev") {
      document.getElementById("evidence").setAttribute("data-shown", id);
    }
  }
  window.addEventListener("hashchange", show);
  show();
  document.body.setAttribute("data-ready", "1");
})();
