(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var slide = 1, N = 3;
  function show(n) {
    slide = (n + N - 1) % N + 1;
    for (var i = 1; i <= N; i++) { $("slide-" + i).hidden = i !== slide; $("dot-" + i).classList.toggle("on", i === slide); }
    $("slide-count").textContent = "Photo " + slide + " of " + N;
  }
  $("prev-slide").addEventListener("click", function () { show(slide - 1); });
  $("next-slide").addEventListener("click", function () { show(slide + 1); });
  for (var i = 1; i <= N; i++) (function (k) { $("dot-" + k).addEventListener("click", function () { show(k); }); })(i);

  document.querySelectorAll(".acc-head").forEach(function (h) {
    h.addEventListener("click", function () {
      var open = h.getAttribute("aria-expanded") === "true";
      document.querySelectorAll(".acc-head").forEach(function (o) {
        o.setAttribute("aria-expanded", "false"); $(o.getAttribute("aria-controls")).hidden = true; o.querySelector("span").textContent = "+";
      });
      if (!open) { h.setAttribute("aria-expanded", "true"); $(h.getAttribute("aria-controls")).hidden = false; h.querySelector("span").textContent = "−"; }
    });
  });

  function openModal() { $("modal").hidden = false; $("modal-form-view").hidden = false; $("modal-done-view").hidden = true; $("sub-error").textContent = ""; }
  function closeModal() { $("modal").hidden = true; }
  $("open-subscribe").addEventListener("click", openModal);
  $("close-modal").addEventListener("click", closeModal);
  $("modal").addEventListener("click", function (e) { if (e.target === $("modal")) closeModal(); });
  document.addEventListener("keydown", function (e) { if (e.key === "Escape" && !$("modal").hidden) closeModal(); });
  $("subscribe-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var v = $("sub-email").value.trim();
    if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(v)) { $("sub-error").textContent = "Please enter a valid email address."; return; }
    $("modal-form-view").hidden = true; $("modal-done-view").hidden = false;
    $("sub-done-text").textContent = "Thanks! The next field guide goes to " + v + " on the first Sunday of the month.";
    $("open-subscribe").textContent = "Subscribed ✓";
  });
})();
