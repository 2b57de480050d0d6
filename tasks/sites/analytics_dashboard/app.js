(function () {
  "use strict";
  var state = { tab: "overview", range: 30, compare: false, sort: "revenue" };
  var $ = function (id) { return document.getElementById(id); };
  // Deterministic pseudo-data: no Math.random, no clock.
  function wave(seed, i) { return Math.sin(i * 0.45 + seed) * 0.5 + Math.sin(i * 0.13 + seed * 2) * 0.35 + Math.sin(i * 1.7 + seed * 3) * 0.15; }
  var METRICS = {
    overview: { title: "Net revenue vs orders", unit: "$", base: 4200, amp: 900, trend: 14, color: "#6d5dfc", second: { name: "Orders ×20", base: 3600, amp: 700, trend: 10, color: "#f6a723" } },
    revenue: { title: "Daily net revenue", unit: "$", base: 4200, amp: 900, trend: 14, color: "#6d5dfc" },
    traffic: { title: "Daily sessions", unit: "", base: 9100, amp: 2100, trend: -6, color: "#0ea5e9" },
    retention: { title: "Returning customer rate", unit: "%", base: 31, amp: 5, trend: 0.04, color: "#12b76a" }
  };
  function series(m, n, offset, seed) {
    var out = [];
    for (var i = 0; i < n; i++) out.push(m.base + m.amp * wave(seed, i + offset) + m.trend * (i + offset));
    return out;
  }
  function fmt(v, unit) {
    if (unit === "$") return "$" + Math.round(v).toLocaleString("en-US");
    if (unit === "%") return v.toFixed(1) + "%";
    return Math.round(v).toLocaleString("en-US");
  }
  function sum(a) { return a.reduce(function (s, x) { return s + x; }, 0); }
  function avg(a) { return sum(a) / a.length; }
  function pct(a, b) { return (a - b) / b * 100; }

  function kpis() {
    var n = state.range, rev = series(METRICS.revenue, n, 90, 1), prevRev = series(METRICS.revenue, n, 90 - n, 1);
    var ses = series(METRICS.traffic, n, 90, 2), prevSes = series(METRICS.traffic, n, 90 - n, 2);
    var ret = series(METRICS.retention, n, 90, 3), prevRet = series(METRICS.retention, n, 90 - n, 3);
    var orders = sum(rev) / 38.5, prevOrders = sum(prevRev) / 37.9;
    var list = {
      overview: [["Net revenue", fmt(sum(rev), "$"), pct(sum(rev), sum(prevRev)), rev], ["Orders", fmt(orders, ""), pct(orders, prevOrders), rev.map(function (x) { return x / 38; })],
        ["Sessions", fmt(sum(ses), ""), pct(sum(ses), sum(prevSes)), ses], ["Conversion rate", (orders / sum(ses) * 100).toFixed(2) + "%", pct(orders / sum(ses), prevOrders / sum(prevSes)), ses.map(function (x, i) { return rev[i] / x; })]],
      revenue: [["Net revenue", fmt(sum(rev), "$"), pct(sum(rev), sum(prevRev)), rev], ["Avg. order value", "$" + (sum(rev) / orders).toFixed(2), pct(38.5, 37.9), rev],
        ["Refunds", fmt(sum(rev) * 0.021, "$"), -3.4, rev.map(function (x, i) { return x * (1 + wave(7, i) * 0.3); })], ["Gross margin", "61.8%", 1.2, rev]],
      traffic: [["Sessions", fmt(sum(ses), ""), pct(sum(ses), sum(prevSes)), ses], ["Unique visitors", fmt(sum(ses) * 0.71, ""), pct(sum(ses), sum(prevSes)) - 1.1, ses],
        ["Bounce rate", "41.3%", -2.2, ses.map(function (x, i) { return 1 + wave(4, i); })], ["Avg. session", "2m 47s", 4.9, ses]],
      retention: [["Returning rate", fmt(avg(ret), "%"), pct(avg(ret), avg(prevRet)), ret], ["Repeat orders", fmt(orders * avg(ret) / 100, ""), pct(avg(ret), avg(prevRet)) + 2, ret],
        ["Churned subscribers", fmt(n * 2.6, ""), 5.1, ret.map(function (x) { return -x; })], ["Lifetime value", "$212.40", 3.3, ret]]
    }[state.tab];
    $("kpis").innerHTML = list.map(function (k, idx) {
      var d = k[2], s = k[3], mn = Math.min.apply(null, s), mx = Math.max.apply(null, s);
      var pts = s.map(function (v, i) { return (i / (s.length - 1) * 120).toFixed(1) + "," + (26 - (v - mn) / (mx - mn || 1) * 22).toFixed(1); }).join(" ");
      return '<div class="kpi" id="kpi-' + idx + '"><div class="label">' + k[0] + '</div><div class="val">' + k[1] + '</div><div class="delta ' + (d >= 0 ? "up" : "down") + '">' + (d >= 0 ? "▲ " : "▼ ") + Math.abs(d).toFixed(1) + '% vs previous ' + state.range + ' days</div>' +
        '<svg width="120" height="28" viewBox="0 0 120 28" aria-hidden="true"><polyline points="' + pts + '" fill="none" stroke="' + (d >= 0 ? "#12b76a" : "#f04438") + '" stroke-width="1.6"/></svg></div>';
    }).join("");
  }

  function chart() {
    var m = METRICS[state.tab], n = state.range, W = 720, H = 260, L = 56, R = 12, T = 14, B = 30;
    var cur = series(m, n, 90, state.tab === "traffic" ? 2 : state.tab === "retention" ? 3 : 1);
    var lines = [{ data: cur, color: m.color, name: state.tab === "overview" ? "Net revenue" : "This period" }];
    if (m.second) lines.push({ data: series(m.second, n, 90, 5), color: m.second.color, name: m.second.name });
    if (state.compare) lines.push({ data: series(m, n, 90 - n, state.tab === "traffic" ? 2 : state.tab === "retention" ? 3 : 1), color: "#a0a4c0", name: "Previous period", dash: true });
    var all = [].concat.apply([], lines.map(function (l) { return l.data; }));
    var mn = Math.min.apply(null, all), mx = Math.max.apply(null, all), pad = (mx - mn) * 0.1;
    mn -= pad; mx += pad;
    var x = function (i) { return L + i / (n - 1) * (W - L - R); }, y = function (v) { return T + (1 - (v - mn) / (mx - mn)) * (H - T - B); };
    var svg = "";
    for (var g = 0; g <= 4; g++) {
      var v = mn + (mx - mn) * g / 4, yy = y(v).toFixed(1);
      svg += '<line x1="' + L + '" x2="' + (W - R) + '" y1="' + yy + '" y2="' + yy + '" stroke="#eef0f7"/><text x="' + (L - 8) + '" y="' + (+yy + 4) + '" text-anchor="end" font-size="11" fill="#9a9eb8">' + fmt(v, m.unit) + '</text>';
    }
    var step = n <= 7 ? 1 : n <= 30 ? 5 : 15;
    for (var i = 0; i < n; i += step) {
      var day = new Date(Date.UTC(2024, 5, 30) + (i - n + 1) * 86400000);
      svg += '<text x="' + x(i).toFixed(1) + '" y="' + (H - 10) + '" text-anchor="middle" font-size="11" fill="#9a9eb8">' + ["Jan","Feb","Mar","Apr","May","Jun","Jul","Aug","Sep","Oct","Nov","Dec"][day.getUTCMonth()] + " " + day.getUTCDate() + '</text>';
    }
    lines.forEach(function (l, k) {
      var pts = l.data.map(function (v, i) { return x(i).toFixed(1) + "," + y(v).toFixed(1); });
      if (k === 0 && state.tab !== "overview") svg += '<polygon points="' + L + "," + (H - B) + " " + pts.join(" ") + " " + (W - R) + "," + (H - B) + '" fill="' + l.color + '" opacity=".10"/>';
      svg += '<polyline points="' + pts.join(" ") + '" fill="none" stroke="' + l.color + '" stroke-width="2.2"' + (l.dash ? ' stroke-dasharray="5 4"' : "") + ' class="series"/>';
      if (n <= 7) l.data.forEach(function (v, i) { svg += '<circle cx="' + x(i).toFixed(1) + '" cy="' + y(v).toFixed(1) + '" r="3.5" fill="#fff" stroke="' + l.color + '" stroke-width="2"/>'; });
    });
    $("chart").innerHTML = svg;
    $("chart-title").textContent = m.title + " · last " + n + " days";
    $("legend").innerHTML = lines.map(function (l) { return '<span><i style="background:' + l.color + '"></i>' + l.name + '</span>'; }).join("");
  }

  function mix() {
    var n = state.range, base = [["Organic search", 38, "#6d5dfc"], ["Email", 21, "#f6a723"], ["Paid social", 17, "#0ea5e9"], ["Direct", 15, "#12b76a"], ["Referral", 9, "#f04438"]];
    $("mix").innerHTML = base.map(function (b, i) {
      var v = b[1] + Math.round(wave(i + 1, n) * 4);
      return '<div class="mix-row"><div class="t"><span>' + b[0] + '</span><b>' + v + '%</b></div><div class="bar"><i style="width:' + v * 2 + '%;background:' + b[2] + '"></i></div></div>';
    }).join("");
    $("mix-range").textContent = "Last " + n + " days";
  }

  var PRODUCTS = [["Ethiopia Guji, 340 g", "CF-104", 0.9], ["House Espresso Blend, 1 kg", "CF-001", 1.6], ["Colombia Huila Decaf, 340 g", "CF-212", 0.45], ["Ceramic Pour-Over Set", "EQ-310", 0.3], ["Cold Brew Bags (6-pack)", "CF-530", 0.7], ["Kenya Nyeri AA, 250 g", "CF-118", 0.55]];
  function table() {
    var n = state.range;
    var rows = PRODUCTS.map(function (p, i) {
      var orders = Math.round(p[2] * n * 11 * (1 + wave(i, n) * 0.2));
      var price = [18, 42, 19, 64, 24, 22][i];
      return { name: p[0], sku: p[1], orders: orders, revenue: orders * price, conv: 1.1 + (i * 0.37 + n / 100) % 2.4, trend: wave(i + 2, n) * 12 };
    });
    rows.sort(function (a, b) { return b[state.sort] - a[state.sort]; });
    $("rows").innerHTML = rows.map(function (r) {
      return '<tr><td>' + r.name + '<span class="sku">' + r.sku + '</span></td><td>' + r.orders.toLocaleString("en-US") + '</td><td>$' + r.revenue.toLocaleString("en-US") + '</td><td>' + r.conv.toFixed(2) + '%</td><td class="' + (r.trend >= 0 ? "up" : "down") + '">' + (r.trend >= 0 ? "▲ " : "▼ ") + Math.abs(r.trend).toFixed(1) + '%</td></tr>';
    }).join("");
    var labels = { orders: "orders", revenue: "revenue", conv: "conversion" };
    $("sort-label").textContent = labels[state.sort];
    document.querySelectorAll(".th").forEach(function (b) {
      b.classList.toggle("on", b.dataset.sort === state.sort);
      b.textContent = { orders: "Orders", revenue: "Revenue", conv: "Conversion" }[b.dataset.sort] + (b.dataset.sort === state.sort ? " ▾" : "");
    });
  }

  function render() {
    document.querySelectorAll("[data-tab]").forEach(function (b) { b.classList.toggle("on", b.dataset.tab === state.tab); b.setAttribute("aria-selected", String(b.dataset.tab === state.tab)); });
    document.querySelectorAll("[data-range]").forEach(function (b) { b.classList.toggle("on", +b.dataset.range === state.range); });
    document.title = state.tab[0].toUpperCase() + state.tab.slice(1) + " · Pulse Analytics";
    kpis(); chart(); mix(); table();
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest("button"); if (!b) return;
    if (b.dataset.tab) { state.tab = b.dataset.tab; render(); }
    else if (b.dataset.range) { state.range = +b.dataset.range; $("export-note").hidden = true; render(); }
    else if (b.dataset.sort) { state.sort = b.dataset.sort; table(); }
    else if (b.id === "export") {
      $("export-note").hidden = false;
      $("export-note").textContent = "Export ready: " + state.tab + "_last_" + state.range + "_days.csv (" + (state.range * 4 + 12) + " rows) was added to Downloads.";
    }
  });
  $("compare").addEventListener("change", function (e) { state.compare = e.target.checked; chart(); });
  render();
})();
