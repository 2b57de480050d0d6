(function () {
  "use strict";
  var PRODUCTS = [
    { id: "trail-runner", name: "Trail Runner GTX", cat: "footwear", price: 129, rating: 4.7, reviews: 212, stock: 14 },
    { id: "storm-shell", name: "Storm Shell Jacket", cat: "apparel", price: 189, rating: 4.8, reviews: 148, stock: 6 },
    { id: "summit-pack", name: "Summit 28L Daypack", cat: "camping", price: 98, rating: 4.6, reviews: 331, stock: 22 },
    { id: "canyon-bottle", name: "Canyon Insulated Bottle", cat: "accessories", price: 34, rating: 4.4, reviews: 97, stock: 40 },
    { id: "ridge-tent", name: "Ridge 2P Tent", cat: "camping", price: 349, rating: 4.6, reviews: 64, stock: 3 },
    { id: "alpine-beanie", name: "Alpine Rib Beanie", cat: "apparel", price: 28, rating: 4.5, reviews: 58, stock: 0 },
    { id: "beam-headlamp", name: "Beam 400 Headlamp", cat: "accessories", price: 46, rating: 4.7, reviews: 176, stock: 18 },
    { id: "merino-socks", name: "Merino Hiker Socks (2-pack)", cat: "apparel", price: 24, rating: 4.9, reviews: 402, stock: 55 },
    { id: "approach-shoe", name: "Granite Approach Shoe", cat: "footwear", price: 149, rating: 4.3, reviews: 41, stock: 9 }
  ];
  var CAT_LABEL = { footwear: "Footwear", apparel: "Apparel", camping: "Camping", accessories: "Accessories" };
  var SORT_LABEL = { featured: "Featured", "price-asc": "Price: Low to High", "price-desc": "Price: High to Low", rating: "Top rated" };
  var state = { cat: "all", sort: "featured", under50: false, inStock: false, cart: [], ordered: null };
  var $ = function (id) { return document.getElementById(id); };
  var money = function (n) { return "$" + n.toFixed(2); };
  var byId = function (id) { return PRODUCTS.filter(function (p) { return p.id === id; })[0]; };

  function stars(r) { var full = Math.round(r); return "★★★★★".slice(0, full) + "☆☆☆☆☆".slice(0, 5 - full); }

  function visibleProducts() {
    var list = PRODUCTS.filter(function (p) {
      return (state.cat === "all" || p.cat === state.cat) && (!state.under50 || p.price < 50) && (!state.inStock || p.stock > 0);
    });
    if (state.sort === "price-asc") list.sort(function (a, b) { return a.price - b.price; });
    if (state.sort === "price-desc") list.sort(function (a, b) { return b.price - a.price; });
    if (state.sort === "rating") list.sort(function (a, b) { return b.rating - a.rating; });
    return list;
  }

  function qtyInCart(id) { var l = state.cart.filter(function (c) { return c.id === id; })[0]; return l ? l.qty : 0; }

  var cardEls = {};
  function buildCard(p) {
    var stockNote = p.stock === 0 ? '<span class="badge-out">Sold out</span>' : (p.stock < 5 ? '<span class="badge-low">Only ' + p.stock + ' left</span>' : "");
    var el = document.createElement("article");
    el.className = "card product-card";
    el.dataset.product = p.id;
    el.innerHTML = '<img src="assets/' + p.id + '.jpg" alt="' + p.name + '" width="400" height="300" decoding="sync">' +
      '<div class="card-body"><span class="cat-tag">' + CAT_LABEL[p.cat] + '</span><h3>' + p.name + '</h3>' +
      '<div class="rating"><span class="stars">' + stars(p.rating) + '</span> ' + p.rating.toFixed(1) + ' (' + p.reviews + ')</div>' +
      '<div class="in-cart" id="incart-' + p.id + '"></div>' +
      '<div class="price-row"><span class="price">' + money(p.price) + '</span>' + stockNote +
      '<button class="add" id="add-' + p.id + '" aria-label="Add ' + p.name + ' to cart"' + (p.stock === 0 ? " disabled" : "") + '>' + (p.stock === 0 ? "Sold out" : "Add to cart") + '</button></div>' +
      '</div>';
    return el;
  }

  function renderGrid() {
    var list = visibleProducts(), grid = $("grid");
    PRODUCTS.forEach(function (p) {
      if (!cardEls[p.id]) cardEls[p.id] = buildCard(p);
      var show = list.indexOf(p) >= 0;
      cardEls[p.id].hidden = !show;
      if (!show && !cardEls[p.id].parentNode) grid.appendChild(cardEls[p.id]);
      var q = qtyInCart(p.id);
      cardEls[p.id].querySelector(".in-cart").textContent = q ? q + " in your cart" : "";
    });
    // re-order by moving the existing nodes (images are not reloaded)
    list.forEach(function (p) { grid.appendChild(cardEls[p.id]); });
    $("result-count").textContent = "Showing " + list.length + " of " + PRODUCTS.length + " products";
    $("empty").hidden = list.length > 0;
    var tags = [];
    if (state.cat !== "all") tags.push(CAT_LABEL[state.cat]);
    if (state.under50) tags.push("Under $50");
    if (state.inStock) tags.push("In stock");
    if (state.sort !== "featured") tags.push("Sorted by " + SORT_LABEL[state.sort]);
    $("active-filters").hidden = tags.length === 0;
    $("active-filters").textContent = "Filters: " + tags.join(" · ");
    document.querySelectorAll(".cat").forEach(function (b) { b.classList.toggle("active", b.dataset.cat === state.cat); });
    $("sort-current").textContent = SORT_LABEL[state.sort];
    document.querySelectorAll("[data-sort]").forEach(function (b) { b.classList.toggle("current", b.dataset.sort === state.sort); });
  }

  function totals() {
    var sub = state.cart.reduce(function (s, l) { return s + byId(l.id).price * l.qty; }, 0);
    var ship = sub === 0 || sub >= 75 ? 0 : 6.95;
    var tax = Math.round(sub * 0.101 * 100) / 100;
    return { sub: sub, ship: ship, tax: tax, total: sub + ship + tax, items: state.cart.reduce(function (s, l) { return s + l.qty; }, 0) };
  }

  var lineEls = {};
  function clearLines() { Object.keys(lineEls).forEach(function (id) { var e = lineEls[id]; if (e.parentNode) e.parentNode.removeChild(e); }); }
  function renderCart() {
    var t = totals();
    $("cart-label").textContent = "Cart (" + t.items + ")";
    if (state.ordered || !state.cart.length) clearLines();
    if (state.ordered) {
      $("cart-body").innerHTML = '<div class="confirm"><div class="tick">✓</div><h3>Order confirmed</h3><p>Order <b>' + state.ordered.no + '</b> is on its way.<br>Total charged: <b>' + money(state.ordered.total) + '</b></p><p>A receipt was sent to your email.</p></div>';
      $("cart-foot").innerHTML = '<button class="checkout" id="continue-shopping">Continue shopping</button>';
      return;
    }
    if (!state.cart.length) {
      $("cart-body").innerHTML = '<div class="cart-empty"><p><b>Your cart is empty</b></p><p>Add some gear to get started.</p></div>';
      $("cart-foot").innerHTML = "";
      return;
    }
    var body = $("cart-body");
    Array.prototype.slice.call(body.children).forEach(function (c) { if (!c.dataset.line) body.removeChild(c); });
    Object.keys(lineEls).forEach(function (id) { if (!qtyInCart(id) && lineEls[id].parentNode) body.removeChild(lineEls[id]); });
    state.cart.forEach(function (l) {
      var p = byId(l.id);
      if (!lineEls[p.id]) {
        var el = document.createElement("div");
        el.className = "cart-line"; el.dataset.line = p.id;
        el.innerHTML = '<img src="assets/' + p.id + '.jpg" alt="" decoding="sync">' +
          '<div><div class="name">' + p.name + '</div><div class="unit">' + money(p.price) + ' each</div>' +
          '<div class="qty"><button id="dec-' + p.id + '" aria-label="Decrease quantity of ' + p.name + '">−</button>' +
          '<input id="qty-' + p.id + '" value="1" readonly aria-label="Quantity of ' + p.name + '">' +
          '<button id="inc-' + p.id + '" aria-label="Increase quantity of ' + p.name + '">+</button></div></div>' +
          '<div class="line-total"><span class="lt"></span><button class="remove" id="remove-' + p.id + '" aria-label="Remove ' + p.name + '">Remove</button></div>';
        lineEls[p.id] = el;
      }
      lineEls[p.id].querySelector("input").value = l.qty;
      lineEls[p.id].querySelector(".lt").textContent = money(p.price * l.qty);
      body.appendChild(lineEls[p.id]);
    });
    var hint = t.sub >= 75 ? "You qualify for free shipping." : "Add " + money(75 - t.sub) + " more for free shipping.";
    $("cart-foot").innerHTML =
      '<div class="sum-row"><span>Subtotal (' + t.items + (t.items === 1 ? " item" : " items") + ')</span><span id="subtotal">' + money(t.sub) + '</span></div>' +
      '<div class="sum-row"><span>Shipping</span><span>' + (t.ship ? money(t.ship) : "Free") + '</span></div>' +
      '<div class="sum-row"><span>Estimated tax (10.1%)</span><span>' + money(t.tax) + '</span></div>' +
      '<div class="sum-row total"><span>Total</span><span id="total">' + money(t.total) + '</span></div>' +
      '<p class="ship-hint">' + hint + '</p>' +
      '<button class="checkout" id="checkout">Checkout · ' + money(t.total) + '</button>';
  }

  function openCart(open) {
    $("cart-drawer").hidden = !open;
    $("overlay").hidden = !open;
  }

  function add(id) {
    var l = state.cart.filter(function (c) { return c.id === id; })[0];
    if (l) l.qty += 1; else state.cart.push({ id: id, qty: 1 });
    state.ordered = null;
    renderGrid(); renderCart();
  }

  document.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) { if (!e.target.closest(".sort")) $("sort-menu").hidden = true; return; }
    if (b.classList.contains("add")) return add(b.id.slice(4));
    if (b.dataset.cat) { state.cat = b.dataset.cat; return renderGrid(); }
    if (b.id === "sort-toggle") { var m = $("sort-menu"); m.hidden = !m.hidden; b.setAttribute("aria-expanded", String(!m.hidden)); return; }
    if (b.dataset.sort) { state.sort = b.dataset.sort; $("sort-menu").hidden = true; $("sort-toggle").setAttribute("aria-expanded", "false"); return renderGrid(); }
    if (b.id === "cart-button") return openCart(true);
    if (b.id === "close-cart" || b.id === "continue-shopping") { if (b.id === "continue-shopping") { state.ordered = null; renderCart(); } return openCart(false); }
    if (b.id.indexOf("inc-") === 0) { state.cart.forEach(function (l) { if (l.id === b.id.slice(4)) l.qty = Math.min(9, l.qty + 1); }); renderGrid(); return renderCart(); }
    if (b.id.indexOf("dec-") === 0) {
      state.cart.forEach(function (l) { if (l.id === b.id.slice(4)) l.qty -= 1; });
      state.cart = state.cart.filter(function (l) { return l.qty > 0; });
      renderGrid(); return renderCart();
    }
    if (b.id.indexOf("remove-") === 0) { state.cart = state.cart.filter(function (l) { return l.id !== b.id.slice(7); }); renderGrid(); return renderCart(); }
    if (b.id === "checkout") {
      var t = totals();
      state.ordered = { no: "NP-" + (10480 + t.items * 7 + Math.round(t.sub) % 97), total: t.total };
      state.cart = [];
      renderGrid(); return renderCart();
    }
  });
  $("overlay").addEventListener("click", function () { openCart(false); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") { openCart(false); $("sort-menu").hidden = true; }
  });
  $("under-50").addEventListener("change", function (e) { state.under50 = e.target.checked; renderGrid(); });
  $("in-stock").addEventListener("change", function (e) { state.inStock = e.target.checked; renderGrid(); });
  renderGrid(); renderCart();
})();
