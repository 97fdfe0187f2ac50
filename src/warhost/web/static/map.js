/* warhost map views drawn as SVG, in plain JavaScript (no framework, no network).
 *
 * A map view is the plain data documented at the top of src/warhost/render/maps.py:
 * grid views (width, height, cells, units with x/y/w/h or squares, facing [dx, dy]) and
 * table views ("geometry": "table", inches, units with polygon/trays/arcs and a facing
 * bearing, areas with polygons).  North is up: the view's y grows upwards, SVG's downwards.
 *
 * WarhostMap.render(container, view, {onUnit, onSquare, onPoint, picked}) draws the view into
 * container and returns the legend entries; squares are <rect class="sq" data-x data-y>,
 * units are <g class="unit" data-unit=id data-side=side>.
 */
(function () {
  "use strict";
  const NS = "http://www.w3.org/2000/svg";

  const TERRAIN = {
    clear: "#eef3df", blocking: "#5b5b5b", hindering: "#7fae5a", elevated: "#c9a66b",
    slope: "#e2cd9c", cliff: "#7a5230", concealing: "#3f7f4f", shallow_water: "#9fd0ee",
    deep_water: "#2f6fb0", impassable: "#34495e", cover: "#a9c48f", high_ground: "#d8bf8a",
    difficult: "#b7c98a", light_forest: "#8cbf6a", heavy_forest: "#3f7f4f", jungle: "#2e6b3a",
    ruins: "#a39a8c", rocky: "#9c8f7a", building: "#b9855a", castle: "#6f6a64",
    swamp: "#7f9c6b", sand: "#ecd9a0", desert: "#e0c27f", water: "#9fd0ee",
    ruins_structure: "#8a8a8a", wooden_structure: "#8b5a2b", light_stone_structure: "#a8a8a8",
    keep_structure: "#5f5f5f", heavy_stone_structure: "#4f4f4f", castle_structure: "#3a3a3a",
  };
  const UNKNOWN_TERRAIN = "#b0b0b0";
  const SIDES = ["#1f5fbf", "#c0392b", "#8e44ad", "#d4870b", "#16a085", "#2c3e50"];
  const AREAS = {
    forest: "#4f8f3f", wood: "#4f8f3f", woods: "#4f8f3f", ruins: "#8a8a8a",
    fields: "#e6d36e", field: "#e6d36e",
    water: "#5b9bd5", river: "#5b9bd5", lake: "#5b9bd5", stream: "#5b9bd5",
  };
  const EFFECTS = {
    impassable: "#34495e", "blocks sight": "#5b5b5b", barrier: "#8b5a2b",
    difficult: "#4f8f3f", height: "#d8bf8a", cover: "#a9c48f", "superior cover": "#a9c48f",
    concealment: "#7fae5a", "total concealment": "#3f7f4f",
  };
  const OTHER_AREA = "#c4c4c4";
  const WOUNDED = "#ffd21f";
  const STATUS_ALPHA = { active: 1, engaged: 1, fled: 0.45, fleeing: 0.45, routed: 0.45,
                         destroyed: 0.25, slain: 0.25 };
  const FACED = ["active", "engaged", "fled", "fleeing"];

  function el(name, attrs, parent) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== undefined && v !== null) node.setAttribute(k, String(v));
    }
    if (parent) parent.appendChild(node);
    return node;
  }
  /** The SVG group of one unit: its id, side and state as data attributes (map clicks read
 * them), faded by status, outlined when picked, its words as a tooltip. */
function unitGroup(u, parent, opts) {
  const g = el("g", { class: "unit", "data-unit": u.id, "data-side": u.side,
    "data-status": u.status || "", opacity: STATUS_ALPHA[u.status] ?? 1 }, parent);
  if (opts.picked && opts.picked.unit === u.id) g.classList.add("picked");
  title(g, unitWords(u));
  return g;
}

