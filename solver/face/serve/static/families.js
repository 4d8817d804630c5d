// The dipsat sandbox: clicking the picture of a game family other than a Diplomacy board.
// The variant's "clicks" (GET /api/variants) say what its picture names — the data attribute of
// its places and unit tokens, a token's owner and count — and which orders it draws; the server
// writes a click as the family writes a position or an order (POST /api/units, /api/order).
// Loaded before sandbox.js, whose globals it uses when called.
"use strict";

function clicksOf() { return (typeof state !== "undefined" && state && variant().clicks) || null; }

function familyTarget(ev) {  // a click on the family's picture: {place, owner, count}, or null
  const c = clicksOf(), attr = "data-" + c.place;
  const at = ev.target.closest(`[${attr}]`);
  if (!at) return null;
  const place = at.getAttribute(attr);
  const tok = ev.target.closest(".unit-token") ||
    document.querySelector(`#map .unit-token[${attr}="${CSS.escape(place)}"]`);
  const owner = tok ? tok.getAttribute("data-" + c.owner) : null;
  const count = tok && c.count ? parseInt(tok.getAttribute("data-" + c.count), 10) || 1 : (tok ? 1 : 0);
  return {place, owner, count};
}

function offerFamilyCount(n) {  // how many of the place's units the order sends: all first
  const sel = $("order-count");
  sel.textContent = "";
  sel.hidden = n <= 1;
  for (let i = n; i >= 1; i--) sel.append(el("option", {value: String(i)}, i === n ? `${i}: all of them` : `${i}`));
  if (n > 1) { sel.value = String(n); sel.dataset.whole = String(n); }
}

function markFamily() {
  const c = clicksOf(), attr = "data-" + c.place;
  document.querySelectorAll("#map .unit-token").forEach((t) => {
    const p = t.getAttribute(attr);
    t.classList.toggle("selected", !!selection[0] && p === selection[0].place);
    t.classList.toggle("target", !!selection[1] && p === selection[1].place);
  });
  const kind = orderKind(), first = selection[0] && selection[0].place, second = selection[1] && selection[1].place;
  const hints = {
    move: ["Move: click a place with units, then where they go (the place again: they hold).",
      `${first}: click where the units go (choose how many), or ${first} again to hold.`],
    support: ["Support: click the supporting place, then the ally's place, then the place it attacks (the ally's again: defence).",
      `${first} supports: click the ally's place.`, `${first} supports ${second}: click the place it attacks, or ${second} again to defend it.`],
  };
  $("hint").textContent = mode() === "orders" ? (hints[kind] || hints.move)[selection.length] || "" :
    mode() === "place" ? "Place: click a place to put a unit of the chosen player there (one more each click)." :
      "Remove: click a place's units to take one off.";
}

async function familyOrder(body) {
  const g = gen;
  document.body.dataset.busy = "yes";  // until the new state is decided
  try {
    const next = await api("/api/order", body);
    if (g === gen) setState(next);
  } catch (e) { if (g === gen) { showError(e.message); document.body.dataset.busy = "no"; } }
}

function familyClick(ev) {
  const t = familyTarget(ev), kind = $("place-kind").value || null;
  if (mode() === "place") { if (t) editUnits($("place-power").value, t.place, kind, 1); return; }
  if (mode() === "remove") { if (t && t.owner) editUnits(t.owner, t.place, null, -1); return; }  // the family picks the kind
  if (!t) { selection = []; markSelection(); return; }
  if (!selection.length) {
    if (t.owner) { selection = [t]; offerFamilyCount(t.count); }
    markSelection();
    return;
  }
  const action = orderKind() === "support" ? "support" : "move";
  if (action === "support" && selection.length === 1) { selection = [selection[0], t]; markSelection(); return; }
  const count = $("order-count").hidden ? null : parseInt($("order-count").value, 10);
  familyOrder({state, action, origin: selection[0].place, target: t.place, count,
    ally: action === "support" ? selection[1].place : null});
}

function familyOrderKinds() {  // the order kinds the family draws: the others hidden from the menu
  const c = clicksOf(), sel = $("order-kind");
  for (const o of sel.options) o.hidden = !!c && !c.orders.includes(o.value) && o.value !== "move";
  if (sel.selectedOptions[0] && sel.selectedOptions[0].hidden) sel.value = "move";
}
