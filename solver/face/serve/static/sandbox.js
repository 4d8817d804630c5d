// The dipsat sandbox's page: a position, its orders and dipsat's decision, kept in the address.
// Every change re-adjudicates (POST /api/adjudicate); the map is dipsat's own picture, clicked to
// place units and to draw orders.  No framework and no build step: this file is served as is.
"use strict";

const $ = (id) => document.getElementById(id);
let VARIANTS = {};      // name -> {powers, unit_kinds, presets, places, options, board}
let state = null;       // the page's position: a request file as JSON (+ meta)
let last = null;        // the last answer of /api/adjudicate
let gen = 0;            // the state's generation: answers to an older one are dropped
let selection = [];     // orders drawn by clicking: the units (labels) clicked so far
let timer = null;

// -- the server -------------------------------------------------------------------------------
async function api(path, body) {
  const init = body === undefined ? {} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const r = await fetch(path, init);
  let data;
  try { data = await r.json(); } catch (e) { throw new Error(`${path}: ${r.status} ${r.statusText}`); }
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

// -- the address holds the state ----------------------------------------------------------------
function encodeState(s) {
  let bin = "";
  for (const b of new TextEncoder().encode(JSON.stringify(s))) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
function decodeState(text) {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0))));
}
function setState(s, push = false) {
  state = s;
  gen++;
  const h = "#s=" + encodeState(s);
  if (location.hash !== h) history[push ? "pushState" : "replaceState"](null, "", h);
  selection = [];
  renderState();
  schedule();
}
const changed = () => setState(state);

// -- deciding -----------------------------------------------------------------------------------
function schedule() {
  document.body.dataset.busy = "yes";
  clearTimeout(timer);
  timer = setTimeout(decide, 150);
}
async function decide() {
  const g = gen;
  try {
    const res = await api("/api/adjudicate", {state});
    if (g !== gen) return;
    last = res;
    renderResult();
    if (res.result) {
      await Promise.all([refreshLegal(g), refreshReadings(g)]);
    } else {
      $("readings").textContent = "";
    }
  } catch (e) {
    if (g === gen) showError(e.message);
  } finally {
    if (g === gen) document.body.dataset.busy = "no";
  }
}
async function refreshLegal(g) {
  try {
    const legal = await api("/api/legal", {state});
    if (g !== gen) return;
    const box = $("lists");
    box.textContent = "";
    for (const [power, units] of Object.entries(legal)) {
      const dl = document.createElement("datalist");
      dl.id = "legal-" + power;
      for (const orders of Object.values(units)) {
        for (const o of orders) { const opt = document.createElement("option"); opt.value = o; dl.append(opt); }
      }
      box.append(dl);
    }
  } catch (e) { /* completion is a help: the orders are adjudicated without it */ }
}
async function refreshReadings(g) {
  const box = $("readings");
  try {
    const rd = await api("/api/readings", {state});
    if (g !== gen) return;
    renderReadings(rd);
  } catch (e) {
    if (g === gen) box.textContent = "readings: " + e.message;
  }
}

// -- drawing the page ---------------------------------------------------------------------------
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(e.dataset, v); else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}
function variant() { return VARIANTS[(state && state.variant) || "standard"] || {powers: [], unit_kinds: [], presets: [], places: {}}; }
function orderField() { return state.phase === "retreat" ? "retreat_orders" : "orders"; }
function showError(msg) { const e = $("error"); e.hidden = !msg; e.textContent = msg || ""; }

