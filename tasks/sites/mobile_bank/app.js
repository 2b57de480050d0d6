(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var money = function (n) { return (n < 0 ? "-" : "") + "$" + Math.abs(n).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","); };
  var state = { balance: 4827.91, hidden: false, filter: "all", to: null, amount: 0, note: "", screen: "home" };
  var txns = [
    { name: "Blue Bottle Coffee", when: "Today · 8:12 am", amt: -6.75, ic: "BB", col: "#fde68a" },
    { name: "Payroll · Lumen Labs", when: "Yesterday", amt: 3120.00, ic: "LL", col: "#bbf7d0" },
    { name: "Whole Foods Market", when: "Yesterday", amt: -84.32, ic: "WF", col: "#bfdbfe" },
    { name: "Refund · Northpeak Outfitters", when: "Mon 8 Jul", amt: 28.00, ic: "NO", col: "#ddd6fe" },
    { name: "Lyft ride", when: "Sun 7 Jul", amt: -17.40, ic: "LY", col: "#fbcfe8" },
    { name: "Netflix", when: "Sat 6 Jul", amt: -15.49, ic: "NF", col: "#fecaca" }
  ];
  var bills = [
    { id: "city-power", name: "City Power & Light", due: "Due Jul 18", amt: 86.20, paid: false },
    { id: "aqua-water", name: "Aqua Water Services", due: "Due Jul 21", amt: 41.75, paid: false },
    { id: "fibernet", name: "FiberNet Internet", due: "Due Jul 25", amt: 65.00, paid: false },
    { id: "state-farm", name: "Keystone Auto Insurance", due: "Due Aug 1", amt: 112.40, paid: false }
  ];
  function renderHome() {
    $("balance").textContent = state.hidden ? "$ • • • • •" : money(state.balance);
    $("toggle-balance").textContent = state.hidden ? "Show" : "Hide";
    $("toggle-balance").setAttribute("aria-label", state.hidden ? "Show balance" : "Hide balance");
    var list = txns.filter(function (t) { return state.filter === "all" || (state.filter === "in" ? t.amt > 0 : t.amt < 0); });
    $("txn-list").innerHTML = list.map(function (t, i) {
      return '<li class="txn"><span class="ic" style="background:' + t.col + '">' + t.ic + '</span><div><b>' + t.name + '</b><br><small>' + t.when + '</small></div><span class="amt' + (t.amt > 0 ? " in" : "") + '">' + (t.amt > 0 ? "+" : "") + money(t.amt) + '</span></li>';
    }).join("");
    document.querySelectorAll(".chip").forEach(function (c) { c.classList.toggle("on", c.dataset.f === state.filter); });
  }
  function renderBills() {
    $("bills").innerHTML = bills.map(function (b) {
      return '<li class="bill"><span class="av a' + (bills.indexOf(b) + 1) + '">' + b.name.split(" ").map(function (w) { return w[0]; }).slice(0, 2).join("") + '</span><div><b>' + b.name + '</b><br><small>' + (b.paid ? "Paid today" : b.due) + ' · ' + money(b.amt) + '</small></div>' +
        (b.paid ? '<span class="paid">Paid ✓</span>' : '<button class="pay" id="pay-' + b.id + '" aria-label="Pay ' + b.name + '">Pay</button>') + '</li>';
    }).join("");
  }
  function go(screen) {
    state.screen = screen;
    ["home", "send", "cards", "payments", "profile"].forEach(function (s) { $("screen-" + s).hidden = s !== screen; });
    document.querySelectorAll(".tabbar button").forEach(function (b) { b.classList.toggle("on", b.dataset.screen === (screen === "send" ? "home" : screen)); });
    window.scrollTo(0, 0);
  }
  function sendStep(n) { for (var i = 1; i <= 4; i++) $("send-step-" + i).hidden = i !== n; state.sendStep = n; $("send-title").textContent = ["Send money", "Amount", "Review", "Done"][n - 1]; }
  function esc(t) { return t.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }
  var payingBill = null;
  document.addEventListener("click", function (e) {
    var b = e.target.closest("button"); if (!b) return;
    if (b.dataset.screen) return go(b.dataset.screen);
    if (b.dataset.f) { state.filter = b.dataset.f; return renderHome(); }
    if (b.dataset.name) {
      state.to = { name: b.dataset.name, handle: b.dataset.handle, initials: b.querySelector(".av").textContent, cls: b.querySelector(".av").className };
      $("to-name").textContent = state.to.name; $("to-av").textContent = state.to.initials; $("to-av").className = state.to.cls;
      $("amount").value = ""; $("note").value = ""; $("send-err").textContent = "";
      return sendStep(2);
    }
    if (b.getAttribute("role") === "switch") {
      var on = b.getAttribute("aria-checked") !== "true";
      b.setAttribute("aria-checked", String(on));
      if (b.id === "freeze-toggle") {
        $("bank-card").classList.toggle("frozen", on); $("frozen-tag").hidden = !on;
        $("freeze-sub").textContent = on ? "Card frozen · new purchases are blocked" : "Temporarily block new purchases";
      }
      if (b.closest("#screen-profile")) $("profile-hint").textContent = b.getAttribute("aria-label") + (on ? " turned on." : " turned off.");
      return;
    }
    if (b.id.indexOf("pay-") === 0) {
      payingBill = bills.filter(function (x) { return "pay-" + x.id === b.id; })[0];
      $("sheet-title").textContent = "Pay " + payingBill.name + "?";
      $("sheet-text").textContent = money(payingBill.amt) + " from Everyday Checking ··4471";
      $("pay-sheet").hidden = false; return;
    }
    switch (b.id) {
      case "toggle-balance": state.hidden = !state.hidden; renderHome(); break;
      case "qa-send": sendStep(1); go("send"); break;
      case "qa-bills": go("payments"); break;
      case "send-back": if (state.sendStep > 1 && state.sendStep < 4) sendStep(state.sendStep - 1); else go("home"); break;
      case "review-send":
        var v = parseFloat($("amount").value.replace(/[$,]/g, ""));
        if (!(v > 0)) { $("send-err").textContent = "Enter an amount greater than $0."; break; }
        if (v > state.balance) { $("send-err").textContent = "That's more than your available balance."; break; }
        state.amount = Math.round(v * 100) / 100; state.note = $("note").value.trim();
        $("review-text").innerHTML = "You're sending <b>" + money(state.amount) + "</b> to <b>" + esc(state.to.name) + "</b>";
        $("review-note").textContent = state.note || "—";
        sendStep(3); break;
      case "confirm-send":
        state.balance -= state.amount;
        txns.unshift({ name: state.to.name + (state.note ? " · " + state.note : ""), when: "Just now", amt: -state.amount, ic: state.to.initials, col: "#e0e7ff" });
        $("success-text").textContent = money(state.amount) + " is on its way to " + state.to.name + " (" + state.to.handle + ").";
        sendStep(4); renderHome(); break;
      case "send-done": go("home"); break;
      case "sheet-cancel": $("pay-sheet").hidden = true; break;
      case "sheet-confirm":
        payingBill.paid = true; state.balance -= payingBill.amt;
        txns.unshift({ name: payingBill.name, when: "Just now", amt: -payingBill.amt, ic: "⚡", col: "#fef3c7" });
        $("pay-sheet").hidden = true; renderBills(); renderHome(); break;
    }
  });
  renderHome(); renderBills();
})();
