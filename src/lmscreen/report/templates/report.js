"use strict";
// lmscreen report: table (sort, filter, search) and the per-stock detail view.
// Every value from the data is written with textContent, never as HTML.
(function () {
  var D = JSON.parse(document.getElementById("lmscreen-data").textContent);
  var T = D.t, rows = D.rows, details = null;
  // Per-stock details travel gzip-compressed (see html.packed); unpacked once, in the background.
  var detailsReady = (function () {
    try {
      var b64 = document.getElementById("lmscreen-details").textContent.trim();
      var bin = Uint8Array.from(atob(b64), function (c) { return c.charCodeAt(0); });
      var stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"));
      return new Response(stream).text().then(function (text) { details = JSON.parse(text); })
        .catch(function () { details = null; });
    } catch (e) {
      return Promise.resolve(); // a browser without DecompressionStream: the table works, details say so
    }
  })();
  var ROW = 0, CODE = 1, NAME = 2, IND = 3, LEVEL = 4, SCORE = 5, PE = 6, ROE = 7, FLAGS = 8, OK = 9, REASON = 10, CHG = 11;
  var tbody = document.querySelector("#grid tbody");
  var countEl = document.getElementById("count");
  var q = document.getElementById("q"), fLevel = document.getElementById("f-level");
  var fInd = document.getElementById("f-industry"), fFlag = document.getElementById("f-flag");
  var levelRank = {};
  D.level_order.forEach(function (lv, i) { levelRank[lv] = i; });

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function num(v) {
    if (v === null || v === undefined) return "";
    return Number(v).toLocaleString(D.lang === "zh" ? "zh-CN" : "en-US", { maximumFractionDigits: 2 });
  }
  function levelName(lv) { return D.levels[lv] || lv || ""; }

  // Rows are built when first shown and kept; only a page of them is in the table at a time, so a 5,000-row
  // pool lays out as fast as a 200-row one. Scrolling to the end (or the button) shows the next page.
  var PAGE = 200;
  var trs = new Array(rows.length);
  function rowEl(i) {
    if (trs[i]) return trs[i];
    var r = rows[i];
    var tr = document.createElement("tr");
    tr.dataset.i = i;
    tr.appendChild(el("td", "c-row", r[ROW]));
    tr.appendChild(el("td", null, r[CODE]));
    var name = el("td", null, r[NAME]);
    if (r[CHG] === "new") name.appendChild(el("span", "chg", D.lang === "zh" ? "新增" : "new"));
    else if (r[CHG]) name.appendChild(el("span", "chg", (D.lang === "zh" ? "原 " : "was ") + levelName(r[CHG][0]) + " " + (r[CHG][1] === null ? "—" : r[CHG][1])));
    tr.appendChild(name);
    tr.appendChild(el("td", "c-ind", r[IND]));
    tr.appendChild(el("td", "lv lv-" + r[LEVEL], levelName(r[LEVEL])));
    tr.appendChild(el("td", "num", r[SCORE] === null ? "" : r[SCORE]));
    tr.appendChild(el("td", "num", num(r[PE])));
    tr.appendChild(el("td", "num", num(r[ROE])));
    tr.appendChild(el("td", "c-flags", r[FLAGS].map(function (f) { return D.flags[f][1]; }).join("; ")));
    tr.appendChild(el("td", "c-reason", r[REASON]));
    trs[i] = tr;
    return tr;
  }
  var order = rows.map(function (_, i) { return i; }), visible = order, rendered = 0;
  var more = document.getElementById("more");
  function render(reset) {
    if (reset) { tbody.textContent = ""; rendered = 0; }
    var end = Math.min(visible.length, rendered + PAGE), f = document.createDocumentFragment();
    for (var k = rendered; k < end; k++) f.appendChild(rowEl(visible[k]));
    tbody.appendChild(f);
    rendered = end;
    more.hidden = rendered >= visible.length;
    more.textContent = T.more + " (" + (visible.length - rendered) + ")";
    countEl.textContent = T.shown + " " + visible.length + " " + T.of + " " + rows.length;
  }
  more.addEventListener("click", function () { render(false); });
  if ("IntersectionObserver" in window) {
    new IntersectionObserver(function (entries) {
      if (entries[0].isIntersecting && !more.hidden) render(false);
    }, { root: document.getElementById("table-wrap"), rootMargin: "400px" }).observe(more);
  }

  function addOptions(select, values) {
    values.forEach(function (v) {
      var o = el("option", null, v[1]);
      o.value = v[0];
      select.appendChild(o);
    });
  }
  var seenLevels = {}, seenInd = {};
  rows.forEach(function (r) { seenLevels[r[LEVEL]] = 1; if (r[IND]) seenInd[r[IND]] = (seenInd[r[IND]] || 0) + 1; });
  addOptions(fLevel, Object.keys(seenLevels).sort(function (a, b) { return (levelRank[a] ?? 99) - (levelRank[b] ?? 99); })
    .map(function (lv) { return [lv, levelName(lv)]; }));
  addOptions(fInd, Object.keys(seenInd).sort().map(function (s) { return [s, s + " (" + seenInd[s] + ")"]; }));
  addOptions(fFlag, D.flags.map(function (f, i) { return [String(i), f[1]]; }));

  function apply() {
    var text = q.value.trim().toLowerCase(), lv = fLevel.value, ind = fInd.value;
    var flag = fFlag.value === "" ? -1 : Number(fFlag.value);
    visible = order.filter(function (i) {
      var r = rows[i];
      return (!lv || r[LEVEL] === lv) && (!ind || r[IND] === ind) && (flag < 0 || r[FLAGS].indexOf(flag) >= 0) &&
        (!text || String(r[CODE]).toLowerCase().indexOf(text) >= 0 || String(r[NAME] || "").toLowerCase().indexOf(text) >= 0);
    });
    render(true);
  }
  [q, fLevel, fInd, fFlag].forEach(function (c) { c.addEventListener("input", apply); c.addEventListener("change", apply); });

  var sortCol = null, sortDir = 1;
  function key(r, col) {
    if (col === LEVEL) return levelRank[r[LEVEL]] ?? 99;
    if (col === FLAGS) return r[FLAGS].length;
    return r[col];
  }
  function sortBy(col) {
    sortDir = sortCol === col ? -sortDir : 1;
    sortCol = col;
    var collator = new Intl.Collator(D.lang === "zh" ? "zh-CN" : "en");
    order.sort(function (a, b) {
      var x = key(rows[a], col), y = key(rows[b], col);
      var xn = x === null || x === undefined || x === "", yn = y === null || y === undefined || y === "";
      if (xn || yn) return xn === yn ? a - b : (xn ? 1 : -1); // missing values last either way
      var c = typeof x === "number" && typeof y === "number" ? x - y : collator.compare(String(x), String(y));
      return c ? c * sortDir : a - b;
    });
    apply();
    document.querySelectorAll("#grid th").forEach(function (th) {
      th.setAttribute("aria-sort", Number(th.dataset.col) === col ? (sortDir > 0 ? "ascending" : "descending") : "none");
    });
  }
  document.querySelectorAll("#grid th").forEach(function (th) {
    th.addEventListener("click", function () { sortBy(Number(th.dataset.col)); });
  });

  var dialog = document.getElementById("detail"), body = document.getElementById("detail-body");
  function section(title) { body.appendChild(el("h3", null, title)); }
  function openDetail(i) {
    detailsReady.then(function () { showDetail(i); });
  }
  function showDetail(i) {
    var r = rows[i], d = details ? details[i] : { r: [], f: [], rs: "", st: T.no_details, fw: [] };
    body.textContent = "";
    var h = el("h2", null, r[CODE] + " " + (r[NAME] || ""));
    body.appendChild(h);
    var p = el("p");
    p.appendChild(el("span", "lv lv-" + r[LEVEL], levelName(r[LEVEL])));
    p.appendChild(document.createTextNode(" · " + T.score + " " + (r[SCORE] === null ? T.no_score : r[SCORE]) +
      " · " + T.pe + " " + (num(r[PE]) || "—") + " · " + T.roe + " " + (num(r[ROE]) || "—") +
      (r[IND] ? " · " + r[IND] : "") + " · " + T.row + " " + r[ROW]));
    body.appendChild(p);
    section(T.fired);
    var ul = el("ul");
    if (!d.r.length) ul.appendChild(el("li", null, T.none_fired));
    d.r.forEach(function (t) { ul.appendChild(el("li", null, t)); });
    body.appendChild(ul);
    section(T.figures);
    if (!d.f.length) body.appendChild(el("p", "meta", T.no_figures));
    d.f.forEach(function (f) {
      var line = el("div", f[4] ? "dropped" : null);
      line.appendChild(el("b", null, f[0] + " "));
      line.appendChild(document.createTextNode(f[1] + (f[2] ? " (" + f[2] + ")" : "") + (f[4] ? " — " + f[4] : "")));
      body.appendChild(line);
      if (f[3]) {
        var qd = el("div", "quote");
        qd.appendChild(document.createTextNode(f[3][0]));
        qd.appendChild(el("mark", null, f[3][1]));
        qd.appendChild(document.createTextNode(f[3][2]));
        if (f[3].length > 3) qd.appendChild(el("span", "meta", " — " + T.page.replace("{page}", f[3][3])));
        body.appendChild(qd);
      }
    });
    section(T.reason);
    body.appendChild(el("p", null, (r[REASON] || "—") + (d.rs ? "  (" + T.reason_source + ": " + d.rs + ")" : "")));
    section(T.status + " / " + T.flags);
    var st = el("ul");
    st.appendChild(el("li", null, d.st));
    d.fw.forEach(function (w) { st.appendChild(el("li", null, w)); });
    body.appendChild(st);
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
  }
  tbody.addEventListener("click", function (ev) {
    var tr = ev.target.closest("tr");
    if (tr) openDetail(Number(tr.dataset.i));
  });
  document.getElementById("detail-close").addEventListener("click", function () {
    if (typeof dialog.close === "function") dialog.close(); else dialog.removeAttribute("open");
  });
  apply();
  detailsReady.then(function () { document.body.dataset.ready = "1"; });
})();
