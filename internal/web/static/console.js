// The floor console: what a signed-in principal may do, by role. Every
// button is one call of the public API with the principal's own
// credentials (a bearer token, or IAM credentials signing each call): the
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

  // Signs in with what the form holds: a bearer token, or IAM credentials
  // (then every call is signed with SigV4). /v1/me says who that is; when
  // the API refuses, nothing is kept.
  async function signIn(creds) {
    if (creds) {
      if (creds.token) TS.setToken(creds.token); else TS.setIAM(creds.iam);
    }
    const me = await act(() => TS.call("GET", "/v1/me"));
    state.me = me || null;
    if (!me) TS.signOut();
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
  const who = (a) => a ? a.id + (a.role ? " (" + a.role + ")" : "") : "";

  // Every state-changing call carries an Idempotency-Key, so a double
  // click or a retried request is applied once (the API's rule).
  const idem = () => ({ "Idempotency-Key": "console-" + (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random()) });

  // After an action: the pool, and every list the roles show. The row whose
  // button was pressed is gone then; the focus, lost with it, goes to the
  // heading of its card, so a keyboard user carries on from there rather
  // than from the top of the page.
  async function done(out, heading) {
    if (out === undefined) return;
    await openPool(state.poolId);
    const a = document.activeElement;
    if (heading && (!a || a === document.body || !a.isConnected)) $(heading).focus();
  }

  // ---- pending hits (supervisor): verify the cards, then confirm or void
  async function loadPending() {
    const out = await act(() => TS.call("GET", poolPath("/hits")));
    if (!out) return;
    const rows = out.hits.filter((h) => h.state === "pending").map((h) => {
      const reason = TS.el("input", { "aria-label": "reason to void hit " + h.seq, placeholder: "reason to void", size: 18 });
      return TS.el("tr", { "data-seq": h.seq },
        TS.el("td", { class: "num" }, h.seq), TS.el("td", {}, h.table), TS.el("td", {}, h.round), TS.el("td", {}, h.seat),
        TS.el("td", { class: "cite" }, h.cards || ""), TS.el("td", {}, (h.category || "").replace(/_/g, " ")),
        TS.el("td", { class: "num" }, money(h.amount)), TS.el("td", {}, when(h.committedAt)),
        TS.el("td", {},
          TS.el("button", { type: "button", class: "primary", "data-action": "confirm",
            onclick: async () => done(await act(() => TS.call("POST", poolPath("/hits/" + h.seq + "/confirm"), undefined, idem())), "pending-h") }, "Confirm"),
          " ", reason, " ",
          TS.el("button", { type: "button", class: "danger", "data-action": "void",
            onclick: async () => {
              if (!reason.value.trim()) { showProblem("A void needs its reason: what the cards really were."); reason.focus(); return; }
              done(await act(() => TS.call("POST", poolPath("/hits/" + h.seq + "/void"), { reason: reason.value.trim() }, idem())), "pending-h");
            } }, "Void")));
    });
    $("pending").querySelector("tbody").replaceChildren(...(rows.length ? rows : [TS.el("tr", {}, TS.el("td", { colspan: 9, class: "muted" }, "No pending hit."))]));
  }

  // ---- confirmed hits (cage): pay, then mark paid
  async function loadToPay() {
    const out = await act(() => TS.call("GET", poolPath("/hits")));
    if (!out) return;
    const rows = out.hits.filter((h) => h.state === "confirmed").map((h) => TS.el("tr", { "data-seq": h.seq },
      TS.el("td", { class: "num" }, h.seq), TS.el("td", {}, h.table), TS.el("td", {}, h.seat),
      TS.el("td", { class: "num" }, money(h.amount)),
      TS.el("td", {}, h.confirmedBy ? h.confirmedBy.id + " · " + when(h.confirmedAt) : ""),
      TS.el("td", {}, TS.el("button", { type: "button", class: "primary", "data-action": "paid",
        onclick: async () => done(await act(() => TS.call("POST", poolPath("/hits/" + h.seq + "/paid"), undefined, idem())), "pay-h") }, "Mark paid"))));
    $("topay").querySelector("tbody").replaceChildren(...(rows.length ? rows : [TS.el("tr", {}, TS.el("td", { colspan: 6, class: "muted" }, "Nothing to pay."))]));
  }

  // ---- proposals waiting for a second signature (controller)
  async function loadProposals() {
    const out = await act(() => TS.call("GET", poolPath("/proposals")));
    if (!out) return;
    const rows = (out.proposals || []).filter((p) => !p.state || p.state === "open").map((p) => TS.el("tr", { "data-proposal": p.id },
      TS.el("td", {}, p.id), TS.el("td", {}, p.kind),
      TS.el("td", {}, describeProposal(p)),
      TS.el("td", {}, p.proposedBy ? p.proposedBy.id + " (" + p.proposedBy.role + ")" : ""),
      TS.el("td", {}, when(p.expiresAt)),
      TS.el("td", {}, TS.el("button", { type: "button", class: "primary", "data-action": "approve",
        onclick: async () => done(await act(() => TS.call("POST", poolPath("/proposals/" + encodeURIComponent(p.id) + "/approve"), undefined, idem())), "proposals-h") }, "Approve"))));
    $("proposals").querySelector("tbody").replaceChildren(...(rows.length ? rows : [TS.el("tr", {}, TS.el("td", { colspan: 6, class: "muted" }, "Nothing waits for a second signature."))]));
  }

  function describeProposal(p) {
    const a = p.adjustment;
    if (a) return a.meter + " " + (a.amount >= 0 ? "+" : "") + money(a.amount) + " · " + (a.reason || "");
    if (p.void) return "void hit " + p.void.seq + " · " + (p.void.reason || "");
    if (p.settings) return "settings " + JSON.stringify(p.settings);
    if (p.correction) return "correct round " + (p.correction.table || "") + "/" + (p.correction.round || "");
    return p.summary || JSON.stringify(p);
  }

  // ---- propose a meter adjustment (admin); a controller approves it
  async function proposeAdjustment() {
    const amount = Number($("adjust-amount").value);
    if (!Number.isSafeInteger(amount) || amount === 0) { showProblem("The amount is a whole number of minor units, not zero."); return; }
    const out = await act(() => TS.call("POST", poolPath("/adjustments"),
      { meter: $("adjust-meter").value, amount, reason: $("adjust-reason").value.trim() }, idem()));
    if (out) {
      $("adjust-result").textContent = out.proposal ? "Proposal " + out.proposal.id + " waits for a controller's approval." : "Recorded.";
      await done(out);
    }
  }

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
      TS.el("td", { class: "num" }, money(e.paid || e.contributed || e.displayed || e.reserve || e.overflow || 0)),
      TS.el("td", {}, who(e.actor) || e.by || "", e.approvedBy ? " · approved by " + who(e.approvedBy) : ""),
      TS.el("td", {}, (e.rules || []).map((r) => Cite.link(r))))));
  }

  // ---- reconcile (controller)
  async function reconcile() {
    const out = await act(() => TS.call("GET", poolPath("/reconcile")));
    if (!out) return;
    const lines = [TS.el("p", { class: out.ok ? "ok" : "bad" }, out.ok
      ? "Reconciled: the meters equal the ledger's " + out.entries + " entries."
      : "DOES NOT RECONCILE over " + out.entries + " entries.")];
    for (const d of out.differences || []) lines.push(TS.el("p", { class: "bad" }, d.meter + ": meters " + d.meters + ", ledger " + d.ledger));
    for (const p of out.problems || []) lines.push(TS.el("p", { class: "bad" }, p));
    $("reconcile-result").replaceChildren(...lines);
  }

  // The sign-in form: one set of fields per way of signing in. The other
  // set is hidden and disabled, so its required fields do not block the
  // form and the keyboard does not reach them.
  const iamFields = ["iam-key", "iam-secret", "iam-session", "iam-region"];
  function showMode() {
    const iam = $("mode-iam").checked;
    $("token-fields").classList.toggle("hidden", iam);
    $("iam-fields").classList.toggle("hidden", !iam);
    $("token").disabled = iam;
    for (const id of iamFields) $(id).disabled = !iam;
  }
  $("mode-token").addEventListener("change", showMode);
  $("mode-iam").addEventListener("change", showMode);
  $("signin").addEventListener("submit", (ev) => {
    ev.preventDefault();
    let creds;
    if ($("mode-iam").checked) {
      creds = { iam: {
        accessKeyId: $("iam-key").value.trim(), secretAccessKey: $("iam-secret").value.trim(),
        sessionToken: $("iam-session").value.trim(), region: $("iam-region").value.trim(),
      } };
    } else {
      creds = { token: $("token").value.trim() };
    }
    // The secrets leave the form at once: they live in sessionStorage only.
    for (const id of ["token", "iam-secret", "iam-session"]) $(id).value = "";
    signIn(creds);
  });
  $("signout").addEventListener("click", () => { TS.signOut(); state.me = null; applyRoles(); });
  $("pool-form").addEventListener("submit", (ev) => { ev.preventDefault(); openPool($("pool-id").value.trim()); });
  $("ledger-form").addEventListener("submit", (ev) => { ev.preventDefault(); loadLedger(); });
  $("f-clear").addEventListener("click", () => { for (const id of ["f-table", "f-round", "f-from", "f-to"]) $(id).value = ""; $("f-kind").value = ""; loadLedger(); });
  $("reconcile").addEventListener("click", reconcile);
  $("adjust-form").addEventListener("submit", (ev) => { ev.preventDefault(); proposeAdjustment(); });

  window.Console = { state, act, refresh, money, when, poolPath, $ };
  if (TS.iam()) {
    $("mode-iam").checked = true;
    $("iam-key").value = TS.iam().accessKeyId;
    $("iam-region").value = TS.iam().region;
  }
  showMode();
  if (TS.signedIn()) signIn(null); else applyRoles();
})();