function title(node, text) { el("title", {}, node).textContent = text; }
  function r3(v) { return Math.round(v * 1000) / 1000; }

  function sideColours(sides) {
    const out = {};
    (sides || []).forEach((s, i) => { out[s] = SIDES[i % SIDES.length]; });
    return out;
  }
  function areaColour(kind, effects) {
    for (const e of effects || []) {
      const word = String(e).startsWith("height") ? "height" : String(e);
      if (EFFECTS[word]) return EFFECTS[word];
    }
    return AREAS[kind] || OTHER_AREA;
  }
  function unitWords(u) {
    return [u.id, u.name && u.name !== u.id ? u.name : "", u.kind, u.strength,
            u.status && u.status !== "active" ? u.status : "",
            u.wounded ? "wounded" : "", u.stance ? u.stance + " stance" : ""]
      .filter(Boolean).join(" — ");
  }
  function fitText(parent, text, cx, cy, width, height, maxSize, colour) {
    if (!text) return;
    const size = Math.min(maxSize, height * 0.7, (width * 0.95) / (0.62 * text.length));
    if (size < maxSize * 0.18) return;
    const t = el("text", { x: r3(cx), y: r3(cy), "font-size": r3(size), "text-anchor": "middle",
      "dominant-baseline": "central", fill: colour || "#fff", "font-weight": 700 }, parent);
    t.textContent = text;
  }
  /* The facing: a triangle pointing along (dx, dy) (SVG directions), its base ``dist`` from
   * the unit's centre, so it sits at the unit's front edge and never hides its label. */
  function facingMark(parent, cx, cy, dx, dy, dist, size, colour) {
    const n = Math.hypot(dx, dy) || 1;
    const ux = dx / n, uy = dy / n, px = -uy, py = ux;
    const bx = cx + ux * dist, by = cy + uy * dist;
    el("polygon", { class: "facing", fill: colour, stroke: "#fff", "stroke-width": size * 0.08,
      points: [[bx + ux * size, by + uy * size], [bx + px * size * 0.7, by + py * size * 0.7],
               [bx - px * size * 0.7, by - py * size * 0.7]]
        .map((p) => p.map(r3).join(",")).join(" ") }, parent);
  }

  /* ---------------------------------------------------------------- grid views */
  function renderGrid(svg, view, opts, legend) {
    const W = view.width, H = view.height;
    const colours = sideColours(view.sides);
    svg.setAttribute("viewBox", `-0.05 -0.05 ${W + 0.1} ${H + 0.1}`);
    const sy = (y, h) => H - y - (h || 1);
    const cells = {};
    for (const c of view.cells || []) cells[c.x + "," + c.y] = c;
    const ground = el("g", { class: "squares" }, svg);
    const terrains = new Set();
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const c = cells[x + "," + y];
        const kind = c ? c.terrain : "clear";
        if (c) terrains.add(kind);
        const r = el("rect", { class: "sq", x, y: sy(y), width: 1, height: 1,
          fill: TERRAIN[kind] || UNKNOWN_TERRAIN, "data-x": x, "data-y": y,
          "data-terrain": kind }, ground);
        if (opts.picked && opts.picked.square && opts.picked.square[0] === x && opts.picked.square[1] === y) {
          r.classList.add("picked");
        }
        let words = `${x} ${y}` + (c ? ` — ${kind}` : "");
        if (c && c.level) words += ` (level ${c.level})`;
        title(r, words);
        if (c && c.water) {
          for (let k = 1; k <= 2; k++) {
            el("line", { x1: x + 0.1, y1: sy(y) + k / 3, x2: x + 0.9, y2: sy(y) + k / 3,
              stroke: "#2f6fb0", "stroke-width": 0.05, "pointer-events": "none" }, ground);
          }
        }
        if (c && c.level) {
          const t = el("text", { x: x + 0.92, y: sy(y) + 0.22, "font-size": 0.22,
            "text-anchor": "end", fill: "#333" }, ground);
          t.textContent = String(c.level);
        }
      }
    }
    for (const va of view.victory_areas || []) {
      for (const [x, y] of va.squares || []) {
        el("rect", { x: x + 0.06, y: sy(y) + 0.06, width: 0.88, height: 0.88, fill: "none",
          stroke: "#d4a017", "stroke-width": 0.08, "stroke-dasharray": "0.2 0.1",
          "pointer-events": "none" }, svg);
      }
      legend.push({ kind: "outline", colour: "#d4a017", text: `victory area: ${va.name}` });
    }
    // coordinates along the edges, every 5 squares
    const axes = el("g", { class: "axes", "pointer-events": "none" }, svg);
    for (let x = 0; x < W; x += (W > 30 ? 5 : 1)) {
      const t = el("text", { x: x + 0.5, y: H - 0.06, "font-size": 0.22, "text-anchor": "middle",
        fill: "#0006" }, axes);
      t.textContent = String(x);
    }
    for (let y = 0; y < H; y += (H > 30 ? 5 : 1)) {
      const t = el("text", { x: 0.05, y: sy(y) + 0.55, "font-size": 0.22, fill: "#0006" }, axes);
      t.textContent = String(y);
    }
    // units
    const occupancy = {};
    const unitsG = el("g", { class: "units" }, svg);
    for (const u of view.units || []) {
      if (u.x === null || u.x === undefined) continue;
      const colour = colours[u.side] || "#555";
      const g = unitGroup(u, unitsG, opts);
      const w = u.w || 1, h = u.h || 1;
      let cx = u.x + w / 2, cy = sy(u.y, h) + h / 2, bw = w, bh = h;
      if (u.squares && u.squares.length) {
        const own = new Set(u.squares.map((s) => s[0] + "," + s[1]));
        for (const [x, y] of u.squares) {
          el("rect", { class: "body counter", x: x + 0.08, y: sy(y) + 0.08, width: 0.84,
            height: 0.84, rx: 0.1, fill: colour, stroke: "#111", "stroke-width": 0.04,
            "data-x": x, "data-y": y }, g);
          occupancy[x + "," + y] = (occupancy[x + "," + y] || 0) + 1;
          // join neighbouring counters of one unit so it reads as one shape
          if (own.has((x + 1) + "," + y)) {
            el("rect", { x: x + 0.9, y: sy(y) + 0.3, width: 0.2, height: 0.4, fill: colour }, g);
          }
          if (own.has(x + "," + (y + 1))) {
            el("rect", { x: x + 0.3, y: sy(y) - 0.1, width: 0.4, height: 0.2, fill: colour }, g);
          }
        }
        // label once, along the row through (x, y)
        const row = u.squares.filter((s) => s[1] === u.y).map((s) => s[0]);
        const x0 = row.length ? Math.min(...row) : u.x, x1 = row.length ? Math.max(...row) + 1 : u.x + 1;
        cx = (x0 + x1) / 2; cy = sy(u.y) + 0.5; bw = x1 - x0; bh = 1;
      } else if (u.figure) {
        el("circle", { class: "body", cx: r3(cx), cy: r3(cy), r: Math.min(w, h) * 0.42,
          fill: colour, stroke: "#111", "stroke-width": 0.04, "data-x": u.x, "data-y": u.y }, g);
        occupancy[u.x + "," + u.y] = (occupancy[u.x + "," + u.y] || 0) + 1;
      } else {
        el("rect", { class: "body", x: u.x + 0.07, y: sy(u.y, h) + 0.07, width: w - 0.14,
          height: h - 0.14, rx: 0.12, fill: colour, stroke: "#111", "stroke-width": 0.04,
          "data-x": w === 1 && h === 1 ? u.x : null, "data-y": w === 1 && h === 1 ? u.y : null }, g);
        for (let dx = 0; dx < w; dx++) {
          for (let dy = 0; dy < h; dy++) {
            const key = (u.x + dx) + "," + (u.y + dy);
            occupancy[key] = (occupancy[key] || 0) + 1;
          }
        }
      }
      if (u.health !== undefined && u.health !== null) {
        const hx = u.squares && u.squares.length ? cx - bw / 2 : u.x;
        const hy = (u.squares && u.squares.length ? cy + 0.5 : sy(u.y, h) + h) - 0.16;
        el("rect", { x: r3(hx + 0.1), y: r3(hy), width: r3(bw - 0.2), height: 0.1, fill: "#0008" }, g);
        el("rect", { x: r3(hx + 0.1), y: r3(hy), width: r3(Math.max(0, (bw - 0.2) * u.health)),
          height: 0.1, fill: u.health > 0.5 ? "#5fd35f" : u.health > 0.25 ? "#f0c419" : "#e74c3c" }, g);
      }
      fitText(g, u.mark || u.id, cx, cy, bw * 0.9, bh * 0.8, 0.45);
      if (u.facing && FACED.includes(u.status || "active")) {
        const reach = Math.abs(u.facing[0]) >= Math.abs(u.facing[1]) ? bw / 2 : bh / 2;
        facingMark(g, cx, cy, u.facing[0], -u.facing[1], reach - 0.27, 0.2, "#111");
      }
      if (u.wounded) {
        el("circle", { cx: r3(cx + bw / 2 - 0.2), cy: r3(cy - bh / 2 + 0.2), r: 0.12,
          fill: WOUNDED, stroke: "#111", "stroke-width": 0.02 }, g);
      }
      g.addEventListener("click", (ev) => {
        ev.stopPropagation();
        // the square clicked, wherever on the unit (its body, label or facing arrow)
        const p = svg.createSVGPoint();
        p.x = ev.clientX; p.y = ev.clientY;
        const q = p.matrixTransform(svg.getScreenCTM().inverse());
        if (opts.onUnit) opts.onUnit(u.id, [Math.floor(q.x), H - 1 - Math.floor(q.y)]);
      });
    }
    // several units (or figures) in one square: a counter badge
    for (const [key, n] of Object.entries(occupancy)) {
      if (n < 2) continue;
      const [x, y] = key.split(",").map(Number);
      const b = el("g", { class: "stack", "data-x": x, "data-y": y, "pointer-events": "none" }, svg);
      el("circle", { cx: x + 0.84, cy: sy(y) + 0.16, r: 0.15, fill: "#fff", stroke: "#111",
        "stroke-width": 0.03 }, b);
      const t = el("text", { x: x + 0.84, y: sy(y) + 0.17, "font-size": 0.2, "text-anchor": "middle",
        "dominant-baseline": "central", fill: "#111", "font-weight": 700 }, b);
      t.textContent = String(n);
    }
    ground.addEventListener("click", (ev) => {
      const r = ev.target.closest(".sq");
      if (r && opts.onSquare) opts.onSquare(Number(r.dataset.x), Number(r.dataset.y));
    });
    for (const t of [...terrains].sort()) {
      legend.push({ kind: "swatch", colour: TERRAIN[t] || UNKNOWN_TERRAIN, text: t.replace(/_/g, " ") });
    }
    for (const [m, words] of view.marks || []) legend.push({ kind: "mark", text: `${m} ${words}` });
  }

  /* ---------------------------------------------------------------- table views */
  function renderTable(svg, view, opts, legend) {
    const W = view.width, H = view.height;
    const colours = sideColours(view.sides);
    svg.setAttribute("viewBox", `-0.3 -0.3 ${W + 0.6} ${H + 0.6}`);
    const pt = (p) => `${r3(p[0])},${r3(H - p[1])}`;
    const pts = (poly) => poly.map(pt).join(" ");
    const ground = el("rect", { class: "ground", x: 0, y: 0, width: W, height: H, fill: "#eef3df",
      stroke: "#888", "stroke-width": 0.1 }, svg);
    // a light grid every 6 inches, to read distances
    const grid = el("g", { "pointer-events": "none" }, svg);
    for (let x = 6; x < W; x += 6) el("line", { x1: x, y1: 0, x2: x, y2: H, stroke: "#0001", "stroke-width": 0.06 }, grid);
    for (let y = 6; y < H; y += 6) el("line", { x1: 0, y1: H - y, x2: W, y2: H - y, stroke: "#0001", "stroke-width": 0.06 }, grid);
    for (let x = 0; x <= W; x += 12) {
      const t = el("text", { x: x + 0.2, y: H - 0.3, "font-size": 0.9, fill: "#0006" }, grid);
      t.textContent = `${x}"`;
    }
    const seen = new Set();
    for (const a of view.areas || []) {
      const colour = areaColour(a.kind, a.effects);
      const p = el("polygon", { class: "area", points: pts(a.polygon || []), fill: colour,
        "fill-opacity": 0.55, stroke: colour, "stroke-width": 0.15, "data-area": a.name }, svg);
      title(p, `${a.name} — ${a.kind}`);
      const xs = (a.polygon || []).map((q) => q[0]), ys = (a.polygon || []).map((q) => q[1]);
      if (xs.length) {
        const t = el("text", { x: r3((Math.min(...xs) + Math.max(...xs)) / 2),
          y: r3(H - Math.max(...ys) + 1.1), "font-size": 0.95, "text-anchor": "middle",
          fill: "#0009", "font-style": "italic" }, svg);
        t.textContent = a.name;
      }
      if (!seen.has(a.kind)) { seen.add(a.kind); legend.push({ kind: "swatch", colour, text: a.kind }); }
    }
    const unitsG = el("g", { class: "units" }, svg);
    for (const u of view.units || []) {
      if (!u.polygon || u.polygon.length < 3) continue;
      const colour = colours[u.side] || "#555";
      const g = unitGroup(u, unitsG, opts);
      const engaged = u.status === "engaged" || (u.engaged_with && u.engaged_with.length);
      el("polygon", { class: "body", points: pts(u.polygon), fill: colour,
        "fill-opacity": u.trays && u.trays.length ? 0.25 : 1,
        stroke: engaged ? WOUNDED : "#111", "stroke-width": engaged ? 0.3 : 0.12 }, g);
      for (const tray of u.trays || []) {
        if (tray.length < 3) continue;
        if (u.bases === "round") {
          const cx = tray.reduce((s, q) => s + q[0], 0) / tray.length;
          const cy = tray.reduce((s, q) => s + q[1], 0) / tray.length;
          const side = Math.hypot(tray[0][0] - tray[1][0], tray[0][1] - tray[1][1]);
          el("circle", { class: "tray", cx: r3(cx), cy: r3(H - cy), r: r3(side / 2), fill: colour,
            stroke: "#f2f2f2", "stroke-width": 0.06 }, g);
        } else {
          el("polygon", { class: "tray", points: pts(tray), fill: colour, stroke: "#f2f2f2",
            "stroke-width": 0.1 }, g);
        }
      }
      for (const arc of u.arcs || []) {
        el("line", { x1: r3(arc[0][0]), y1: r3(H - arc[0][1]), x2: r3(arc[1][0]), y2: r3(H - arc[1][1]),
          stroke: colour, "stroke-width": 0.12, "stroke-dasharray": "0.4 0.25" }, g);
      }
      const xs = u.polygon.map((q) => q[0]), ys = u.polygon.map((q) => q[1]);
      const cx = xs.reduce((a, b) => a + b, 0) / xs.length;
      const cy = H - ys.reduce((a, b) => a + b, 0) / ys.length;
      const bw = Math.max(...xs) - Math.min(...xs), bh = Math.max(...ys) - Math.min(...ys);
      if (u.facing !== null && u.facing !== undefined && FACED.includes(u.status || "active")) {
        const rad = (u.facing * Math.PI) / 180;
        const dx = Math.sin(rad), dy = Math.cos(rad);  // north-up inches
        const mx = xs.reduce((a, b) => a + b, 0) / xs.length, my = ys.reduce((a, b) => a + b, 0) / ys.length;
        const front = Math.max(...u.polygon.map((q) => (q[0] - mx) * dx + (q[1] - my) * dy));
        facingMark(g, cx, cy, dx, -dy, front + 0.25, 1.1, "#111");
      }
      // label beside the unit when it is too small to hold it
      const label = u.id;
      const size = Math.min(1.2, (Math.max(bw, 2) * 0.95) / (0.62 * label.length));
      const inside = size >= 0.7 && bh >= 1;
      const t = el("text", { x: r3(cx), y: r3(inside ? cy : cy - bh / 2 - 0.8),
        "font-size": r3(inside ? size : 1.0), "text-anchor": "middle", "dominant-baseline": "central",
        "font-weight": 700, fill: inside ? "#fff" : "#111",
        stroke: inside ? "#0008" : "#fff", "stroke-width": inside ? 0.04 : 0.25,
        "paint-order": "stroke" }, g);
      t.textContent = label;
      g.addEventListener("click", (ev) => { ev.stopPropagation(); if (opts.onUnit) opts.onUnit(u.id, null); });
    }
    const toInches = (ev) => {
      const p = svg.createSVGPoint();
      p.x = ev.clientX; p.y = ev.clientY;
      const q = p.matrixTransform(svg.getScreenCTM().inverse());
      return [Math.round(q.x * 10) / 10, Math.round((H - q.y) * 10) / 10];
    };
    for (const node of [ground, ...svg.querySelectorAll(".area")]) {
      node.addEventListener("click", (ev) => { if (opts.onPoint) opts.onPoint(...toInches(ev)); });
    }
    if (opts.picked && opts.picked.point) {
      const [x, y] = opts.picked.point;
      el("circle", { cx: x, cy: H - y, r: 0.5, fill: "none", stroke: "#000", "stroke-width": 0.15,
        "pointer-events": "none" }, svg);
    }
  }

  function render(container, view, opts) {
    opts = opts || {};
    container.textContent = "";
    const legend = [];
    if (!view) {
      container.textContent = "(no map yet)";
      return legend;
    }
    const svg = el("svg", { xmlns: NS, role: "img", "data-testid": "map-svg",
      "data-geometry": view.geometry || "grid", "data-round": view.round ?? "" });
    svg.setAttribute("aria-label", `battlefield, round ${view.round ?? 0}`);
    container.appendChild(svg);
    if (view.geometry === "table") renderTable(svg, view, opts, legend);
    else renderGrid(svg, view, opts, legend);
    const colours = sideColours(view.sides);
    const sideItems = (view.sides || []).map((s) => ({ kind: "swatch", colour: colours[s],
      text: s + (view.scores && s in view.scores ? ` (${view.scores[s]})` : "") }));
    const faded = (view.units || []).some((u) => (STATUS_ALPHA[u.status] ?? 1) < 1);
    const extra = [];
    if ((view.units || []).some((u) => u.facing !== null && u.facing !== undefined)) extra.push({ kind: "mark", text: "▲ facing" });
    if ((view.units || []).some((u) => u.wounded)) extra.push({ kind: "swatch", colour: WOUNDED, text: "wounded" });
    if (faded) extra.push({ kind: "mark", text: "faded: fled, routed or destroyed" });
    return sideItems.concat(legend, extra);
  }

  function renderLegend(container, items, view) {
    container.textContent = "";
    if (view) {
      const scale = view.scale ? ` — ${view.scale}` : (view.geometry === "table" ? " — inches" : "");
      const head = document.createElement("span");
      head.className = "title";
      head.textContent = `${view.width} × ${view.height}${scale}`;
      container.appendChild(head);
    }
    for (const item of items) {
      const span = document.createElement("span");
      span.className = "item";
      if (item.kind === "swatch" || item.kind === "outline") {
        const sw = document.createElement("span");
        sw.className = "sw";
        if (item.kind === "swatch") sw.style.background = item.colour;
        else sw.style.border = `2px dashed ${item.colour}`;
        span.appendChild(sw);
      }
      span.appendChild(document.createTextNode(item.text));
      container.appendChild(span);
    }
  }

  window.WarhostMap = { render, renderLegend, sideColours };
})();