function renderState() {
  const v = variant();
  $("variant").value = state.variant || "standard";
  const rules = $("rules");
  rules.textContent = "";
  for (const p of v.presets) rules.append(el("option", {value: p}, p));
  rules.value = state.rules || v.default_rules || "datc";
  rules.disabled = !v.presets.length;
  const ov = $("overrides");
  ov.textContent = "";
  for (const [k, val] of Object.entries(state.options || {})) {
    ov.append(el("span", {class: "chip", "data-option": k}, `${k} = ${val}`,
      el("button", {title: "back to the rulebook's value", onclick: () => { delete state.options[k]; changed(); }}, "×")));
  }
  renderOptions();
  for (const id of ["place-power", "order-power"]) {
    const sel = $(id), keep = sel.value;
    sel.textContent = "";
    const powers = v.powers.length ? v.powers : [...new Set([...Object.keys(state.units || {}), ...((v.clicks || {}).players || [])])];
    for (const p of powers) sel.append(el("option", {value: p}, p));
    if (powers.includes(keep)) sel.value = keep;
  }
  const kind = $("place-kind"), keepKind = kind.value;
  kind.textContent = "";
  for (const k of v.unit_kinds) kind.append(el("option", {value: k}, k));
  if (v.unit_kinds.includes(keepKind)) kind.value = keepKind;
  $("order-text").setAttribute("list", "legal-" + $("order-power").value);
  const when = [state.season, state.year].filter((x) => x !== undefined && x !== null).join(" ");
  const phaseKind = state.phase || (v.board ? "movement" : "");
  $("phase").textContent = `${state.variant || "standard"}${phaseKind ? " — " + phaseKind : ""}${when ? " — " + when : ""}` +
    (state.meta && state.meta.title ? ` — ${state.meta.title}` : "");
  const phases = (state.meta && state.meta.phases) || [];
  const gp = $("game-phase");
  gp.hidden = !phases.length;
  gp.textContent = "";
  for (const p of phases) gp.append(el("option", {value: p}, p));
  if (phases.length) gp.value = state.meta.phase;
  familyOrderKinds();
  renderUnits();
  renderOrders();
}

function renderOptions() {
  const v = variant(), box = $("options");
  box.textContent = "";
  const base = (v.preset_values || {})[state.rules || v.default_rules] || {};
  for (const o of v.options || []) {
    const sel = el("select", {"aria-label": o.name, "data-option": o.name});
    for (const val of o.values) sel.append(el("option", {value: val}, val));
    const over = (state.options || {})[o.name];
    sel.value = over !== undefined ? String(over) : String(base[o.name] ?? o.default);
    sel.addEventListener("change", () => {
      state.options = Object.assign({}, state.options);
      if (sel.value === String(base[o.name])) delete state.options[o.name]; else state.options[o.name] = sel.value;
      changed();
    });
    box.append(el("div", {class: "option", title: o.help}, el("code", {}, o.name), " ", sel));
  }
}

function renderUnits() {
  const box = $("units");
  box.textContent = "";
  const units = state.units || {};
  const powers = [...new Set([...variant().powers, ...Object.keys(units)])];
  for (const p of powers) {
    const line = el("div", {class: "units-line", "data-power": p}, el("span", {class: "power"}, p + ": "));
    (units[p] || []).forEach((spec, i) => line.append(el("span", {class: "chip"}, spec,
      el("button", {title: "remove", onclick: () => { units[p].splice(i, 1); tidy(units); changed(); }}, "×"))));
    const input = el("input", {size: 12, placeholder: "add a unit", "aria-label": `add a unit of ${p}`});
    input.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && input.value.trim()) { addUnit(p, input.value.trim()); }
    });
    line.append(input);
    box.append(line);
  }
}
function tidy(table) { for (const k of Object.keys(table)) if (!table[k].length) delete table[k]; }
function addUnit(power, spec) {
  state.units = state.units || {};
  (state.units[power] = state.units[power] || []).push(spec);
  changed();
}

function outcomesOf(res) {
  if (!res || !res.result) return {current: [], movement: []};
  const r = res.result;
  return {current: r.outcomes || [], movement: (r.movement && r.movement.outcomes) || []};
}
function status(o) { return o.kind === "rejected" ? "void" : o.succeeded ? "ok" : "fail"; }

function renderOrders() {
  const field = orderField();
  const table = state[field] || {};
  const {current, movement} = outcomesOf(last);
  const tbody = $("orders").querySelector("tbody");
  tbody.textContent = "";
  const used = new Set();
  const find = (p, text) => {
    const i = current.findIndex((o, j) => !used.has(j) && o.power.toLowerCase() === p.toLowerCase() && o.order === text);
    if (i < 0) return null;
    used.add(i);
    return current[i];
  };
  for (const [p, texts] of Object.entries(table)) {
    texts.forEach((text, i) => {
      const o = find(p, text);
      const input = el("input", {value: text, list: "legal-" + p, "aria-label": `order of ${p}`});
      input.addEventListener("change", () => {
        if (input.value.trim()) table[p][i] = input.value.trim(); else table[p].splice(i, 1);
        tidy(table); changed();
      });
      tbody.append(el("tr", {dataset: {power: p, order: text, result: o ? o.result : ""}},
        el("td", {class: "power"}, p), el("td", {}, input, el("div", {class: "reason"}, o ? o.reason || "" : "")),
        el("td", {class: "result " + (o ? status(o) : "")}, o ? o.result.replace(/_/g, " ") : ""),
        el("td", {}, el("button", {title: "what this outcome hinges on", class: "why", onclick: () => askWhy(p, text)}, "why"),
          el("button", {title: "remove", onclick: () => { table[p].splice(i, 1); tidy(table); changed(); }}, "×"))));
    });
  }
  current.forEach((o, j) => {  // outcomes of units without an order (they hold)
    if (used.has(j)) return;
    tbody.append(el("tr", {class: "implied", dataset: {power: o.power, order: o.order, result: o.result}},
      el("td", {class: "power"}, o.power), el("td", {}, o.order, el("div", {class: "reason"}, o.reason || "")),
      el("td", {class: "result " + status(o)}, o.result.replace(/_/g, " ")), el("td")));
  });
  const mv = $("movement-orders");
  mv.textContent = "";
  if (state.phase === "retreat") {
    mv.append(el("div", {}, "Movement before the retreats:"));
    for (const o of movement) mv.append(el("div", {class: status(o)}, `${o.power}: ${o.order} — ${o.result.replace(/_/g, " ")}`));
    mv.append(el("div", {}, "Retreat orders:"));
  }
}

