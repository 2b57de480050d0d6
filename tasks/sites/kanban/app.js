(function () {
  "use strict";
  var COLS = [["backlog", "Backlog"], ["progress", "In progress"], ["review", "In review"], ["done", "Done"]];
  var WIP = 3;
  var PEOPLE = ["JL", "RK", "MS"];
  var cards = [
    { id: 1, title: "Add Google Pay to the checkout sheet", tag: "feature", col: "backlog", who: "RK" },
    { id: 2, title: "Promo code field loses focus on rotate", tag: "bug", col: "backlog", who: "MS" },
    { id: 3, title: "Empty-cart illustration", tag: "design", col: "backlog", who: "JL" },
    { id: 4, title: "Address autocomplete for EU postcodes", tag: "feature", col: "progress", who: "JL" },
    { id: 5, title: "Crash when the card scanner is denied camera access", tag: "bug", col: "progress", who: "RK" },
    { id: 6, title: "Order summary accessibility pass", tag: "design", col: "review", who: "MS" },
    { id: 7, title: "Feature flag for checkout v2 rollout", tag: "feature", col: "done", who: "RK" },
    { id: 8, title: "Fix double charge on slow networks", tag: "bug", col: "done", who: "JL" }
  ];
  var next = 9, adding = false, newTag = "feature", query = "", formErr = "";
  var $ = function (id) { return document.getElementById(id); };
  var colIndex = function (c) { for (var i = 0; i < COLS.length; i++) if (COLS[i][0] === c) return i; };
  function esc(t) { return t.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }

  function render() {
    var keep = document.activeElement && document.activeElement.id === "new-card-title" ? $("new-card-title").value : null;
    var visible = 0;
    $("board").innerHTML = COLS.map(function (c, ci) {
      var all = cards.filter(function (k) { return k.col === c[0]; });
      var list = all.filter(function (k) { return !query || k.title.toLowerCase().indexOf(query) >= 0; });
      visible += list.length;
      var over = c[0] === "progress" && all.length > WIP;
      var html = '<section class="column' + (over ? " over" : "") + '" id="col-' + c[0] + '" aria-label="' + c[1] + '"><div class="col-head"><h2>' + c[1] + ' <span class="count">' + all.length + '</span></h2>' +
        (c[0] === "progress" ? '<span class="wip">' + (over ? "Over WIP limit (" + WIP + ")" : "WIP " + WIP) + '</span>' : "") + '</div>';
      html += list.map(function (k) {
        var left = ci > 0 ? '<button id="left-' + k.id + '" aria-label="Move ' + esc(k.title) + ' to ' + COLS[ci - 1][1] + '">← ' + COLS[ci - 1][1] + '</button>' : "";
        var right = ci < COLS.length - 1 ? '<button id="right-' + k.id + '" aria-label="Move ' + esc(k.title) + ' to ' + COLS[ci + 1][1] + '">' + COLS[ci + 1][1] + ' →</button>' : '<button class="archive" id="archive-' + k.id + '" aria-label="Archive ' + esc(k.title) + '">Archive</button>';
        return '<article class="kanban-card" id="card-' + k.id + '" data-card="' + k.id + '"><h3>' + esc(k.title) + '</h3><div class="meta"><span class="tag ' + k.tag + '">' + k.tag + '</span><span class="key">ORB-' + (140 + k.id) + '</span><span class="avatar who a' + (PEOPLE.indexOf(k.who) + 1) + '">' + k.who + '</span></div><div class="moves">' + left + right + '</div></article>';
      }).join("");
      if (!list.length) html += '<div class="empty-col">' + (query ? "No matching cards" : "Nothing here yet") + '</div>';
      if (c[0] === "backlog") {
        html += adding
          ? '<div class="add-form"><input id="new-card-title" placeholder="What needs doing?" aria-label="Card title" autocomplete="off">' +
            (formErr ? '<p class="form-err">' + formErr + '</p>' : "") +
            '<div class="tag-pick">' + ["feature", "bug", "design"].map(function (t) { return '<button id="tag-' + t + '" class="' + (newTag === t ? "on" : "") + '" data-tag="' + t + '">' + t[0].toUpperCase() + t.slice(1) + '</button>'; }).join("") + '</div>' +
            '<div class="form-actions"><button class="save" id="save-card">Save card</button><button class="cancel" id="cancel-card">Cancel</button></div></div>'
          : '<button class="add-btn" id="add-card-backlog">+ Add a card</button>';
      }
      return html + "</section>";
    }).join("");
    if (keep !== null && $("new-card-title")) { $("new-card-title").value = keep; }
    $("filter-note").textContent = query ? visible + (visible === 1 ? " card matches" : " cards match") : "";
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest("button"); if (!b) return;
    var id;
    if (b.id === "add-card-backlog") { adding = true; newTag = "feature"; formErr = ""; render(); $("new-card-title").focus(); return; }
    if (b.id === "cancel-card") { adding = false; render(); return; }
    if (b.dataset.tag) { var v = $("new-card-title").value; newTag = b.dataset.tag; render(); $("new-card-title").value = v; $("new-card-title").focus(); return; }
    if (b.id === "save-card") {
      var t = $("new-card-title").value.trim();
      if (!t) { formErr = "Give the card a title."; render(); return; }
      cards.push({ id: next++, title: t, tag: newTag, col: "backlog", who: "JL" });
      adding = false; formErr = ""; render(); return;
    }
    if (b.id.indexOf("right-") === 0 || b.id.indexOf("left-") === 0) {
      var dir = b.id.indexOf("right-") === 0 ? 1 : -1;
      id = +b.id.split("-")[1];
      cards.forEach(function (k) { if (k.id === id) k.col = COLS[colIndex(k.col) + dir][0]; });
      // moved cards go to the bottom of their new column
      var moved = cards.filter(function (k) { return k.id === id; })[0];
      cards = cards.filter(function (k) { return k.id !== id; }).concat([moved]);
      render(); return;
    }
    if (b.id.indexOf("archive-") === 0) { id = +b.id.split("-")[1]; cards = cards.filter(function (k) { return k.id !== id; }); render(); }
  });
  $("filter").addEventListener("input", function (e) { query = e.target.value.trim().toLowerCase(); render(); });
  $("filter").addEventListener("keydown", function (e) { if (e.key === "Escape") { e.target.value = ""; query = ""; render(); } });
  document.addEventListener("keydown", function (e) {
    if (e.target.id === "new-card-title" && e.key === "Enter") { e.preventDefault(); $("save-card").click(); }
    if (e.target.id === "new-card-title" && e.key === "Escape") { adding = false; render(); }
  });
  render();
})();
