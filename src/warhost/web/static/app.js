/* warhost in the browser: set up a battle, watch it, command a side, roll real dice,
 * save and load replays, run a Monte Carlo.  Plain JavaScript, talking to the JSON HTTP API
 * described in docs/web.md; the map is drawn by map.js (window.WarhostMap).
 */
(function () {
  "use strict";
  const $ = (sel) => document.querySelector(sel);
  const S = {
    examples: [], exampleId: null, exampleText: null, checked: null, checkTimer: null,
    battleId: null, seats: {}, urlSeat: null, view: null,
    lines: [], lineNodes: [], eventsTotal: 0, lastRound: null,
    frames: [], frameCache: {}, current: -1, live: true, playing: null,
    picked: null, questionKey: null, sending: false, polling: null, busy: false,
    sim: null,
  };

  /* ------------------------------------------------------------------ helpers */
  async function api(method, path, body) {
    const init = { method, headers: {} };
    if (body !== undefined) {
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const resp = await fetch(path, init);
    let data = null;
    const type = resp.headers.get("content-type") || "";
    if (type.includes("json")) data = await resp.json();
    else data = await resp.text();
    if (!resp.ok) {
      const err = new Error(errorText(data) || `HTTP ${resp.status}`);
      err.status = resp.status;
      err.data = data;
      throw err;
    }
    return data;
  }
  function errorText(data) {
    if (!data || typeof data !== "object") return data ? String(data) : "";
    if (data.error && data.error.message) return data.error.message;
    if (data.problems && data.problems.length) return data.problems.map((p) => p.message).join("\n");
    if (typeof data.detail === "string") return data.detail;
    if (Array.isArray(data.detail)) return data.detail.map((d) => d.msg).join("\n");
    return "";
  }
  function node(tag, attrs, text) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === "class") n.className = v;
      else n.setAttribute(k, v === true ? "" : String(v));
    }
    if (text !== undefined && text !== null) n.textContent = text;
    return n;
  }
  function setStatus(text) { $("#status").textContent = text || ""; }
  function seatsKey(id) { return "warhost-seats-" + id; }

  /* ------------------------------------------------------------------ setup: examples and editor */
  async function loadExamples() {
    const select = $("#example");
    try {
      S.examples = await api("GET", "/api/examples");
    } catch (e) {
      select.innerHTML = "";
      select.appendChild(node("option", { value: "" }, "(examples unavailable)"));
      return;
    }
    select.innerHTML = "";
    select.appendChild(node("option", { value: "" }, "— pick an example —"));
    const groups = {};
    for (const ex of S.examples) {
      if (!groups[ex.ruleset]) {
        groups[ex.ruleset] = node("optgroup", { label: ex.ruleset });
        select.appendChild(groups[ex.ruleset]);
      }
      groups[ex.ruleset].appendChild(node("option", { value: ex.id },
        ex.id.endsWith("/" + ex.name) ? ex.id : `${ex.id} — ${ex.name}`));
    }
  }
  async function pickExample(id) {
    if (!id) return;
    const [ruleset, name] = id.split("/");
    try {
      const data = await api("GET", `/api/examples/${encodeURIComponent(ruleset)}/${encodeURIComponent(name)}`);
      S.exampleId = id;
      S.exampleText = data.text;
      setEditor(data.text);
      await check();
    } catch (e) {
      showProblems([{ message: e.message, line: null, field: null }]);
    }
  }
  function setEditor(text) {
    $("#editor").value = text;
    $("#editor").scrollTop = 0;
    updateGutter([]);
  }
  function updateGutter(badLines) {
    const count = $("#editor").value.split("\n").length;
    const bad = new Set(badLines || []);
    const gutter = $("#gutter");
    gutter.textContent = "";
    for (let i = 1; i <= count; i++) {
      const span = node("span", bad.has(i) ? { class: "bad", "data-testid": "bad-line", "data-line": i } : {}, String(i));
      gutter.appendChild(span);
      gutter.appendChild(document.createTextNode("\n"));
    }
    gutter.scrollTop = $("#editor").scrollTop;
  }
  function gotoLine(line) {
    const ed = $("#editor");
    const lines = ed.value.split("\n");
    if (!line || line < 1 || line > lines.length) return;
    let start = 0;
    for (let i = 0; i < line - 1; i++) start += lines[i].length + 1;
    ed.focus();
    ed.setSelectionRange(start, start + lines[line - 1].length);
    ed.scrollTop = Math.max(0, (line - 4) * 18);
    $("#gutter").scrollTop = ed.scrollTop;
  }
  function showProblems(problems) {
    const list = $("#problems");
    list.textContent = "";
    const bad = [];
    for (const p of problems) {
      const li = node("li", { "data-testid": "problem", "data-line": p.line ?? "" });
      const where = [p.line ? `line ${p.line}` : "", p.field || ""].filter(Boolean).join(", ");
      if (where) li.appendChild(node("span", { class: "where" }, where + ": "));
      li.appendChild(document.createTextNode(p.message));
      if (p.line) {
        bad.push(p.line);
        li.addEventListener("click", () => gotoLine(p.line));
      }
      list.appendChild(li);
    }
    updateGutter(bad);
    return bad;
  }
  async function check() {
    const text = $("#editor").value;
    const result = $("#check-result");
    S.checked = null;
    $("#start").disabled = true;
    if (!text.trim()) { result.textContent = ""; result.className = ""; showProblems([]); return; }
    try {
      // a shipped example is known good (and may name files beside it, which uploads may not)
      const known = usingExample() ? S.examples.find((ex) => ex.id === S.exampleId) : null;
      const data = known ? Object.assign({ ok: true }, known)
        : await api("POST", "/api/scenarios/check", { text });
      S.checked = data;
      result.textContent = `✓ ${data.name} (${data.ruleset}): ${data.sides.join(" vs ")}`;
      result.className = "ok";
      showProblems([]);
      buildCommanders(data.sides, data.commanders || {});
      $("#start").disabled = false;
    } catch (e) {
      result.className = "error";
      result.textContent = "✗ this scenario has problems";
      const problems = (e.data && e.data.problems) ||
        [(e.data && e.data.error) || { message: e.message, line: null, field: null }];
      const bad = showProblems(problems);
      if (bad.length) gotoLine(bad[0]);
      $("#commanders").textContent = "";
    }
  }
  function usingExample() {
    return S.exampleId && $("#editor").value === S.exampleText;
  }
  function buildCommanders(sides, defaults) {
    const box = $("#commanders");
    const before = {};
    for (const sel of box.querySelectorAll("select")) before[sel.dataset.side] = sel.value;
    box.textContent = "";
    sides.forEach((side, i) => {
      const row = node("div", { class: "row" });
      const label = node("label", {}, side);
      const sel = node("select", { "data-testid": "commander", "data-side": side, "aria-label": `commander of ${side}` });
      for (const kind of ["person", "ai", "random"]) sel.appendChild(node("option", { value: kind }, kind));
      const given = ["ai", "random"].includes(defaults[side]) ? defaults[side] : "ai";
      sel.value = before[side] || (i === 0 ? "person" : given);
      row.appendChild(label);
      row.appendChild(sel);
      box.appendChild(row);
    });
  }
  function commanders() {
    const out = {};
    for (const sel of $("#commanders").querySelectorAll("select")) out[sel.dataset.side] = sel.value;
    return out;
  }
  function source() {
    return usingExample() ? { example: S.exampleId, text: null } : { example: null, text: $("#editor").value };
  }
  function seedValue() {
    const v = $("#seed").value.trim();
    return v === "" ? null : Number(v);
  }
  async function startBattle() {
    $("#start").disabled = true;
    setStatus("starting…");
    try {
      const body = Object.assign(source(), { seed: seedValue(), commanders: commanders(),
        manual_dice: $("#manual-dice").checked });
      const data = await api("POST", "/api/battles", body);
      S.seats = data.seats || {};
      sessionStorage.setItem(seatsKey(data.id), JSON.stringify(S.seats));
      const sides = Object.keys(S.seats);
      const url = sides.length === 1 ? data.links[sides[0]] : data.watch;
      history.pushState({}, "", url);
      S.links = data.links;
      enterBattle(data.id, sides.length === 1 ? S.seats[sides[0]] : null, data.battle);
    } catch (e) {
      setStatus("");
      showProblems((e.data && e.data.problems) || [(e.data && e.data.error) || { message: e.message }]);
    } finally {
      $("#start").disabled = !S.checked;
    }
  }
  async function loadReplay(file) {
    const text = await file.text();
    try {
      const data = await api("POST", "/api/replays", { text });
      history.pushState({}, "", data.watch);
      S.seats = {};
      enterBattle(data.id, null, data.battle);
    } catch (e) {
      $("#check-result").className = "error";
      $("#check-result").textContent = "✗ this replay cannot be loaded";
      showProblems([(e.data && e.data.error) || { message: e.message }]);
    }
  }

  /* ------------------------------------------------------------------ Monte Carlo */
  async function runSimulation() {
    const err = $("#sim-error");
    err.textContent = "";
    $("#sim-result").textContent = "";
    const cmd = commanders();
    for (const k of Object.keys(cmd)) if (cmd[k] === "person") cmd[k] = "ai";
    const body = Object.assign({}, source(), { n: Number($("#sim-n").value), seed: seedValue(), commanders: cmd });
    if (body.example) delete body.text; else delete body.example;
    $("#sim-run").disabled = true;
    try {
      const data = await api("POST", "/api/simulations", body);
      S.sim = data.id;
      pollSimulation(data.id);
    } catch (e) {
      err.textContent = e.message;
      $("#sim-run").disabled = false;
    }
  }
  async function pollSimulation(id) {
    if (S.sim !== id) return;
    let data;
    try {
      data = await api("GET", `/api/simulations/${id}`);
    } catch (e) {
      $("#sim-error").textContent = e.message;
      $("#sim-run").disabled = false;
      return;
    }
    const bar = $("#sim-progress");
    bar.max = data.total || 1;
    bar.value = data.done || 0;
    $("#sim-count").textContent = `${data.done} / ${data.total}`;
    if (data.error) {
      $("#sim-error").textContent = data.error;
      $("#sim-run").disabled = false;
      return;
    }
    if (!data.finished) { setTimeout(() => pollSimulation(id), 300); return; }
    $("#sim-run").disabled = false;
    const out = $("#sim-result");
    out.textContent = "";
    const tables = [[data.table || [], "sim-table"], [data.units || [], "sim-units"]];
    for (const [rows, testid] of tables) {
      if (!rows.length) continue;
      const table = node("table", { "data-testid": testid });
      rows.forEach((row, i) => {
        const tr = node("tr");
        for (const cell of row) tr.appendChild(node(i === 0 ? "th" : "td", {}, cell === null ? "" : String(cell)));
        table.appendChild(tr);
      });
      out.appendChild(table);
    }
    if (data.plot) {
      const link = node("a", { href: data.plot, target: "_blank", title: "open the plot full size" });
      link.appendChild(node("img", { src: data.plot, alt: "Monte Carlo plot", "data-testid": "sim-plot" }));
      out.appendChild(link);
    }
  }

  /* ------------------------------------------------------------------ battle */
  function enterBattle(id, seat, view) {
    S.battleId = id;
    S.urlSeat = seat;
    if (!Object.keys(S.seats).length) {
      try { S.seats = JSON.parse(sessionStorage.getItem(seatsKey(id)) || "{}"); } catch (e) { S.seats = {}; }
    }
    S.lines = []; S.lineNodes = []; S.eventsTotal = 0; S.lastRound = null;
    S.frames = []; S.frameCache = {}; S.current = -1; S.live = true; S.picked = null;
    S.questionKey = null; S.view = null;
    $("#log").textContent = "";
    $("#question").textContent = "";
    $("#setup").hidden = true;
    $("#battle").hidden = false;
    $("#save-replay").href = `/api/battles/${id}/replay`;
    $("#save-replay").setAttribute("download", `warhost-${id}.json`);
    refresh(true);
    if (S.polling) clearTimeout(S.polling);
    poll();
  }
  /* Poll the battle about once a second, twice as often while another person is to answer
   * (so their move shows here at once); stop once it is over and everything is shown. */
  function poll() {
    const v = S.view;
    const othersTurn = v && v.question && !isMine(v.question) && (v.persons || []).length > 0;
    S.polling = setTimeout(async () => {
      await refresh(false);
      if (!(S.view && S.view.over && S.frames.length === S.view.frames)) poll();
    }, othersTurn ? 500 : 1000);
  }
  function seatFor(side) {
    if (side && S.seats[side]) return S.seats[side];
    return S.urlSeat || Object.values(S.seats)[0] || null;
  }
  function mySeats() {
    const all = new Set(Object.values(S.seats));
    if (S.urlSeat) all.add(S.urlSeat);
    return all;
  }
  async function fetchView() {
    const q = S.view && S.view.question;
    let seat = seatFor(q && q.what === "order" ? q.side : null);
    let view = await api("GET", `/api/battles/${S.battleId}` + (seat ? `?seat=${encodeURIComponent(seat)}` : ""));
    const nq = view.question;
    if (nq && nq.what === "order" && S.seats[nq.side] && S.seats[nq.side] !== seat) {
      seat = S.seats[nq.side];
      view = await api("GET", `/api/battles/${S.battleId}?seat=${encodeURIComponent(seat)}`);
    }
    S.viewSeat = seat;
    return view;
  }
  async function refresh(first) {
    if (!S.battleId || S.busy) return;
    S.busy = true;
    try {
      const view = await fetchView();
      await applyView(view, first);
    } catch (e) {
      if (e.status === 404) {
        setStatus("this battle is gone (closed or unknown)");
        clearTimeout(S.polling);
      } else {
        setStatus("connection problem: " + e.message);
      }
    } finally {
      S.busy = false;
    }
  }
  async function applyView(view, first) {
    const firstView = !S.view;
    S.view = view;
    const you = view.you ? `you command ${view.you}` : (Object.keys(S.seats).length > 1 ? `hot seat: ${Object.keys(S.seats).join(", ")}` : "watching");
    $("#title").textContent = `${view.scenario} — ${view.ruleset} — seed ${view.seed}`;
    document.title = `warhost — ${view.scenario}`;
    let status = `round ${view.round} — ${you}`;
    if (view.over) status = `battle over — ${you}`;
    else if (view.question) status += ` — waiting for ${view.question.what === "dice" ? "dice" : view.question.side}`;
    setStatus(status);
    const win = $("#winner");
    if (view.over) {
      win.hidden = false;
      win.textContent = view.error ? `Battle stopped: ${view.error}` :
        (view.winner ? `Winner: ${view.winner}` : "Battle over: no winner (a draw)");
    } else {
      win.hidden = true;
    }
    renderLinks(view);
    renderQuestion();  // first: a person's turn shows at once, the log and map follow
    if (view.events > S.eventsTotal) await fetchEvents();
    if (view.frames !== S.frames.length) await fetchFrames(firstView && view.over && !(view.persons || []).length);
    renderQuestion();
  }
  async function fetchEvents() {
    const data = await api("GET", `/api/battles/${S.battleId}/events?since=${S.eventsTotal}`);
    const log = $("#log");
    const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 30;
    const lastSeq = S.lines.length ? S.lines[S.lines.length - 1].seq : -1;
    for (const line of data.lines || []) {
      if (line.seq <= lastSeq) continue;
      if (line.round !== S.lastRound && line.round !== null && line.round !== undefined) {
        S.lastRound = line.round;
        const head = node("div", { class: "line round", "data-seq": line.seq, "data-round": line.round }, `Round ${line.round}`);
        log.appendChild(head);
        S.lineNodes.push(head);
      }
      const div = node("div", { class: "line", "data-testid": "log-line", "data-seq": line.seq, "data-round": line.round ?? "" }, line.text);
      log.appendChild(div);
      S.lines.push(line);
      S.lineNodes.push(div);
    }
    S.eventsTotal = data.total !== undefined ? data.total : S.eventsTotal + (data.events || []).length;
    markFuture();
    if (atBottom || S.live) log.scrollTop = log.scrollHeight;
  }
  function markFuture() {
    const frame = S.frames[S.current];
    const limit = S.live || !frame ? Infinity : frame.events;
    for (const n of S.lineNodes) n.classList.toggle("future", Number(n.dataset.seq) >= limit);
  }
  async function fetchFrames(replayFromStart) {
    S.frames = await api("GET", `/api/battles/${S.battleId}/frames`);
    const rounds = S.frames.map((f) => f.round);
    const slider = $("#round-slider");
    slider.min = Math.min(...rounds, 0);
    slider.max = Math.max(...rounds, 0);
    if (replayFromStart) {
      S.live = false;
      await showFrame(0);
      play(true);
    } else if (S.live) {
      await showFrame(S.frames.length - 1);
    } else {
      updateControls();
    }
  }
  async function frameMap(k) {
    if (!S.frameCache[k]) {
      const data = await api("GET", `/api/battles/${S.battleId}/frames/${k}`);
      S.frameCache[k] = data.map;
    }
    return S.frameCache[k];
  }
  async function showFrame(k) {
    if (!S.frames.length) return;
    k = Math.max(0, Math.min(S.frames.length - 1, k));
    S.current = k;
    const map = await frameMap(k);
    if (S.current !== k) return;
    drawMap(map);
    markFuture();
    updateControls();
    if (S.live || k === S.frames.length - 1) $("#log").scrollTop = $("#log").scrollHeight;
    else {
      const visible = S.lineNodes.filter((n) => !n.classList.contains("future"));
      if (visible.length) visible[visible.length - 1].scrollIntoView({ block: "end" });
    }
  }
  function drawMap(map) {
    S.shownMap = map;
    const items = window.WarhostMap.render($("#map"), map, {
      picked: S.picked, onUnit: pickUnit, onSquare: pickSquare, onPoint: pickPoint,
    });
    window.WarhostMap.renderLegend($("#legend"), items, map);
  }
  function updateControls() {
    const f = S.frames[S.current];
    $("#frame-label").textContent = f ? `frame ${S.current + 1}/${S.frames.length} — round ${f.round}${S.live ? " (live)" : ""}` : "";
    if (f) $("#round-slider").value = f.round;
    $("#live").classList.toggle("on", S.live);
    $("#play").textContent = S.playing ? "❚❚ pause" : "▶ play";
    $("#back").disabled = S.current <= 0;
    $("#forward").disabled = S.current >= S.frames.length - 1;
  }
  function play(on) {
    if (S.playing) { clearInterval(S.playing); S.playing = null; }
    if (on) {
      S.live = false;
      if (S.current >= S.frames.length - 1) S.current = -1;
      S.playing = setInterval(async () => {
        if (S.current >= S.frames.length - 1) {
          play(false);
          if (S.view && !S.view.over) { S.live = true; }
          updateControls();
          return;
        }
        await showFrame(S.current + 1);
      }, 600);
      showFrame(S.current + 1);
    }
    updateControls();
  }
  function step(delta) {
    play(false);
    S.live = false;
    showFrame(S.current + delta);
  }
  function jumpToRound(r) {
    play(false);
    S.live = false;
    let k = S.frames.findIndex((f) => f.round >= r);
    if (k < 0) k = S.frames.length - 1;
    showFrame(k);
  }
  function goLive() {
    play(false);
    S.live = true;
    showFrame(S.frames.length - 1);
  }

  /* ------------------------------------------------------------------ links */
  function renderLinks(view) {
    const box = $("#links");
    const key = JSON.stringify([Object.keys(S.seats), view.persons, S.battleId]);
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.textContent = "";
    const origin = location.origin;
    const links = S.links || {};
    for (const side of Object.keys(S.seats)) {
      const href = links[side] || `/battle/${S.battleId}?seat=${encodeURIComponent(S.seats[side])}`;
      const div = node("div", { class: "link" });
      div.appendChild(node("div", {}, `Join link for ${side} (give it to that player):`));
      div.appendChild(node("input", { readonly: true, value: origin + href, "data-testid": "join-link", "data-side": side }));
      box.appendChild(div);
    }
    const div = node("div", { class: "link" });
    div.appendChild(node("div", {}, "Watch link (anyone may watch):"));
    div.appendChild(node("input", { readonly: true, value: `${origin}/battle/${S.battleId}`, "data-testid": "watch-link" }));
    box.appendChild(div);
    for (const input of box.querySelectorAll("input")) input.addEventListener("focus", () => input.select());
  }

  /* ------------------------------------------------------------------ the question */
  function isMine(q) {
    if (!q) return false;
    if (q.what === "dice") return mySeats().size > 0;
    return Boolean(S.seats[q.side]) || (S.view && S.view.you === q.side && Boolean(S.urlSeat));
  }
  function renderQuestion() {
    const q = S.view && S.view.question;
    const yours = Boolean(q) && (S.view.yours || isMine(q)) && (q.what === "dice" || Array.isArray(q.options));
    const key = q ? `${q.number}|${yours}|${S.viewSeat}` : "none";
    if (key === S.questionKey) return;
    S.questionKey = key;
    const box = $("#question");
    box.textContent = "";
    box.className = "";
    if (!q) return;
    box.dataset.number = q.number;
    box.dataset.what = q.what;
    box.dataset.side = q.side || "";
    if (!yours) {
      box.className = "waiting";
      box.appendChild(node("div", { class: "prompt", "data-testid": "waiting" },
        q.what === "dice" ? `Waiting for the dice: ${q.prompt}` : `Waiting for ${q.side}: ${q.prompt}`));
      return;
    }
    if (q.what === "dice") {
      box.appendChild(node("div", { class: "prompt", "data-testid": "prompt" }, q.prompt));
      box.appendChild(node("div", { class: "hint" }, `Roll ${q.count} × d${q.sides}${q.why ? " — " + q.why : ""}; type the faces, separated by spaces.`));
      const row = node("div", { class: "row" });
      const input = node("input", { type: "text", "data-testid": "dice-input", "aria-label": "dice faces", autocomplete: "off" });
      const button = node("button", { class: "primary", "data-testid": "dice-submit" }, "Roll");
      row.appendChild(input);
      row.appendChild(button);
      box.appendChild(row);
      box.appendChild(node("div", { class: "error", "data-testid": "question-error" }));
      const go = () => sendDice(input.value);
      button.addEventListener("click", go);
      input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
      input.focus();
      return;
    }
    box.appendChild(node("div", { class: "prompt", "data-testid": "prompt" },
      `${q.side}: ${q.prompt}`));
    const row = node("div", { class: "row" });
    const filter = node("input", { type: "text", "data-testid": "filter", placeholder: "filter the orders…", "aria-label": "filter the orders" });
    row.appendChild(filter);
    const pickNote = node("span", { class: "hint", "data-testid": "pick-note" });
    row.appendChild(pickNote);
    box.appendChild(row);
    box.appendChild(node("div", { class: "proposal", "data-testid": "proposal", hidden: true }));
    box.appendChild(node("div", { class: "options", "data-testid": "options" }));
    if (q.open) {
      const free = node("div", { class: "row" });
      const input = node("input", { type: "text", "data-testid": "order-input", placeholder: "or type an order", "aria-label": "order" });
      const send = node("button", { "data-testid": "order-submit" }, "Send");
      free.appendChild(input);
      free.appendChild(send);
      box.appendChild(free);
      const go = () => { if (input.value.trim()) sendOrder(input.value.trim()); };
      send.addEventListener("click", go);
      input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") go(); });
    }
    box.appendChild(node("div", { class: "hint" }, "Click a unit or a square on the map to narrow the orders to it."));
    box.appendChild(node("div", { class: "error", "data-testid": "question-error" }));
    filter.addEventListener("input", renderOptions);
    filter.addEventListener("keydown", (ev) => {  // Enter gives the one order left
      const only = box.querySelector("[data-testid=propose]");
      if (ev.key === "Enter" && only) only.click();
    });
    renderOptions();
  }
  function tokens(text) { return String(text).replace(/[(),\[\]]/g, " ").split(/\s+/).filter(Boolean); }
  function matchesPick(option, pick) {
    const t = tokens(option);
    if (pick.unit) return t.includes(pick.unit);
    if (pick.square) {
      const [x, y] = pick.square.map(String);
      for (let i = 0; i + 1 < t.length; i++) if (t[i] === x && t[i + 1] === y) return true;
      return false;
    }
    if (pick.point) {
      // options naming a point within 1.5 inches of the click
      const nums = t.map(Number);
      for (let i = 0; i + 1 < nums.length; i++) {
        if (!Number.isNaN(nums[i]) && !Number.isNaN(nums[i + 1]) &&
            Math.hypot(nums[i] - pick.point[0], nums[i + 1] - pick.point[1]) <= 1.5) return true;
      }
      return false;
    }
    return true;
  }
  function renderOptions() {
    const q = S.view && S.view.question;
    const box = $("#question");
    const list = box.querySelector(".options");
    if (!q || !list || !Array.isArray(q.options)) return;
    const text = (box.querySelector("[data-testid=filter]").value || "").toLowerCase();
    let shown = q.options.map((o, i) => [o, i]).filter(([o]) => o.toLowerCase().includes(text));
    const note = box.querySelector("[data-testid=pick-note]");
    note.textContent = "";
    if (S.picked) {
      const picked = shown.filter(([o]) => matchesPick(o, S.picked));
      const what = S.picked.unit ? S.picked.unit : S.picked.square ? S.picked.square.join(" ") : S.picked.point.join(", ");
      if (picked.length) {
        shown = picked;
        note.textContent = `orders naming ${what} `;
      } else {
        note.textContent = `no order names ${what} `;
      }
      const clear = node("button", { "data-testid": "clear-pick" }, "×");
      clear.addEventListener("click", () => { S.picked = null; if (S.shownMap) drawMap(S.shownMap); renderOptions(); });
      note.appendChild(clear);
    }
    list.textContent = "";
    for (const [o, i] of shown) {
      const b = node("button", { "data-testid": "option", "data-index": i, class: o === q.default ? "default" : "" }, o);
      if (o === q.default) b.title = "the default";
      b.addEventListener("click", () => sendOrder(i));
      list.appendChild(b);
    }
    const proposal = box.querySelector("[data-testid=proposal]");
    proposal.textContent = "";
    const narrowed = shown.length === 1 && (S.picked || text);
    proposal.hidden = !narrowed;
    if (narrowed) {
      const [o, i] = shown[0];
      proposal.appendChild(document.createTextNode("One order fits: "));
      const b = node("button", { class: "primary", "data-testid": "propose", "data-index": i }, o);
      b.addEventListener("click", () => sendOrder(i));
      proposal.appendChild(b);
    }
    // an open question and a square no listed order names: offer the order for that square
    // anyway, in the default's words ("move 4 7"); the engine refuses it, saying why, if illegal
    const shape = q.open && S.picked && S.picked.square && !shown.some(([o]) => matchesPick(o, S.picked))
      ? String(q.default || q.options[0] || "").match(/^(.*\S)\s+-?\d+\s+-?\d+$/) : null;
    if (shape) {
      const order = `${shape[1]} ${S.picked.square[0]} ${S.picked.square[1]}`;
      proposal.hidden = false;
      proposal.appendChild(document.createTextNode("Not among the listed orders: "));
      const b = node("button", { "data-testid": "propose-free" }, order);
      b.addEventListener("click", () => sendOrder(order));
      proposal.appendChild(b);
    }
    if (S.picked && S.picked.point && q.open) {
      const input = box.querySelector("[data-testid=order-input]");
      if (input && !input.value) input.placeholder = `… ${S.picked.point.join(" ")}`;
    }
  }
  function pickUnit(id, square) {
    const q = S.view && S.view.question;
    // a unit's own counter square is a square pick when the question is about squares
    if (square && q && Array.isArray(q.options) && !q.options.some((o) => tokens(o).includes(id)) &&
        q.options.some((o) => matchesPick(o, { square }))) {
      return pickSquare(square[0], square[1]);
    }
    S.picked = S.picked && S.picked.unit === id ? null : { unit: id };
    afterPick();
  }
  function pickSquare(x, y) {
    S.picked = S.picked && S.picked.square && S.picked.square[0] === x && S.picked.square[1] === y ? null : { square: [x, y] };
    afterPick();
  }
  function pickPoint(x, y) {
    S.picked = { point: [x, y] };
    afterPick();
  }
  function afterPick() {
    if (!S.live && isMine(S.view && S.view.question)) {
      // an order is given on the battlefield as it stands now, not as it stood then
      goLive();
    } else if (S.shownMap) {
      drawMap(S.shownMap);
    }
    renderOptions();
  }
  function questionError(text) {
    const e = $("#question [data-testid=question-error]");
    if (e) e.textContent = text || "";
  }
  async function sendOrder(order) {
    const q = S.view && S.view.question;
    if (!q) return;
    await act("orders", { seat: seatFor(q.side), order }, () => {});
  }
  async function sendDice(faces) {
    const q = S.view && S.view.question;
    if (!q) return;
    const seat = (q.side && S.seats[q.side]) || S.urlSeat || S.viewSeat || Object.values(S.seats)[0];
    await act("dice", { seat, faces }, () => {
      const input = $("#question [data-testid=dice-input]");
      if (input) { input.select(); input.focus(); }
    });
  }
  /* Send an order or dice; while it runs (the other sides play meanwhile) nothing else
   * redraws the question, so a click always belongs to the question it was made on. */
  async function act(what, body, onError) {
    if (S.sending) return;
    S.sending = true;
    for (const b of document.querySelectorAll("#question button")) b.disabled = true;
    while (S.busy) await new Promise((r) => setTimeout(r, 20));
    S.busy = true;
    try {
      let data;
      try {
        data = await api("POST", `/api/battles/${S.battleId}/${what}`, body);
      } catch (e) {
        questionError(e.message);
        for (const b of document.querySelectorAll("#question button")) b.disabled = false;
        onError();
        if (e.status === 409) S.questionKey = null;
        else return;
        data = null;
      }
      S.picked = null;
      S.live = true;
      play(false);
      // the answer's view was made with the answering seat; a hot seat fetches its own
      const view = data && data.battle && Object.keys(S.seats).length <= 1 ? data.battle : await fetchView();
      S.sending = false;
      await applyView(view, false);
    } catch (e) {
      setStatus("connection problem: " + e.message);
    } finally {
      S.sending = false;
      S.busy = false;
    }
  }

  /* ------------------------------------------------------------------ wiring */
  function wire() {
    $("#example").addEventListener("change", (ev) => pickExample(ev.target.value));
    $("#scenario-file").addEventListener("change", async (ev) => {
      const file = ev.target.files[0];
      if (!file) return;
      S.exampleId = null;
      S.exampleText = null;
      $("#example").value = "";
      setEditor(await file.text());
      await check();
    });
    $("#editor").addEventListener("input", () => {
      updateGutter([]);
      clearTimeout(S.checkTimer);
      $("#start").disabled = true;
      S.checkTimer = setTimeout(check, 700);
    });
    $("#editor").addEventListener("scroll", () => { $("#gutter").scrollTop = $("#editor").scrollTop; });
    $("#check").addEventListener("click", check);
    $("#start").addEventListener("click", startBattle);
    $("#replay-file").addEventListener("change", (ev) => { if (ev.target.files[0]) loadReplay(ev.target.files[0]); });
    $("#sim-run").addEventListener("click", runSimulation);
    $("#play").addEventListener("click", () => play(!S.playing));
    $("#back").addEventListener("click", () => step(-1));
    $("#forward").addEventListener("click", () => step(1));
    $("#live").addEventListener("click", goLive);
    $("#round-slider").addEventListener("input", (ev) => jumpToRound(Number(ev.target.value)));
    $("#new-battle").addEventListener("click", () => { location.href = "/"; });
    window.addEventListener("popstate", () => location.reload());
  }
  function boot() {
    wire();
    updateGutter([]);
    const m = location.pathname.match(/^\/battle\/([A-Za-z0-9_-]+)/);
    if (m) {
      const seat = new URLSearchParams(location.search).get("seat");
      enterBattle(m[1], seat, null);
    } else {
      loadExamples();
    }
  }
  window.warhost = S;
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