function renderResult() {
  showError(last.error || "");
  if (last.svg) { $("map").innerHTML = last.svg; markSelection(); }
  renderOrders();
  $("text").textContent = last.text || "";
  if (last.result && !last.board && !(last.result.outcomes || []).length) $("text-panel").open = true;  // facts only
  const box = $("paradox");
  box.textContent = "";
  const r = last.result;
  if (last.resolutions) {
    const n = last.resolutions.count;
    box.append(el("div", {id: "resolution-count", "data-count": String(n)},
      `Consistent resolutions before any backup rule: ${n}${last.resolutions.capped ? "+" : ""}` +
      (n === 0 ? " — no resolution is consistent (a paradox)" : n === 1 ? " — the rules decide the turn" : " — several readings")));
    box.append(el("pre", {}, last.resolutions.text));
  }
  for (const b of (r && r.backups) || []) {
    box.append(el("div", {class: "backup", "data-kind": b.kind},
      `Backup rule — ${b.kind.replace(/_/g, " ")} (${b.resolutions} consistent resolutions): ${b.rule}`));
  }
  if (r && last.board && !((r.backups || []).length)) box.append(el("div", {class: "backup", "data-kind": "none"}, "No backup rule was needed."));
  const btn = $("continue");
  btn.hidden = !last.next;
  if (last.next) btn.textContent = `Continue to the ${last.next.phase}` + (last.next.season && last.next.year ? ` (${last.next.season} ${last.next.year})` : "");
}

function renderReadings(rd) {
  const box = $("readings");
  box.textContent = "";
  if (!rd.switches.length) box.append(el("div", {}, "No reading of the rules changes an order of this turn."));
  else box.append(el("div", {}, "Switch a reading (the orders it changes):"));
  for (const s of rd.switches) {
    const changes = s.changes.map((c) => `${c.order}: ${c.from} → ${c.to}`).join("; ");
    box.append(el("button", {class: "switch", dataset: {option: s.option, value: s.value},
      onclick: () => { state.options = Object.assign({}, state.options, {[s.option]: s.value}); changed(); }},
      `${s.option} = ${s.value} (now ${s.current}): ${changes}`));
  }
  const deps = rd.orders.filter((o) => o.depends_on.length);
  if (deps.length) box.append(el("div", {}, "Orders whose outcome depends on the rules:"));
  for (const o of deps) {
    box.append(el("div", {class: "cond"}, `${o.order}: ` + o.outcomes.map((x) => `${x.result} when ${x.when}`).join("; ")));
  }
  if (rd.never_matter.length) box.append(el("div", {class: "cond"}, `Options that never matter here: ${rd.never_matter.join(", ")}`));
}

async function askWhy(power, text) {
  $("why-panel").open = true;
  $("why").textContent = "…";
  try {
    const ans = await api("/api/why", {state, order: text});
    $("why").textContent = ans.text;
  } catch (e) { $("why").textContent = e.message; }
}

