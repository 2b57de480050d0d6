(function () {
  "use strict";
  var TRACKS = [
    ["Neon Harbour", "Kaia Lund", "Afterglow Lines", 222, 1], ["Overpass", "The Static Hours", "Overpass", 198, 2],
    ["Blue Route 9", "Mira Okonkwo", "Night Shift", 251, 3], ["Tail Lights", "Kaia Lund", "Afterglow Lines", 187, 1],
    ["Halogen", "Echo Valley", "Sodium", 264, 2], ["Empty Lanes", "Juno Park", "Motorik", 205, 3],
    ["Coastal Exit", "The Static Hours", "Overpass", 239, 2], ["3 AM Services", "Mira Okonkwo", "Night Shift", 276, 3]
  ];
  var st = { cur: 0, pos: 0, playing: false, shuffle: false, repeat: false, vol: 60, liked: {}, follow: false, q: "" };
  var $ = function (id) { return document.getElementById(id); };
  var mmss = function (s) { return Math.floor(s / 60) + ":" + ("0" + (s % 60)).slice(-2); };
  function order() { if (!st.shuffle) return TRACKS.map(function (t, i) { return i; }); return [0, 5, 2, 7, 4, 1, 6, 3]; }
  function step(d) {
    var o = order(), k = o.indexOf(st.cur), n = k + d;
    if (n < 0 || n >= o.length) { if (!st.repeat) { n = Math.max(0, Math.min(o.length - 1, n)); } else n = (n + o.length) % o.length; }
    st.cur = o[n]; st.pos = 0;
  }
  function render() {
    var t = TRACKS[st.cur];
    var q = st.q.toLowerCase(), shown = 0;
    $("tracks").innerHTML = TRACKS.map(function (x, i) {
      if (q && (x[0] + " " + x[1] + " " + x[2]).toLowerCase().indexOf(q) < 0) return "";
      shown++;
      return '<tr class="track-row' + (i === st.cur ? " current" : "") + '" id="row-' + i + '"><td>' + (i === st.cur && st.playing ? "♪" : i + 1) + '</td><td><button class="row-play" id="track-' + i + '" aria-label="Play ' + x[0] + ' by ' + x[1] + '"><span class="t">' + x[0] + '</span><small>' + x[1] + '</small></button></td><td>' + x[2] + '</td><td>' + (st.liked[i] ? '<span style="color:#f472b6">♥</span>' : "") + '</td><td>' + mmss(x[3]) + '</td></tr>';
    }).join("");
    $("no-match").hidden = shown > 0;
    $("now-title").textContent = t[0]; $("now-artist").textContent = t[1];
    $("now-cover").src = "assets/cover-" + t[4] + ".jpg";
    $("pos").textContent = mmss(st.pos); $("dur").textContent = mmss(t[3]);
    $("fill").style.width = (st.pos / t[3] * 100).toFixed(2) + "%";
    $("play").textContent = st.playing ? "❚❚" : "▶"; $("play").setAttribute("aria-label", st.playing ? "Pause" : "Play");
    $("state-label").textContent = st.playing ? "Now playing" : "Paused";
    $("shuffle").setAttribute("aria-pressed", String(st.shuffle)); $("repeat").setAttribute("aria-pressed", String(st.repeat));
    $("like").setAttribute("aria-pressed", String(!!st.liked[st.cur])); $("like").textContent = st.liked[st.cur] ? "♥" : "♡";
    $("like").setAttribute("aria-label", st.liked[st.cur] ? "Unlike song" : "Like song");
    $("vfill").style.width = st.vol + "%"; $("vol-label").textContent = st.vol + "%";
    $("follow").textContent = st.follow ? "Following" : "Follow"; $("follow").classList.toggle("on", st.follow);
    $("like-count").textContent = (st.follow ? "12,409" : "12,408") + " likes";
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest("button");
    if (!b) {
      var bar = e.target.closest("#bar");
      if (bar) { var r = bar.getBoundingClientRect(); st.pos = Math.round((e.clientX - r.left) / r.width * TRACKS[st.cur][3]); render(); }
      return;
    }
    if (b.id.indexOf("track-") === 0) { st.cur = +b.id.slice(6); st.pos = 0; st.playing = true; }
    else switch (b.id) {
      case "play": st.playing = !st.playing; break;
      case "play-all": st.cur = order()[0]; st.pos = 0; st.playing = true; break;
      case "next": step(1); break;
      case "prev": if (st.pos > 5) st.pos = 0; else step(-1); break;
      case "fwd15": st.pos = Math.min(TRACKS[st.cur][3], st.pos + 15); break;
      case "back15": st.pos = Math.max(0, st.pos - 15); break;
      case "shuffle": st.shuffle = !st.shuffle; break;
      case "repeat": st.repeat = !st.repeat; break;
      case "like": st.liked[st.cur] = !st.liked[st.cur]; break;
      case "vol-up": st.vol = Math.min(100, st.vol + 10); break;
      case "vol-down": st.vol = Math.max(0, st.vol - 10); break;
      case "follow": st.follow = !st.follow; break;
      default: return;
    }
    render();
  });
  $("filter").addEventListener("input", function (e) { st.q = e.target.value.trim(); render(); });
  document.addEventListener("keydown", function (e) {
    if (e.target.tagName === "INPUT") { if (e.key === "Escape") { e.target.value = ""; st.q = ""; e.target.blur(); render(); } return; }
    if (e.key === "ArrowRight") { st.pos = Math.min(TRACKS[st.cur][3], st.pos + 5); render(); }
    if (e.key === "ArrowLeft") { st.pos = Math.max(0, st.pos - 5); render(); }
  });
  render();
})();
