// The floor console: what a signed-in principal may do, by role. Every
// button is one call of the public API with the principal's own token: the
// console adds no operation and bypasses no role or second signature (the
// API refuses what the principal may not do, and the console shows that
// refusal as the API words it).
"use strict";

(() => {
  TS.tokenFromFragment();
  const $ = (id) => document.getElementById(id);
  const state = { me: null, pool: null, poolId: sessionStorage.getItem("tablesettle.pool") || "" };

  function showProblem(e) {
    const text = !e ? "" : e instanceof TS.Problem ? e.describe() : String(e);
    $("problem").textContent = text;
    $("problem").classList.toggle("hidden", !text);
  }

  // Runs an API call from a button; shows its refusal, if any.
  async function act(fn) {
    showProblem(null);
    try { return await fn(); } catch (e) { showProblem(e); return undefined; }
  }

  const has = (role) => !!(state.me && (state.me.roles || []).includes(role));

  function applyRoles() {
    const roles = (state.me && state.me.roles) || [];
    $("who").textContent = state.me ? "signed in as " + state.me.id + " (" + roles.join(", ") + ")" : "not signed in";
    const open = !!state.poolId && !!state.me;
    const show = (sel, on) => document.querySelectorAll(sel).forEach((e) => e.classList.toggle("hidden", !on));
    show(".role-supervisor", open && has("supervisor"));
    show(".role-controller", open && has("controller"));
    show(".role-admin", open && has("admin"));
    show(".role-cage", open && has("cage"));
    show(".role-read", open && roles.some((r) => ["cage", "controller", "admin", "supervisor"].includes(r)));
  }

  async function signIn(token) {
    TS.setToken(token);
    const me = await act(() => TS.call("GET", "/v1/me"));
    state.me = me || null;
    if (!me) TS.setToken("");
    applyRoles();
    if (me && state.poolId) await openPool(state.poolId);
  }

  async function openPool(id) {
    state.poolId = id;
    sessionStorage.setItem("tablesettle.pool", id);
    $("pool-id").value = id;
    const pool = await act(() => TS.call("GET", "/v1/pools/" + encodeURIComponent(id)));
    state.pool = pool || null;
    applyRoles();
    if (!pool) return;
    const cur = pool.settings.currency;
    $("pool-summary").replaceChildren(TS.el("p", {},
      "Displayed " + cur + " " + TS.formatMoney(pool.meters.displayed, cur) +
      " · reserve " + TS.formatMoney(pool.meters.reserve, cur) +
      " · overflow " + TS.formatMoney(pool.meters.overflow, cur) +
      " · rulesets " + pool.settings.rulesets.join(", ") + " · version " + pool.version));
    const link = $("display-link");
    link.href = "/display/" + encodeURIComponent(id);
    link.classList.remove("hidden");
    await refresh();
  }

  // Everything the principal's roles show, reloaded after each action.
  async function refresh() {
    const jobs = [];
    if (has("supervisor")) jobs.push(loadPending());
    if (has("controller")) jobs.push(loadProposals());
    if (has("cage")) jobs.push(loadToPay());
    if (!$("ledger-card").classList.contains("hidden")) jobs.push(loadLedger());
    await Promise.all(jobs);
  }

  const poolPath = (suffix) => "/v1/pools/" + encodeURIComponent(state.poolId) + suffix;
  const money = (a) => { const cur = state.pool ? state.pool.settings.currency : ""; return TS.formatMoney(a || 0, cur); };
  const when = (t) => t ? new Date(t).toLocaleString() : "";

  // ---- pending hits (supervisor), confirmed hits (cage), proposals (controller)
  async function loadPending() { /* filled in with the hits API */ }
  async function loadToPay() { /* filled in with the hits API */ }
  async function loadProposals() { /* filled in with the proposals API */ }

  // ---- ledger browser (cage, controller, admin, supervisor)
  async function loadLedger() {
    const entries = [];
    let after = 0;
    for (let page = 0; page < 20; page++) { // at most 20,000 entries in the browser
      const out = await act(() => TS.call("GET", poolPath("/ledger?limit=1000&after=" + after)));
      if (!out) return;
      entries.push(...out.entries);
      if (out.entries.length < 1000) break;
      after = out.entries[out.entries.length - 1].seq;
    }
    const kinds = new Set(entries.map((e) => e.kind));
    const sel = $("f-kind");
    const chosen = sel.value;
    sel.replaceChildren(TS.el("option", { value: "" }, "any"), ...[...kinds].sort().map((k) => TS.el("option", { value: k }, k)));
    sel.value = chosen;
    const f = {
      table: $("f-table").value.trim(), round: $("f-round").value.trim(), kind: sel.value,
      from: $("f-from").value ? new Date($("f-from").value) : null, to: $("f-to").value ? new Date($("f-to").value) : null,
    };
    const shown = entries.filter((e) =>
      (!f.table || e.table === f.table) && (!f.round || e.round === f.round) && (!f.kind || e.kind === f.kind) &&
      (!f.from || new Date(e.at) >= f.from) && (!f.to || new Date(e.at) <= f.to));
    $("ledger-count").textContent = shown.length + " of " + entries.length + " entries";
    const tbody = $("ledger").querySelector("tbody");
    tbody.replaceChildren(...shown.slice(-500).reverse().map((e) => TS.el("tr", { "data-seq": e.seq },
      TS.el("td", { class: "num" }, e.seq),
      TS.el("td", {}, when(e.at)),
      TS.el("td", {}, e.kind),
      TS.el("td", {}, e.table ? TS.el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); $("f-table").value = e.table; loadLedger(); } }, e.table) : ""),
      TS.el("td", {}, e.round ? TS.el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); $("f-round").value = e.round; loadLedger(); } }, e.round) : ""),
      TS.el("td", {}, e.seat || ""),
      TS.el("td", {}, (e.category || "").replace(/_/g, " ")),
      TS.el("td", { class: "num" }, money(e.paid || e.contributed || e.displayed || e.amount || 0)),
      TS.el("td", {}, e.principal ? e.principal.id + (e.principal.role ? " (" + e.principal.role + ")" : "") : (e.by || "")),
      TS.el("td", {}, (e.rules || []).map((r) => Cite.link(r))))));
  }

  // ---- reconcile (controller)
  async function reconcile() {
    const out = await act(() => TS.call("GET", poolPath("/reconcile")));
    if (!out) return;
    const ok = out.ok !== false && !(out.mismatches && out.mismatches.length);
    $("reconcile-result").replaceChildren(TS.el("p", { class: ok ? "ok" : "bad" },
      ok ? "Reconciled: the meters equal the ledger." : "MISMATCH: " + JSON.stringify(out.mismatches || out)));
  }

  $("signin").addEventListener("submit", (ev) => { ev.preventDefault(); signIn($("token").value.trim()); $("token").value = ""; });
  $("signout").addEventListener("click", () => { TS.setToken(""); state.me = null; applyRoles(); });
  $("pool-form").addEventListener("submit", (ev) => { ev.preventDefault(); openPool($("pool-id").value.trim()); });
  $("ledger-form").addEventListener("submit", (ev) => { ev.preventDefault(); loadLedger(); });
  $("f-clear").addEventListener("click", () => { for (const id of ["f-table", "f-round", "f-from", "f-to"]) $(id).value = ""; $("f-kind").value = ""; loadLedger(); });
  $("reconcile").addEventListener("click", reconcile);

  window.Console = { state, act, refresh, money, when, poolPath, $ };
  if (TS.token()) signIn(TS.token()); else applyRoles();
})();