// -- clicking the map ---------------------------------------------------------------------------
function mode() { return document.querySelector('input[name="mode"]:checked').value; }
function parseLabel(label) {  // "England: F Lon" -> {power, kind, loc: "lon", count: 1}; "France: 2 A Bre": count 2
  const [power, rest] = label.split(/:\s*/, 2);
  const words = rest.trim().split(/\s+/);
  const count = words.length > 2 && /^\d+$/.test(words[0]) ? parseInt(words[0], 10) : 1;
  return {power, kind: words.length > 1 ? words[words.length - 2] : "", loc: words[words.length - 1].toLowerCase(), count};
}
function place(loc) { return variant().places[loc] || loc; }
function provinceOf(loc) { return loc.split("/")[0]; }
function unitWords(label) { const u = parseLabel(label); return `${u.count > 1 ? u.count + " " : ""}${u.kind} ${place(u.loc)}`; }
// -- stacks (a board without a limit of units per province): one token per power, kind and place
function stackAt(label) {  // the clicked unit's power's units in its province by kind, from the map's tokens
  const me = parseLabel(label), prov = provinceOf(me.loc), parts = [];  // (a split stack is drawn a token a part)
  document.querySelectorAll("#map .unit-token:not(.built)").forEach((t) => {
    const u = parseLabel(t.dataset.unit || ":"), same = parts.find((p) => p.kind === u.kind);
    if (u.power !== me.power || provinceOf(u.loc) !== prov) return;
    if (same) same.count += u.count; else parts.push(u);
  });
  return parts;
}
function offerCounts(label) {  // the chooser of how much of a stack the order is for (the whole stack first chosen)
  const sel = $("order-count"), parts = stackAt(label), me = parts.find((p) => p.kind === parseLabel(label).kind);
  sel.textContent = "";
  const word = (n, k) => (n > 1 ? `${n} ` : "") + k;
  const whole = parts.length > 1 ? parts.map((p) => (p.count > 1 ? p.count : "") + p.kind).join("&") : word(me.count, me.kind);
  sel.hidden = parts.reduce((n, p) => n + p.count, 0) <= 1;
  if (sel.hidden) return;
  if (parts.length > 1) sel.append(el("option", {value: whole}, `${whole.replace(/&/g, "/")}: the whole stack`));
  for (let n = me.count; n >= 1; n--) {
    sel.append(el("option", {value: word(n, me.kind)}, `${word(n, me.kind)}` + (n === me.count && parts.length === 1 ? ": the whole stack" : ": split off")));
  }
  sel.dataset.whole = whole;
  sel.value = whole;
}
function chosenWords(label) {  // the first clicked unit as its order writes it: the chooser's part of a stack
  const sel = $("order-count");
  return sel.hidden ? unitWords(label) : `${sel.value} ${place(parseLabel(label).loc)}`;
}
function wholeChosen() { const sel = $("order-count"); return sel.hidden || sel.value === sel.dataset.whole; }
function orderAt(text, label) {  // whether an order written on the page is for a unit in the clicked unit's province
  const u = parseLabel(label), names = [place(u.loc), place(provinceOf(u.loc))].map((x) => x.toLowerCase());
  const t = text.toLowerCase().replace(/^disband\s+/, "").replace(/^(\d+\s*)?[a-z](\s*&\s*\d*\s*[a-z])*\s+/, "");
  return names.some((n) => t === n || t.startsWith(n + " "));
}
function orderKind() { return $("order-kind").value; }
function markSelection() {
  if (!selection.length) $("order-count").hidden = true;
  if (clicksOf()) { markFamily(); return; }
  document.querySelectorAll("#map .unit-token").forEach((t) => {
    t.classList.toggle("selected", t.dataset.unit === selection[0]);
    t.classList.toggle("target", selection.length > 1 && t.dataset.unit === selection[1]);
  });
  const kind = orderKind();
  const hints = {
    move: ["Move: click a unit, then where it goes (the unit again: it holds).",
      `${selection[0]}: click where it moves (a province, a coast or the unit there; the unit itself: it holds)` +
      ($("order-count").hidden ? "." : "; choose how much of the stack goes.")],
    support: ["Support: click the supporting unit, then the unit it supports, then where that one goes (or it again: it holds).",
      `${selection[0]} supports: click the unit it supports.`,
      `${selection[0]} supports ${selection[1]}: click where ${selection[1]} goes, or ${selection[1]} again if it holds.`],
    convoy: ["Convoy: click the fleet, then the army it carries, then where the army goes.",
      `${selection[0]} convoys: click the army.`, `${selection[0]} convoys ${selection[1]}: click where the army goes.`],
  };
  $("hint").textContent = mode() === "orders" && state && state.phase === "adjustment" ?
    "Adjustments: click a unit to disband it (a stack: one unit a click), a home centre to build a unit of the power and kind chosen under Place." :
    mode() === "orders" ? hints[kind][selection.length] || "" :
    mode() === "place" ? "Place: click a province (or coast) to put a unit of the chosen power and kind there." :
      "Remove: click a unit to take it off the board.";
}
function addOrder(power, text) {
  const field = orderField();
  state[field] = state[field] || {};
  (state[field][power] = state[field][power] || []).push(text);
  changed();
}
function setOrder(power, unitLabel, text) {  // an order of the whole unit (stack) replaces its others; a part's is added
  const field = orderField();
  state[field] = state[field] || {};
  const table = state[field];
  const list = table[power] = table[power] || [];
  const whole = wholeChosen();
  const i = list.findIndex((t) => (whole ? orderAt(t, unitLabel) : t === text));
  if (i >= 0) list[i] = text; else list.push(text);
  if (whole) table[power] = list.filter((t, j) => j === (i >= 0 ? i : list.length - 1) || !orderAt(t, unitLabel));
  changed();
}
function orderClick(target) {
  if (!target) { selection = []; markSelection(); return; }
  if (state.phase === "adjustment") {  // a unit: it disbands; a place: a build of the chosen power and kind
    const u = target.unit && parseLabel(target.unit);  // a stack: one unit disbanded a click
    if (u && u.count > 1) addOrder(u.power, `Disband ${u.kind} ${place(u.loc)}`);
    else if (u) setOrder(u.power, target.unit, `Disband ${unitWords(target.unit)}`);
    else addOrder($("place-power").value, `Build ${$("place-kind").value} ${place(target.loc)}`);
    return;
  }
  const kind = orderKind();
  const where = target.unit ? parseLabel(target.unit).loc : target.loc;
  if (selection.length === 0) {
    if (target.unit) { selection = [target.unit]; offerCounts(target.unit); }
    markSelection();
    return;
  }
  const u = selection[0], me = parseLabel(u), mine = chosenWords(u);
  if (kind === "move") {
    if (target.unit === u) setOrder(me.power, u, `${mine} Hold`);
    else setOrder(me.power, u, `${mine} - ${place(where)}`);
    return;
  }
  if (selection.length === 1) {
    if (target.unit && target.unit !== u) selection = [u, target.unit];
    markSelection();
    return;
  }
  const v = selection[1];
  if (kind === "support" && target.unit === v) { setOrder(me.power, u, `${mine} Supports ${unitWords(v)}`); return; }
  const verb = kind === "convoy" ? "Convoys" : "Supports";
  setOrder(me.power, u, `${mine} ${verb} ${unitWords(v)} - ${place(provinceOf(where))}`);
}
function mapClick(ev) {
  if (clicksOf()) { familyClick(ev); return; }
  const tok = ev.target.closest(".unit-token"), coast = ev.target.closest(".coast"), prov = ev.target.closest(".province");
  const loc = coast ? coast.dataset.id : prov ? prov.dataset.id : tok ? parseLabel(tok.dataset.unit).loc : null;
  if (mode() === "place") {
    if (loc) editUnits($("place-power").value, loc, $("place-kind").value, 1);
  } else if (mode() === "remove") {
    if (tok) { const u = parseLabel(tok.dataset.unit); editUnits(u.power, u.loc, u.kind, -1); }
  } else {
    orderClick(tok ? {unit: tok.dataset.unit} : loc ? {loc} : null);
  }
}
async function editUnits(power, where, kind, delta) {  // a unit placed (+1) or removed (-1): one more or less in a stack
  const g = gen;
  document.body.dataset.busy = "yes";  // until the new state is decided
  try {
    const next = await api("/api/units", {state, power, place: where, kind, delta});
    if (g === gen) setState(next);
  } catch (e) { if (g === gen) { showError(e.message); document.body.dataset.busy = "no"; } }
}

