document.querySelectorAll("table.sortable th.sort").forEach(function (th) {
  th.addEventListener("click", function () {
    var table = th.closest("table"), body = table.tBodies[0], i = th.cellIndex;
    var dir = th.dataset.dir === "asc" ? -1 : 1; th.dataset.dir = dir === 1 ? "asc" : "desc";
    var key = function (tr) { var c = tr.cells[i], v = c.dataset.v !== undefined ? c.dataset.v : c.textContent;
      var n = parseFloat(v); return isNaN(n) ? v.trim().toLowerCase() : n; };
    Array.from(body.rows).sort(function (a, b) { var x = key(a), y = key(b);
      return (x > y ? 1 : x < y ? -1 : 0) * dir; }).forEach(function (tr) { body.appendChild(tr); });
  });
});
