// botarena match viewer: plays the frames embedded in this page (src/view/frames.rs gives
// their layout) on a 2D canvas. Plain JavaScript, no library: the page must open from a
// file with no network.
"use strict";
(function () {
  const F = JSON.parse(document.getElementById("frames").textContent);
  const T = F.ticks;
  const RATE = F.tick_rate;
  const $ = (id) => document.getElementById(id);

  // ---- decoding ------------------------------------------------------------------------
  // Delta series: value at tick t = sum of the first t+1 entries.
  function undelta(d) {
    const out = new Int32Array(T + 1);
    let v = 0;
    for (let i = 0; i <= T; i++) {
      v += i < d.length ? d[i] : 0;
      out[i] = v;
    }
    return out;
  }
  // Change lists [[t, v], ...]: the value at tick t.
  function at(list, t, fallback) {
    let lo = 0, hi = list.length - 1, best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid][0] <= t) { best = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return best < 0 ? fallback : list[best][1];
  }

  // Twelve colours told apart at a glance (then they repeat).
  const PALETTE = ["#e03131", "#1971c2", "#2f9e44", "#f08c00", "#9c36b5", "#0c8599",
    "#e64980", "#343a40", "#fab005", "#845ef7", "#8d5524", "#82c91e"];
  const players = F.players.map((p, i) => ({
    index: i, id: p.id, name: p.name, colour: PALETTE[i % PALETTE.length],
    x: undelta(p.x), y: undelta(p.y), z: undelta(p.z),
    vx: undelta(p.vx), vy: undelta(p.vy), vz: undelta(p.vz),
    yaw: undelta(p.yaw), pitch: undelta(p.pitch),
    health: p.health, armour: p.armour, weapon: p.weapon, alive: p.alive, frags: p.frags,
    deaths: p.deaths, powers: p.powers, goal: p.goal, goal_at: p.goal_at, target: p.target,
    sees: p.sees,
  }));
  const byId = new Map(players.map((p) => [p.id, p]));
  const nameOf = (id) => (id === null || id === undefined) ? "the world" : (byId.get(id) ? byId.get(id).name : "#" + id);
  const movers = F.movers.map((m) => ({ cls: m.class, brushes: m.brushes, x: undelta(m.x), y: undelta(m.y), z: undelta(m.z) }));
  const projectiles = new Map(F.projectiles.map((r) => [r[0], r]));
  const soundsByTick = new Map();
  for (const s of F.sounds) {
    if (!soundsByTick.has(s[1])) soundsByTick.set(s[1], []);
    soundsByTick.get(s[1]).push(s);
  }
  const eventsByTick = new Map();
  for (const e of F.events) {
    if (!eventsByTick.has(e.tick)) eventsByTick.set(e.tick, []);
    eventsByTick.get(e.tick).push(e.event);
  }
  const kindOf = (ev) => Object.keys(ev)[0];
  // Deaths with where they happened (the victim's origin that tick).
  const deaths = [];
  for (const e of F.events) {
    const ev = e.event;
    if (kindOf(ev) !== "Death") continue;
    const d = ev.Death, p = byId.get(d.player);
    if (!p) continue;
    deaths.push({ tick: e.tick, victim: p, killer: d.killer, cause: d.cause, x: p.x[e.tick], y: p.y[e.tick], z: p.z[e.tick] });
  }
  const G = F.geometry;
  const [bx0, by0, bz0, bx1, by1, bz1] = G.bounds;
  const WEAPON_SHORT = { axe: "AX", shotgun: "SG", super_shotgun: "SSG", nailgun: "NG", super_nailgun: "SNG",
    grenade_launcher: "GL", rocket_launcher: "RL", lightning: "LG" };
  const SHOT_SOUNDS = new Set(["Shotgun", "SuperShotgun", "Lightning"]);

  // A map with no match: no timeline, no scoreboard; its waypoints shown.
  const STATIC = F.players.length === 0 && T === 0;
  if (STATIC) {
    document.body.classList.add("static");
    $("hint").textContent = "drag to pan · wheel to zoom";
  }

  // ---- state -----------------------------------------------------------------------------
  const state = {
    tick: 0, playing: false, speed: 1, acc: 0, last: null,
    follow: -1, zmin: bz0, zmax: bz1, zfollow: false,
    zoom: 1, panX: 0, panY: 0,
    layers: { trails: true, names: true, items: true, routes: false, sight: false, sounds: false, waypoints: STATIC, heat: false },
  };
  const LAYER_NAMES = { trails: "trails (3 s)", names: "names", items: "items", routes: "routes (goal and next step)",
    sight: "sight lines", sounds: "heard sounds", waypoints: "waypoints learned so far", heat: "death heatmap" };

  // ---- view transform ------------------------------------------------------------------
  const canvas = $("map");
  const ctx = canvas.getContext("2d");
  let W = 0, H = 0, dpr = 1;
  function resize() {
    dpr = window.devicePixelRatio || 1;
    const r = canvas.getBoundingClientRect();
    W = Math.max(1, r.width); H = Math.max(1, r.height);
    canvas.width = Math.round(W * dpr); canvas.height = Math.round(H * dpr);
    const m = $("marks"), mr = m.getBoundingClientRect();
    m.width = Math.round(mr.width * dpr); m.height = Math.round(mr.height * dpr);
    drawMarks();
    draw();
  }
  function baseScale() {
    return Math.min((W - 40) / Math.max(1, bx1 - bx0), (H - 40) / Math.max(1, by1 - by0));
  }
  function centre() {
    if (state.follow >= 0) {
      const p = players[state.follow];
      return [p.x[state.tick], p.y[state.tick]];
    }
    return [(bx0 + bx1) / 2 + state.panX, (by0 + by1) / 2 + state.panY];
  }
  let S = 1, CX = 0, CY = 0;
  function updateView() {
    S = baseScale() * state.zoom;
    [CX, CY] = centre();
  }
  const sx = (x) => W / 2 + (x - CX) * S;
  const sy = (y) => H / 2 - (y - CY) * S;
  const wx = (px) => CX + (px - W / 2) / S;
  const wy = (py) => CY - (py - H / 2) / S;

  // ---- height filter -------------------------------------------------------------------
  function zRange() {
    if (state.zfollow && state.follow >= 0) {
      const z = players[state.follow].z[state.tick];
      return [z - 96, z + 160];
    }
    return [state.zmin, state.zmax];
  }
  const inZ = (lo, hi, zr) => hi >= zr[0] && lo <= zr[1];

  // ---- drawing ---------------------------------------------------------------------------
  const solids = G.brushes.filter((b) => b[0] <= 1).sort((a, b) => a[2] - b[2]);
  const others = G.brushes.filter((b) => b[0] > 1);
  function poly(row, dx, dy) {
    ctx.beginPath();
    for (let i = 3; i + 1 < row.length; i += 2) {
      const x = sx(row[i] + dx), y = sy(row[i + 1] + dy);
      if (i === 3) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    }
    ctx.closePath();
  }
  function drawMap(zr) {
    const zspan = Math.max(1, bz1 - bz0);
    for (const b of solids) {
      const visible = inZ(b[1], b[2], zr);
      const t = Math.min(1, Math.max(0, (b[2] - bz0) / zspan));
      const g = Math.round(200 - 170 * t);
      poly(b, 0, 0);
      ctx.globalAlpha = visible ? 0.12 : 0.03;
      ctx.fillStyle = `rgb(${g},${g},${g})`;
      ctx.fill();
      ctx.globalAlpha = visible ? 1 : 0.15;
      ctx.strokeStyle = `rgb(${g},${g},${g})`;
      ctx.lineWidth = 0.8;
      ctx.stroke();
    }
    const LIQ = { 2: "#1c7ed6", 3: "#5c940d", 4: "#e8590c", 5: "#ae3ec9" };
    for (const b of others) {
      poly(b, 0, 0);
      ctx.globalAlpha = (b[0] === 5 ? 0.6 : 0.55) * (inZ(b[1], b[2], zr) ? 1 : 0.2);
      ctx.fillStyle = LIQ[b[0]];
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    for (const m of movers) {
      const dx = m.x[state.tick], dy = m.y[state.tick], dz = m.z[state.tick];
      for (const b of m.brushes) {
        const vis = inZ(b[1] + dz, b[2] + dz, zr);
        poly(b, dx, dy);
        ctx.globalAlpha = vis ? 0.35 : 0.08;
        ctx.fillStyle = "#a0522d";
        ctx.fill();
        ctx.globalAlpha = vis ? 1 : 0.2;
        ctx.strokeStyle = "#a0522d";
        ctx.lineWidth = 1;
        ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([3, 2]);
    ctx.strokeStyle = "#ae3ec9";
    for (const t of G.teleports) {
      ctx.globalAlpha = inZ(t[2], t[5], zr) ? 1 : 0.2;
      ctx.strokeRect(sx(t[0]), sy(t[4]), (t[3] - t[0]) * S, (t[4] - t[1]) * S);
    }
    ctx.setLineDash([]);
    ctx.fillStyle = "#2b8a3e";
    for (const s of G.spawns) {
      ctx.globalAlpha = inZ(s[2], s[2], zr) ? 1 : 0.2;
      ctx.beginPath(); ctx.arc(sx(s[0]), sy(s[1]), Math.max(2.5, 8 * S), 0, 7); ctx.fill();
    }
    ctx.globalAlpha = 1;
  }
  function shortItem(cls) {
    return cls.replace(/^(weapon|item|ammo)_/, "").replace("supershotgun", "SSG").replace("rocketlauncher", "RL")
      .replace("grenadelauncher", "GL").replace("supernailgun", "SNG").replace("nailgun", "NG").replace("lightning", "LG");
  }
  function drawItems(zr) {
    const r = Math.max(2.5, 8 * S);
    ctx.font = "10px system-ui, sans-serif";
    for (const it of F.items) {
      const [x, y, z] = it.origin;
      const up = at(it.available, state.tick, 1) === 1;
      ctx.globalAlpha = inZ(z - 24, z + 24, zr) ? 1 : 0.15;
      ctx.fillStyle = "#862e9c"; ctx.strokeStyle = "#862e9c"; ctx.lineWidth = 1;
      if (up) ctx.fillRect(sx(x) - r, sy(y) - r, 2 * r, 2 * r);
      else ctx.strokeRect(sx(x) - r, sy(y) - r, 2 * r, 2 * r);
      if (S > 0.35 && /^(weapon|item_artifact|item_armor)/.test(it.class)) {
        ctx.fillStyle = "#5f3dc4";
        ctx.fillText(shortItem(it.class), sx(x) + r + 2, sy(y) + 3);
      }
    }
    ctx.globalAlpha = 1;
  }
  function drawWaypoints(zr) {
    const t = state.tick;
    ctx.strokeStyle = "rgba(34,34,51,0.35)"; ctx.lineWidth = 0.7;
    ctx.beginPath();
    for (const l of F.links) {
      if (l[0] > t) continue;
      const a = F.waypoints[l[1]], b = F.waypoints[l[2]];
      if (!a || !b) continue;
      ctx.moveTo(sx(a[1]), sy(a[2])); ctx.lineTo(sx(b[1]), sy(b[2]));
    }
    ctx.stroke();
    const COL = ["#1971c2", "#fcc419", "#ffffff", "#e03131", "#f76707"];
    for (const w of F.waypoints) {
      if (w[0] > t) continue;
      ctx.globalAlpha = inZ(w[3] - 24, w[3] + 32, zr) ? 1 : 0.2;
      ctx.fillStyle = COL[w[4]] || "#1971c2";
      ctx.beginPath(); ctx.arc(sx(w[1]), sy(w[2]), w[4] ? 4 : 2.2, 0, 7); ctx.fill();
      if (w[4]) { ctx.strokeStyle = "#000"; ctx.lineWidth = 0.6; ctx.stroke(); }
    }
    ctx.globalAlpha = 1;
  }
  function drawHeat() {
    const rad = Math.max(12, 96 * S);
    for (const d of deaths) {
      if (d.tick > state.tick) continue;
      const g = ctx.createRadialGradient(sx(d.x), sy(d.y), 0, sx(d.x), sy(d.y), rad);
      g.addColorStop(0, "rgba(224,49,49,0.3)");
      g.addColorStop(1, "rgba(224,49,49,0)");
      ctx.fillStyle = g;
      ctx.fillRect(sx(d.x) - rad, sy(d.y) - rad, 2 * rad, 2 * rad);
    }
  }
  function drawProjectiles() {
    const row = projectiles.get(state.tick);
    if (!row) return;
    const COL = ["#495057", "#f76707", "#2b8a3e"];
    for (let i = 1; i + 3 < row.length; i += 4) {
      ctx.fillStyle = COL[row[i]];
      ctx.beginPath(); ctx.arc(sx(row[i + 1]), sy(row[i + 2]), row[i] === 0 ? 1.8 : 3.5, 0, 7); ctx.fill();
    }
  }
  // Shots (hitscan fire sounds, drawn along the view or to whom they hurt) and explosions,
  // each shown for a few ticks after it happened.
  function drawShotsAndBlasts() {
    const t = state.tick;
    for (let k = 0; k < 6; k++) {
      const list = soundsByTick.get(t - k);
      if (!list) continue;
      const fade = 1 - k / 6;
      for (const s of list) {
        const kind = F.sound_kinds[s[2]];
        if (kind === "Explosion") {
          const r = (40 + 20 * k) * S + 4;
          ctx.globalAlpha = fade;
          ctx.strokeStyle = "#f76707"; ctx.lineWidth = 3;
          ctx.beginPath(); ctx.arc(sx(s[3]), sy(s[4]), r, 0, 7); ctx.stroke();
          ctx.fillStyle = "rgba(255,212,59,0.35)"; ctx.fill();
        } else if (SHOT_SOUNDS.has(kind) && s[6] >= 0 && k < 3) {
          const p = players[s[6]], i = t - k;
          let ex, ey;
          const hit = (eventsByTick.get(i) || []).find((e) => e.Damage && e.Damage.attacker === p.id && byId.get(e.Damage.player));
          if (hit) { const v = byId.get(hit.Damage.player); ex = v.x[i]; ey = v.y[i]; } else {
            const a = p.yaw[i] * Math.PI / 180, len = kind === "Lightning" ? 600 : 320;
            ex = p.x[i] + Math.cos(a) * len; ey = p.y[i] + Math.sin(a) * len;
          }
          ctx.globalAlpha = fade;
          ctx.strokeStyle = kind === "Lightning" ? "#74c0fc" : "#fab005"; ctx.lineWidth = kind === "Lightning" ? 3 : 1.5;
          ctx.beginPath(); ctx.moveTo(sx(p.x[i]), sy(p.y[i])); ctx.lineTo(sx(ex), sy(ey)); ctx.stroke();
        }
      }
    }
    ctx.globalAlpha = 1;
  }
  function drawRoutes(p, t) {
    const tg = at(p.target, t, null);
    let g = at(p.goal_at, t, null);
    const goal = at(p.goal, t, null);
    if (!g && goal && goal.startsWith("fight ")) {
      const e = players.find((q) => q.name === goal.slice(6));
      if (e) g = [e.x[t], e.y[t], e.z[t]];
    }
    ctx.strokeStyle = p.colour; ctx.lineWidth = 1.2; ctx.setLineDash([5, 4]);
    ctx.beginPath(); ctx.moveTo(sx(p.x[t]), sy(p.y[t]));
    if (tg) ctx.lineTo(sx(tg[0]), sy(tg[1]));
    if (g) ctx.lineTo(sx(g[0]), sy(g[1]));
    ctx.stroke(); ctx.setLineDash([]);
    if (g) { ctx.beginPath(); ctx.arc(sx(g[0]), sy(g[1]), 5, 0, 7); ctx.stroke(); }
  }
  function drawSight(p, t) {
    ctx.strokeStyle = p.colour; ctx.lineWidth = 0.8; ctx.globalAlpha = 0.6;
    for (const j of at(p.sees, t, [])) {
      const q = players[j];
      ctx.beginPath(); ctx.moveTo(sx(p.x[t]), sy(p.y[t])); ctx.lineTo(sx(q.x[t]), sy(q.y[t])); ctx.stroke();
    }
    ctx.globalAlpha = 1;
  }
  // Sounds last their kind's time; a player is shown the ones it heard while they last.
  const SOUND_TICKS = F.sound_seconds.map((s) => Math.max(1, Math.round(s * RATE)));
  const LONGEST_SOUND = Math.max(1, ...SOUND_TICKS);
  function drawHeard(p, t) {
    ctx.strokeStyle = p.colour; ctx.lineWidth = 1;
    for (let i = Math.max(0, t - LONGEST_SOUND); i <= t; i++) {
      for (const s of soundsByTick.get(i) || []) {
        if (t >= s[1] + SOUND_TICKS[s[2]] || !s[7].includes(p.index)) continue;
        ctx.globalAlpha = 0.5;
        ctx.setLineDash([2, 3]);
        ctx.beginPath(); ctx.moveTo(sx(p.x[t]), sy(p.y[t])); ctx.lineTo(sx(s[3]), sy(s[4])); ctx.stroke();
        ctx.setLineDash([]);
        ctx.beginPath(); ctx.arc(sx(s[3]), sy(s[4]), 6, 0, 7); ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
  }
  // Where each player was drawn this frame, in CSS pixels (the page's test reads it).
  let drawn = [];
  function drawPlayers(zr) {
    const t = state.tick;
    drawn = [];
    const r = Math.max(5, 16 * S);
    for (const p of players) {
      const x = sx(p.x[t]), y = sy(p.y[t]), z = p.z[t];
      const alive = at(p.alive, t, 1) === 1;
      const near = inZ(z - 24, z + 32, zr);
      ctx.globalAlpha = near ? 1 : 0.25;
      if (state.layers.trails) {
        ctx.strokeStyle = p.colour; ctx.lineWidth = 2;
        ctx.globalAlpha = near ? 0.45 : 0.12;
        ctx.beginPath();
        let started = false;
        for (let i = Math.max(0, t - 3 * RATE); i <= t; i++) {
          if (i > 0 && Math.hypot(p.x[i] - p.x[i - 1], p.y[i] - p.y[i - 1]) > 200) started = false; // a teleport
          if (!started) { ctx.moveTo(sx(p.x[i]), sy(p.y[i])); started = true; } else ctx.lineTo(sx(p.x[i]), sy(p.y[i]));
        }
        ctx.stroke();
        ctx.globalAlpha = near ? 1 : 0.25;
      }
      if (alive) {
        ctx.fillStyle = p.colour;
        ctx.beginPath(); ctx.arc(x, y, r, 0, 7); ctx.fill();
        ctx.strokeStyle = "#111"; ctx.lineWidth = 1.2; ctx.stroke();
        const a = p.yaw[t] * Math.PI / 180;
        ctx.strokeStyle = "#111"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.moveTo(x, y); ctx.lineTo(x + Math.cos(a) * r * 2.2, y - Math.sin(a) * r * 2.2); ctx.stroke();
        const pw = at(p.powers, t, 0);
        if (pw) {
          ctx.strokeStyle = pw & 1 ? "#4dabf7" : pw & 2 ? "#e03131" : pw & 4 ? "#868e96" : "#82c91e";
          ctx.lineWidth = 3; ctx.beginPath(); ctx.arc(x, y, r + 4, 0, 7); ctx.stroke();
        }
      } else {
        ctx.strokeStyle = p.colour; ctx.lineWidth = 3;
        ctx.beginPath(); ctx.moveTo(x - r, y - r); ctx.lineTo(x + r, y + r); ctx.moveTo(x + r, y - r); ctx.lineTo(x - r, y + r); ctx.stroke();
      }
      if (state.layers.names) {
        ctx.font = "bold 11px system-ui, sans-serif";
        ctx.fillStyle = "#111";
        ctx.fillText(p.name, x + r + 3, y - r);
      }
      drawn.push({ name: p.name, x, y, r, colour: p.colour, alive, near });
    }
    ctx.globalAlpha = 1;
  }
  function drawPickups() {
    const t = state.tick;
    for (let k = 0; k < 8; k++) {
      for (const ev of eventsByTick.get(t - k) || []) {
        if (!ev.Pickup) continue;
        const p = byId.get(ev.Pickup.player);
        if (!p) continue;
        ctx.globalAlpha = 1 - k / 8;
        ctx.strokeStyle = "#fcc419"; ctx.lineWidth = 2;
        ctx.beginPath(); ctx.arc(sx(p.x[t - k]), sy(p.y[t - k]), 10 + 3 * k, 0, 7); ctx.stroke();
      }
    }
    ctx.globalAlpha = 1;
  }
  function draw() {
    if (!W) return;
    updateView();
    const zr = zRange();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = "#f4f1ea";
    ctx.fillRect(0, 0, W, H);
    drawMap(zr);
    if (state.layers.heat) drawHeat();
    if (state.layers.waypoints) drawWaypoints(zr);
    if (state.layers.items) drawItems(zr);
    const t = state.tick;
    const who = state.follow >= 0 ? [players[state.follow]] : players;
    for (const p of who) {
      if (at(p.alive, t, 1) !== 1) continue;
      if (state.layers.routes) drawRoutes(p, t);
      if (state.layers.sight) drawSight(p, t);
      if (state.layers.sounds) drawHeard(p, t);
    }
    drawProjectiles();
    drawShotsAndBlasts();
    drawPickups();
    drawPlayers(zr);
    updatePanel();
  }

  // ---- side panel ------------------------------------------------------------------------
  const rows = [];
  const tbody = $("scoreboard").querySelector("tbody");
  for (const p of players) {
    const tr = document.createElement("tr");
    tr.dataset.name = p.name;
    tr.innerHTML = `<td class="name"><span class="swatch"></span></td><td class="frags"></td><td class="deaths"></td><td class="health"></td><td class="armour"></td><td class="weapon"></td><td class="doing"></td>`;
    tr.querySelector(".swatch").style.background = p.colour;
    tr.querySelector(".name").append(document.createTextNode(p.name));
    tr.addEventListener("click", () => setFollow(state.follow === p.index ? -1 : p.index));
    tbody.append(tr);
    rows.push({ tr, p });
    const o = document.createElement("option");
    o.value = String(p.index); o.textContent = p.name;
    $("follow").append(o);
  }
  const feedItems = deaths.map((d) => {
    const li = document.createElement("li");
    const how = d.killer !== null && d.killer !== undefined && d.killer !== d.victim.id
      ? `${nameOf(d.killer)} fragged ${d.victim.name} (${d.cause})`
      : `${d.victim.name} died (${d.cause})`;
    const ts = document.createElement("span");
    ts.className = "t"; ts.textContent = (d.tick / RATE).toFixed(1) + " s";
    li.append(ts, document.createTextNode(how));
    li.dataset.tick = String(d.tick);
    li.title = "watch from a second before";
    li.addEventListener("click", () => { setTick(Math.max(0, d.tick - RATE)); });
    $("feed").prepend(li);
    return { li, d };
  });
  function updatePanel() {
    const t = state.tick;
    if (STATIC) {
      $("clock").textContent = `${F.waypoints.length} waypoints, ${F.links.length} links, ${F.items.length} items`;
      document.body.dataset.tick = "0";
      return;
    }
    $("clock").textContent = `tick ${t} / ${T} · ${(t / RATE).toFixed(2)} s of ${(T / RATE).toFixed(1)} s` + (state.playing ? ` · ${state.speed}×` : " · paused");
    const sorted = rows.slice().sort((a, b) => at(b.p.frags, t, 0) - at(a.p.frags, t, 0) || a.p.index - b.p.index);
    for (const { tr, p } of sorted) {
      const alive = at(p.alive, t, 1) === 1;
      tr.querySelector(".frags").textContent = at(p.frags, t, 0);
      tr.querySelector(".deaths").textContent = at(p.deaths, t, 0);
      tr.querySelector(".health").textContent = alive ? at(p.health, t, 0) : "dead";
      tr.querySelector(".armour").textContent = at(p.armour, t, 0);
      const w = at(p.weapon, t, "");
      tr.querySelector(".weapon").textContent = WEAPON_SHORT[w] || w;
      const goal = at(p.goal, t, null);
      tr.querySelector(".doing").textContent = goal ? goal.replace(/^item (weapon_|item_)?/, "→ ") : "";
      tr.querySelector(".doing").title = goal || "";
      tr.classList.toggle("dead", !alive);
      tr.classList.toggle("followed", state.follow === p.index);
      tbody.append(tr);
    }
    // Newest first; what has not happened yet stays hidden.
    for (const { li, d } of feedItems) li.hidden = d.tick > t;
    $("scrub").value = String(t);
    $("play").textContent = state.playing ? "❙❙ pause" : "▶ play";
    document.body.dataset.tick = String(t);
  }

  // ---- timeline ----------------------------------------------------------------------------
  function drawMarks() {
    const m = $("marks"), c = m.getContext("2d");
    c.setTransform(1, 0, 0, 1, 0, 0);
    c.clearRect(0, 0, m.width, m.height);
    const kind = $("event-kind").value;
    c.fillStyle = "#ff6b6b";
    for (const e of F.events) {
      if (kind && kindOf(e.event) !== kind) continue;
      const x = Math.round((e.tick / Math.max(1, T)) * (m.width - 1));
      c.fillRect(x, m.height - 7 * dpr, Math.max(1, dpr), 7 * dpr);
    }
  }
  function eventTicks() {
    const kind = $("event-kind").value;
    return F.events.filter((e) => !kind || kindOf(e.event) === kind).map((e) => e.tick);
  }
  function setTick(t) {
    state.tick = Math.max(0, Math.min(T, Math.round(t)));
    if (state.tick >= T) state.playing = false;
    draw();
  }
  function setFollow(i) {
    state.follow = i;
    $("follow").value = String(i);
    draw();
  }
  function loop(now) {
    if (state.playing) {
      if (state.last !== null) state.acc += ((now - state.last) / 1000) * RATE * state.speed;
      state.last = now;
      const steps = Math.floor(state.acc);
      if (steps > 0) { state.acc -= steps; setTick(state.tick + steps); }
    } else state.last = null;
    requestAnimationFrame(loop);
  }
  function togglePlay() {
    if (!state.playing && state.tick >= T) state.tick = 0;
    state.playing = !state.playing;
    state.acc = 0; state.last = null;
    draw();
  }

  // ---- controls ----------------------------------------------------------------------------
  $("scrub").max = String(T);
  $("scrub").addEventListener("input", (e) => setTick(Number(e.target.value)));
  $("play").addEventListener("click", togglePlay);
  $("speed").addEventListener("change", (e) => { state.speed = Number(e.target.value); draw(); });
  $("prev-event").addEventListener("click", () => {
    const ts = eventTicks().filter((t) => t < state.tick);
    if (ts.length) setTick(ts[ts.length - 1]);
  });
  $("next-event").addEventListener("click", () => {
    const t = eventTicks().find((t) => t > state.tick);
    if (t !== undefined) setTick(t);
  });
  $("event-kind").addEventListener("change", drawMarks);
  $("follow").addEventListener("change", (e) => setFollow(Number(e.target.value)));
  for (let [key, label] of Object.entries(LAYER_NAMES)) {
    if (STATIC && key !== "items" && key !== "waypoints") continue;
    const l = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox"; box.id = "layer-" + key; box.checked = state.layers[key];
    if (STATIC && key === "waypoints") label = "waypoints";
    box.addEventListener("change", () => { state.layers[key] = box.checked; draw(); });
    l.append(box, document.createTextNode(" " + label));
    $("layers").append(l);
  }
  for (const [id, key] of [["zmin", "zmin"], ["zmax", "zmax"]]) {
    const el = $(id);
    el.min = String(bz0); el.max = String(bz1); el.step = "8"; el.value = String(state[key]);
    $(id + "-out").textContent = el.value;
    el.addEventListener("input", () => {
      state[key] = Number(el.value);
      if (state.zmin > state.zmax) { if (key === "zmin") state.zmax = state.zmin; else state.zmin = state.zmax; }
      $("zmin").value = String(state.zmin); $("zmax").value = String(state.zmax);
      $("zmin-out").textContent = state.zmin; $("zmax-out").textContent = state.zmax;
      draw();
    });
  }
  $("zfollow").addEventListener("change", (e) => { state.zfollow = e.target.checked; draw(); });
  let drag = null;
  canvas.addEventListener("mousedown", (e) => { drag = { x: e.clientX, y: e.clientY, moved: false }; });
  window.addEventListener("mousemove", (e) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    if (!drag.moved) return;
    canvas.classList.add("dragging");
    if (state.follow >= 0) { const [cx, cy] = centre(); state.panX = cx - (bx0 + bx1) / 2; state.panY = cy - (by0 + by1) / 2; setFollow(-1); }
    state.panX -= dx / S; state.panY += dy / S;
    drag.x = e.clientX; drag.y = e.clientY;
    draw();
  });
  window.addEventListener("mouseup", (e) => {
    if (drag && !drag.moved) {
      // A click: follow the player under the pointer, if any.
      const r = canvas.getBoundingClientRect();
      const px = e.clientX - r.left, py = e.clientY - r.top;
      const hit = drawn.find((d) => Math.hypot(d.x - px, d.y - py) <= d.r + 4);
      if (hit) setFollow(players.findIndex((p) => p.name === hit.name));
    }
    drag = null; canvas.classList.remove("dragging");
  });
  canvas.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = canvas.getBoundingClientRect();
    const px = e.clientX - r.left, py = e.clientY - r.top;
    const before = [wx(px), wy(py)];
    state.zoom = Math.min(40, Math.max(0.5, state.zoom * Math.exp(-e.deltaY * 0.0015)));
    if (state.follow < 0) {
      updateView();
      state.panX += before[0] - wx(px); state.panY += before[1] - wy(py);
    }
    draw();
  }, { passive: false });
  window.addEventListener("keydown", (e) => {
    if (e.target && e.target.tagName === "SELECT") return;
    if (e.key === " ") { e.preventDefault(); togglePlay(); }
    else if (e.key === "ArrowRight") setTick(state.tick + (e.shiftKey ? RATE : 1));
    else if (e.key === "ArrowLeft") setTick(state.tick - (e.shiftKey ? RATE : 1));
    else if (e.key === "Home") { e.preventDefault(); setTick(0); }
    else if (e.key === "End") { e.preventDefault(); setTick(T); }
  });
  window.addEventListener("resize", resize);

  // What the page shows, for tests and for people in the console.
  window.botarenaViewer = {
    ticks: T,
    tick: () => state.tick,
    drawn: () => drawn.map((d) => Object.assign({}, d)),
    finalScores: () => F.scoreboard,
  };
  // A link can open the page at a moment and a view: #t=SECONDS&follow=NAME&layers=a,b&zoom=Z.
  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    if (h.has("t")) state.tick = Math.max(0, Math.min(T, Math.round(Number(h.get("t")) * RATE) || 0));
    if (h.has("follow")) state.follow = players.findIndex((p) => p.name === h.get("follow"));
    if (h.has("zoom")) state.zoom = Math.min(40, Math.max(0.5, Number(h.get("zoom")) || 1));
    if (h.has("layers")) {
      const on = new Set(h.get("layers").split(","));
      for (const k of Object.keys(state.layers)) {
        state.layers[k] = on.has(k);
        if ($("layer-" + k)) $("layer-" + k).checked = state.layers[k];
      }
    }
    if (h.has("floor")) { state.zfollow = true; $("zfollow").checked = true; }
    $("follow").value = String(state.follow);
  }
  fromHash();
  window.addEventListener("hashchange", () => { fromHash(); draw(); });
  resize();
  requestAnimationFrame(loop);
  document.body.dataset.ready = "1";
})();