// -- setting up ---------------------------------------------------------------------------------
async function load(promise, push = true) {
  document.body.dataset.busy = "yes";  // from the request on, until the loaded state is decided
  try {
    const s = await promise;
    last = null;
    setState(s, push);
  } catch (e) { showError(e.message); document.body.dataset.busy = "no"; }
}
function blank(v) {  // an empty position: the family's own when it has one
  const own = VARIANTS[v] && VARIANTS[v].blank;
  return own ? JSON.parse(JSON.stringify(own)) : {variant: v, phase: "movement", units: {}, orders: {}};
}

async function exportRun() {
  const fmt = document.querySelector('input[name="format"]:checked').value;
  const rules = [...document.querySelectorAll("#export-rules input:checked")].map((i) => i.value);
  try {
    const ans = await api("/api/export", {state, format: fmt, rules, id: $("export-id").value, title: $("export-title").value});
    $("export-text").value = ans.text;
    const a = $("export-download");
    a.href = URL.createObjectURL(new Blob([ans.text], {type: "text/plain"}));
    a.download = fmt === "case" ? `${$("export-id").value || "sandbox"}.toml` : "turn.jsonl";
    a.hidden = false;
  } catch (e) { $("export-text").value = "error: " + e.message; }
}
function exportOpen() {
  const box = $("export-rules");
  box.textContent = "";
  const now = state.rules || variant().default_rules;
  for (const p of variant().presets) {
    const cb = el("input", {type: "checkbox", value: p});
    cb.checked = p === now;
    box.append(el("label", {}, cb, " " + p + " "));
  }
  const meta = state.meta || {};
  $("export-id").value = meta.id || "";
  $("export-title").value = meta.title || "";
  $("export-text").value = "";
  $("export-download").hidden = true;
  $("export-dialog").showModal();
}

