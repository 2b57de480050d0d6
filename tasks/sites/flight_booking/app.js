(function () {
  "use strict";
  var AIRPORTS = { SEA: "Seattle", SFO: "San Francisco", DEN: "Denver", ORD: "Chicago", JFK: "New York", BOS: "Boston", AUS: "Austin", LAX: "Los Angeles" };
  var DAYS = [["Mon", 15], ["Tue", 16], ["Wed", 17], ["Thu", 18], ["Fri", 19], ["Sat", 20], ["Sun", 21]];
  var CABIN = { economy: ["Economy", 1], premium: ["Premium", 1.55], business: ["Business", 2.6] };
  var s = { step: 1, date: null, pax: 1, cabin: "economy", from: null, to: null, flight: null, nonstop: false };
  var $ = function (id) { return document.getElementById(id); };
  var money = function (n) { return "$" + n.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ","); };

  function code(txt) {
    var t = txt.trim().toLowerCase();
    if (!t) return "";
    for (var c in AIRPORTS) if (c.toLowerCase() === t || AIRPORTS[c].toLowerCase() === t) return c;
    return null;
  }
  function hash(str) { var h = 7; for (var i = 0; i < str.length; i++) h = (h * 31 + str.charCodeAt(i)) % 100003; return h; }
  function pad(n) { return (n < 10 ? "0" : "") + n; }
  function hm(m) { var h = Math.floor(m / 60) % 24, mm = m % 60, ap = h >= 12 ? "pm" : "am"; var hh = h % 12 || 12; return hh + ":" + pad(mm) + " " + ap + (m >= 1440 ? " +1" : ""); }

  function flights() {
    var h = hash(s.from + s.to + s.date);
    var base = 119 + h % 120;
    var dur = 130 + (hash(s.from + s.to) % 200);
    var list = [
      { no: "SL " + (200 + h % 90), dep: 6 * 60 + 15, stops: 0, price: base + 42 },
      { no: "SL " + (310 + h % 70), dep: 9 * 60 + 40, stops: 1, price: base },
      { no: "SL " + (420 + h % 50), dep: 13 * 60 + 5, stops: 0, price: base + 67 },
      { no: "SL " + (530 + h % 40), dep: 18 * 60 + 50, stops: 1, price: base + 12 }
    ];
    list.forEach(function (f) {
      f.dur = dur + (f.stops ? 85 : 0);
      f.arr = f.dep + f.dur;
      f.fare = Math.round(f.price * CABIN[s.cabin][1]);
    });
    return list;
  }

  function renderDates() {
    var h0 = hash((s.from || "") + (s.to || ""));
    $("dates").innerHTML = DAYS.map(function (d, i) {
      var id = "2024-07-" + d[1];
      var fare = 109 + ((h0 + i * 37) % 90);
      return '<button type="button" class="date' + (s.date === id ? " on" : "") + '" id="date-' + id + '" data-date="' + id + '" aria-label="' + d[0] + ' July ' + d[1] + '"><small>' + d[0] + '</small><b>' + d[1] + '</b><span class="dfare">from $' + fare + '</span></button>';
    }).join("");
  }

  function showStep(n) {
    s.step = n;
    ["search", "flights", "pax", "review"].forEach(function (k, i) { $("step-" + k).hidden = i + 1 !== n; });
    $("step-done").hidden = n !== 5;
    for (var i = 1; i <= 4; i++) { $("st-" + i).className = i === n ? "on" : (i < n ? "done" : ""); }
    $("page-title").textContent = ["Where to next?", "Choose your flight", "Who's flying?", "Almost there", "You're all set"][n - 1];
  }

  function doSearch(e) {
    if (e) e.preventDefault();
    var errs = [];
    var f = code($("from").value), t = code($("to").value);
    $("from").classList.remove("bad"); $("to").classList.remove("bad");
    if (f === "") { errs.push("Enter a departure city."); $("from").classList.add("bad"); }
    else if (f === null) { errs.push("We don't fly from \u201c" + $("from").value.trim() + "\u201d yet."); $("from").classList.add("bad"); }
    if (t === "") { errs.push("Enter a destination city."); $("to").classList.add("bad"); }
    else if (t === null) { errs.push("We don't fly to \u201c" + $("to").value.trim() + "\u201d yet."); $("to").classList.add("bad"); }
    if (f && t && f === t) { errs.push("Origin and destination must be different."); $("to").classList.add("bad"); }
    if (!s.date) errs.push("Choose a departure date.");
    $("search-errors").innerHTML = errs.map(function (x) { return "<li>" + x + "</li>"; }).join("");
    $("search-errors").hidden = errs.length === 0;
    if (errs.length) return;
    s.from = f; s.to = t;
    renderFlights();
    showStep(2);
  }

  function renderFlights() {
    var list = flights().filter(function (f) { return !s.nonstop || f.stops === 0; });
    var d = DAYS.filter(function (x) { return "2024-07-" + x[1] === s.date; })[0];
    $("flights-title").textContent = list.length + " flights from " + s.from + " to " + s.to + " · " + d[0] + " " + d[1] + " Jul";
    $("flight-list").innerHTML = list.map(function (f) {
      var id = f.no.replace(" ", "");
      return '<div class="flight-option" data-flight="' + id + '"><div><div class="times">' + hm(f.dep) + ' – ' + hm(f.arr) + '</div><div class="sub">' + f.no + ' · ' + AIRPORTS[s.from] + ' → ' + AIRPORTS[s.to] + '</div></div>' +
        '<div><div>' + Math.floor(f.dur / 60) + 'h ' + pad(f.dur % 60) + 'm</div><div class="sub stops ' + (f.stops ? "" : "non") + '">' + (f.stops ? "1 stop · ORD" : "Nonstop") + '</div></div>' +
        '<div class="sub">' + CABIN[s.cabin][0] + '<br>' + (f.stops ? "Airbus A220" : "Boeing 737 MAX 8") + '</div>' +
        '<div style="display:flex;gap:14px;align-items:center"><div class="price">' + money(f.fare) + '<small>per person</small></div><button type="button" class="select" id="select-' + id + '" aria-label="Select flight ' + f.no + '">Select</button></div></div>';
    }).join("");
  }

  function paxValid() {
    var ok = true;
    function chk(id, cond, msg) { $("err-" + id).textContent = cond ? "" : msg; $(id).classList.toggle("bad", !cond); ok = ok && cond; }
    chk("first", $("first").value.trim().length > 0, "First name is required.");
    chk("last", $("last").value.trim().length > 0, "Last name is required.");
    chk("email", /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test($("email").value.trim()), "Enter a valid email address.");
    return ok;
  }

  function renderReview() {
    var f = s.flight, seat = document.querySelector("input[name=seat]:checked").value, bag = $("bag").checked;
    var fares = f.fare * s.pax, taxes = Math.round(fares * 0.075 * 100) / 100 + 5.6 * s.pax, bags = bag ? 35 * s.pax : 0;
    s.total = fares + taxes + bags;
    var d = DAYS.filter(function (x) { return "2024-07-" + x[1] === s.date; })[0];
    $("review").innerHTML = '<div class="rv"><div><h4>Flight</h4><b>' + f.no + ' · ' + s.from + ' → ' + s.to + '</b><br>' + d[0] + ' ' + d[1] + ' July 2024, ' + hm(f.dep) + '<br>' + (f.stops ? "1 stop" : "Nonstop") + ' · ' + CABIN[s.cabin][0] + '</div>' +
      '<div><h4>Lead passenger</h4><b>' + esc($("first").value.trim()) + ' ' + esc($("last").value.trim()) + '</b><br>' + esc($("email").value.trim()) + '<br>Seat: ' + seat + (bag ? " · 1 checked bag" : "") + '</div></div>' +
      '<table class="fare"><tr><td>Fare × ' + s.pax + (s.pax === 1 ? " passenger" : " passengers") + '</td><td>' + money(fares) + '</td></tr><tr><td>Taxes and fees</td><td>' + money(taxes) + '</td></tr>' +
      (bag ? '<tr><td>Checked bags</td><td>' + money(bags) + '</td></tr>' : "") +
      '<tr class="total"><td>Trip total</td><td id="trip-total">' + money(s.total) + '</td></tr></table>';
  }
  function esc(t) { return t.replace(/[&<>"]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[c]; }); }

  $("search-form").addEventListener("submit", doSearch);
  document.addEventListener("click", function (e) {
    var b = e.target.closest("button"); if (!b) return;
    if (b.dataset.date) { s.date = b.dataset.date; renderDates(); return; }
    if (b.dataset.cabin) { s.cabin = b.dataset.cabin; document.querySelectorAll(".seg-btn").forEach(function (x) { x.classList.toggle("on", x === b); }); return; }
    switch (b.id) {
      case "pax-inc": s.pax = Math.min(6, s.pax + 1); $("pax").value = s.pax; break;
      case "pax-dec": s.pax = Math.max(1, s.pax - 1); $("pax").value = s.pax; break;
      case "swap": var a = $("from").value; $("from").value = $("to").value; $("to").value = a; break;
      case "clear-to": $("to").value = ""; $("to").classList.remove("bad"); break;
      case "back-to-search": showStep(1); break;
      case "back-to-flights": showStep(2); break;
      case "back-to-pax": showStep(3); break;
      case "to-review": if (paxValid()) { renderReview(); showStep(4); } break;
      case "confirm":
        var c = "SLK" + (s.from.charCodeAt(0) + s.to.charCodeAt(1) + s.pax * 3) + s.flight.no.slice(-2);
        $("done-text").innerHTML = "Your confirmation code is <b>" + c + "</b>.<br>We've emailed the e-ticket to " + esc($("email").value.trim()) + ".<br>Total charged: <b>" + money(s.total) + "</b>";
        showStep(5); break;
      default:
        if (b.id.indexOf("select-") === 0) {
          var no = b.id.slice(7);
          s.flight = flights().filter(function (f) { return f.no.replace(" ", "") === no; })[0];
          showStep(3);
        }
    }
  });
  ["from", "to", "first", "last", "email"].forEach(function (id) {
    $(id).addEventListener("input", function () { $(id).classList.remove("bad"); });
  });
  $("nonstop").addEventListener("change", function (e) { s.nonstop = e.target.checked; renderFlights(); });
  renderDates();
  showStep(1);
})();