async function start() {
  const [vs, cases] = await Promise.all([api("/api/variants"), api("/api/cases")]);
  for (const v of vs) { VARIANTS[v.name] = v; $("variant").append(el("option", {value: v.name}, v.name)); }
  for (const c of cases) $("cases").append(el("option", {value: c.name}, c.title));
  $("variant").addEventListener("change", () => {
    const v = $("variant").value;
    load(VARIANTS[v].board || VARIANTS[v].blank ? api("/api/opening?variant=" + encodeURIComponent(v)) : Promise.resolve(blank(v)));
  });
  $("opening").addEventListener("click", () => load(api("/api/opening?variant=" + encodeURIComponent(state.variant || "standard"))));
  $("clear").addEventListener("click", () => load(Promise.resolve(blank(state.variant || "standard"))));
  $("load-case").addEventListener("click", () => load(api("/api/case?name=" + encodeURIComponent($("case").value.trim()))));
  $("case").addEventListener("keydown", (ev) => { if (ev.key === "Enter") $("load-case").click(); });
  $("paste-open").addEventListener("click", () => $("paste-dialog").showModal());
  $("paste-load").addEventListener("click", () => load(api("/api/paste", {text: $("paste-text").value})));
  $("export-open").addEventListener("click", exportOpen);
  $("game-phase").addEventListener("change", () => load(api("/api/case?name=" + encodeURIComponent(state.meta.game) +
    "&phase=" + encodeURIComponent($("game-phase").value))));
  $("export-run").addEventListener("click", exportRun);
  $("rules").addEventListener("change", () => { state.rules = $("rules").value; changed(); });
  $("continue").addEventListener("click", () => {
    if (last && last.next) setState(Object.assign({}, last.next, state.meta ? {meta: {title: state.meta.title}} : {}), true);
  });
  $("order-power").addEventListener("change", () => $("order-text").setAttribute("list", "legal-" + $("order-power").value));
  const addTyped = () => {
    const text = $("order-text").value.trim();
    if (!text) return;
    const field = orderField(), p = $("order-power").value;
    state[field] = state[field] || {};
    (state[field][p] = state[field][p] || []).push(text);
    $("order-text").value = "";
    changed();
  };
  $("order-add").addEventListener("click", addTyped);
  $("order-text").addEventListener("keydown", (ev) => { if (ev.key === "Enter") addTyped(); });
  $("map").addEventListener("click", mapClick);
  document.querySelectorAll('input[name="mode"]').forEach((r) => r.addEventListener("change", () => { selection = []; markSelection(); }));
  $("order-kind").addEventListener("change", () => { selection = []; $("mode-orders").checked = true; markSelection(); });
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") { selection = []; markSelection(); } });
  window.addEventListener("popstate", fromAddress);
  document.body.dataset.ready = "yes";
  if (!fromAddress()) await load(api("/api/opening?variant=standard"), false);
}
function fromAddress() {
  const m = location.hash.match(/^#s=([A-Za-z0-9_-]+)$/);
  if (!m) return false;
  try {
    const s = decodeState(m[1]);
    if (state && encodeState(state) === m[1]) return true;
    last = null;
    setState(s);
    return true;
  } catch (e) {
    showError("the address does not hold a position the sandbox can read");
    return false;
  }
}
start().catch((e) => showError(e.message));
