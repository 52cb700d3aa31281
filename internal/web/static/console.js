// The floor console: what a signed-in principal may do, by role. Every
// button is one call of the public API with the principal's own
// credentials (a bearer token, or IAM credentials signing each call): the
// console adds no operation and bypasses no role or second signature (the
// API refuses what the principal may not do, and the console shows that
// refusal as the API words it).
//
// Live: once a pool is open the console asks the API twice a second
// (conditional GETs: a 304 when nothing changed) for the pool, its hits
// and its proposals, and redraws only what changed; a pending or held hit
// (already waiting when the pool is opened, or new) raises the alert
// banner and a sound that repeats until a named person acknowledges the
// hit (recorded by the API, issue 35), the page's title says so meanwhile,
// and a desktop notification when asked for (mute and notifications last
// this browser session: sessionStorage).
"use strict";

(() => {
  TS.tokenFromFragment();
  const $ = (id) => document.getElementById(id);
  const pollMs = 500; // twice a second (conditional GETs): any change shows within 1 s
  // A change of the meters alone (tables contributing) refreshes the
  // ledger at once, then at most every ledgerQuietMs while they go on: on a pool with contribution shards
  // (DynamoDB) each ledger read folds them into the pool first, a write,
  // so a console refreshing it twice a second on a busy pool would commit
  // the pool twice a second (docs/scale.md). Hits, proposals and the
  // console's own actions refresh it at once; the meters are always live.
  const ledgerQuietMs = 5000;
  // Table health (issue 35 item 7) is read every tablesMs: it reads the
  // ledger's newest entries, and a table falls silent in minutes.
  const tablesMs = 10000;
  const state = {
    me: null, pool: null, poolId: sessionStorage.getItem("tablesettle.pool") || "",
    hits: [], history: [], historySig: "", proposals: [], seen: null, announced: new Set(), ledger: [], ledgerNext: null, ledgerStale: false, ledgerAt: 0, tablesAt: 0, timer: 0, generation: 0,
  };
  const Console = { state, beeps: 0, raised: 0, notified: 0 };

  // A message stays until the next action or answer replaces it: every
  // call clears it first, and so does typing what it asked for.
  function showProblem(e) {
    const text = !e ? "" : (e instanceof TS.Problem || e instanceof TS.NetworkError) ? e.describe() : String(e);
    delete $("problem").dataset.reason;
    $("problem").textContent = text;
    $("problem").classList.toggle("hidden", !text);
  }

  // Runs an API call; shows its refusal, if any.
  async function act(fn) {
    showProblem(null);
    try { return await fn(); } catch (e) { showProblem(e); return undefined; }
  }

  const has = (role) => !!(state.me && (state.me.roles || []).includes(role));
  const readers = ["cage", "controller", "admin", "supervisor"];

  function applyRoles() {
    const roles = (state.me && state.me.roles) || [];
    $("who").textContent = state.me ? "signed in as " + state.me.id + " (" + roles.join(", ") + ")" : "not signed in";
    // The cards of a pool show only while that pool is loaded: a pool id
    // that is not there leaves no button of the previous pool.
    const open = !!state.pool && !!state.me;
    const show = (sel, on) => document.querySelectorAll(sel).forEach((e) => e.classList.toggle("hidden", !on));
    show(".role-supervisor", open && has("supervisor"));
    show(".role-controller", open && has("controller"));
    show(".role-admin", open && has("admin"));
    show(".role-cage", open && has("cage"));
    show(".role-read", open && roles.some((r) => readers.includes(r)));
  }

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

  const cur = () => (state.pool ? state.pool.settings.currency : "");
  const money = (a, signed) => TS.money(a || 0, cur(), signed);
  const when = (t) => t ? new Date(t).toLocaleString() : "";
  const clock = (t) => t ? new Date(t).toLocaleTimeString() : "";
  const who = (a) => a ? a.id + (a.role ? " (" + a.role + ")" : "") : "";
  const hand = (c) => TS.handName(c);
  const meterNames = ["displayed", "reserve", "overflow"];
  const poolPath = (suffix, id) => "/v1/pools/" + encodeURIComponent(id === undefined ? state.poolId : id) + suffix;

  // Opening a pool forgets the previous one at once: its rows, buttons and
  // polling go before the new pool is asked for.
  async function openPool(id) {
    clearTimeout(state.timer);
    state.generation++;
    state.poolId = id;
    state.pool = null;
    state.hits = []; state.history = []; state.historySig = ""; state.proposals = []; state.seen = null; state.ledger = []; state.ledgerNext = null;
    TS.forget("/v1/pools/");
    for (const t of ["pending", "topay", "proposals", "queue", "ledger", "tables"]) $(t).querySelector("tbody").replaceChildren();
    $("tables-flag").textContent = ""; $("tables-flag").classList.add("hidden"); state.tablesAt = 0;
    $("pool-summary").replaceChildren();
    $("display-link").classList.add("hidden");
    hideAlert();
    applyRoles();
    sessionStorage.setItem("tablesettle.pool", id);
    $("pool-id").value = id;
    await tick(state.generation, true);
  }

  // One poll: the pool, its hits and its proposals, each a conditional GET;
  // whatever changed is redrawn. Then the next poll, a second later.
  async function tick(gen, first) {
    if (gen !== state.generation || !state.me) return;
    try {
      const p = await TS.poll(poolPath(""));
      if (gen !== state.generation) return;
      if (p.changed || first) {
        state.pool = p.data;
        applyRoles();
        renderSummary();
      }
      // The open hits every poll (read from the pool alone); the history
      // (paid and voided, read from the ledger: dearer) only when a hit
      // appeared or moved on, never for a mere contribution. The open hits
      // are drawn (and a new one announced) before the history is asked
      // for: what needs the floor is on screen however long the history
      // takes, or if it fails.
      const [h, pr] = await Promise.all([TS.poll(poolPath("/hits")), TS.poll(poolPath("/proposals"))]);
      if (gen !== state.generation) return;
      const show = (announceAll) => {
        // A void round's hands (round_void) share its entry's seq: one row each.
        const key = (x) => x.state === "round_void" ? "v" + x.seq + "/" + x.seat + "/" + (x.wager || "") : x.seq;
        const bySeq = new Map((state.history || []).map((x) => [key(x), x]));
        for (const x of h.data.hits || []) bySeq.set(key(x), x);
        state.hits = [...bySeq.values()].filter((x) => x.state !== "pending" && x.state !== "confirmed" && x.state !== "held" || (h.data.hits || []).some((o) => o.seq === x.seq));
        state.proposals = pr.data.proposals || [];
        renderHits(announceAll);
        renderProposals();
      };
      if (p.changed || h.changed || pr.changed || first) show(first);
      // lastVoidHand: a void round held a hand that would have hit (issue
      // 33 item 1); the history lists it.
      const sig = JSON.stringify([(h.data.hits || []).map((x) => [x.seq, x.state]), (state.pool.lastHits || []).map((x) => [x.seq, x.state || ""]), state.pool.lastVoidHand || 0]);
      let hist = false;
      if (first || sig !== state.historySig) {
        const all = await TS.poll(poolPath("/hits?state=all"));
        if (gen !== state.generation) return;
        state.history = all.data.hits || [];
        state.historySig = sig;
        hist = true;
        show(false); // announced already
      }
      if (p.changed) state.ledgerStale = true;
      const now = Date.now();
      const moved = first || h.changed || pr.changed || hist;
      if (moved || (state.ledgerStale && now - state.ledgerAt >= ledgerQuietMs)) {
        // Only a refresh for contributions starts a quiet period: the
        // first contribution after one shows at once.
        if (!moved) state.ledgerAt = now;
        await loadLedgerNew(gen);
        state.ledgerStale = false; // not before: a failed read is tried again
      }
      // Not awaited: a slow read of the tables never delays the next poll
      // (a new hit's alert).
      if (first || now - state.tablesAt >= tablesMs) { state.tablesAt = now; loadTables(gen).catch(() => { state.tablesAt = 0; }); }
      if ($("problem").dataset.poll) { showProblem(null); delete $("problem").dataset.poll; }
    } catch (e) {
      if (gen !== state.generation) return;
      if (first || (e instanceof TS.Problem && e.status === 404)) {
        showProblem(e);
        if (!state.pool || (e instanceof TS.Problem && e.status === 404)) { state.pool = null; applyRoles(); return; }
      } else {
        showProblem(e);
        $("problem").dataset.poll = "1";
      }
    }
    if (gen === state.generation) state.timer = setTimeout(() => tick(gen, false), pollMs);
  }

  function renderSummary() {
    const pool = state.pool;
    const c = pool.settings.currency;
    $("pool-summary").replaceChildren(TS.el("p", {},
      (pool.settings.displayName ? pool.settings.displayName + " · " : "") +
      "Displayed " + c + " " + TS.formatMoney(pool.meters.displayed, c) +
      " · reserve " + TS.formatMoney(pool.meters.reserve, c) +
      " · overflow " + TS.formatMoney(pool.meters.overflow, c) +
      " · rulesets " + pool.settings.rulesets.join(", ") +
      (pool.settings.tables ? " · tables " + pool.settings.tables.join(", ") : "") + " · version " + pool.version));
    const link = $("display-link");
    link.href = "/display/" + encodeURIComponent(state.poolId);
    link.classList.remove("hidden");
    $("adjust-currency").textContent = c;
  }

  // ---- table health: each table's last round; a table silent for the
  // minutes chosen while others deal is flagged (issue 35 item 7).
  const silentKey = "tablesettle.silentAfter";
  if (sessionStorage.getItem(silentKey)) $("silent-after").value = sessionStorage.getItem(silentKey);
  function silentMinutes() {
    const n = Math.round(Number($("silent-after").value));
    return Number.isFinite(n) && n >= 1 && n <= 1440 ? n : 10;
  }
  async function loadTables(gen) {
    if (!state.me || !(state.me.roles || []).some((r) => readers.includes(r))) return;
    const out = await TS.call("GET", poolPath("/tables?silentAfter=" + silentMinutes() * 60));
    if (gen !== state.generation) return;
    const ago = (t) => { const m = Math.floor((Date.now() - new Date(t).getTime()) / 60000); return m < 1 ? "under a minute ago" : m + " min ago"; };
    const rows = (out.tables || []).map((t) => TS.el("tr", { "data-table": t.table, class: t.silent ? "silent" : "" },
      TS.el("td", {}, t.table), TS.el("td", {}, t.lastRound || "—"),
      TS.el("td", {}, t.lastRoundAt ? clock(t.lastRoundAt) + " (" + ago(t.lastRoundAt) + ")" : "—"),
      TS.el("td", {}, t.silent ? TS.el("span", { class: "badge state-voided" }, "SILENT") : TS.el("span", { class: "badge state-paid" }, t.lastRoundAt ? "dealing" : "no round yet"))));
    $("tables").querySelector("tbody").replaceChildren(...(rows.length ? rows : [TS.el("tr", {}, TS.el("td", { colspan: 4, class: "muted" }, "No table linked or seen."))]));
    const silent = (out.tables || []).filter((t) => t.silent);
    const flag = silent.length ? "Silent while others deal: " + silent.map((t) => "table " + t.table + " (" + (t.lastRoundAt ? "last round " + ago(t.lastRoundAt) : "no round yet") + ")").join(", ") +
      ". No round for " + silentMinutes() + " min or more." : "";
    if ($("tables-flag").textContent !== flag) $("tables-flag").textContent = flag;
    $("tables-flag").classList.toggle("hidden", !flag);
    $("tables-card").classList.toggle("has-silent", !!flag);
  }
  $("silent-after").addEventListener("change", () => {
    sessionStorage.setItem(silentKey, String(silentMinutes()));
    if (state.pool) act(() => loadTables(state.generation));
  });

  // ---- safe actions
  // One Idempotency-Key per submission: the same submission (the same
  // request) sent again after a network failure or a server error keeps
  // its key, so the API applies it once; an answer (success or refusal)
  // ends the submission. The button is disabled while it is sent.
  const submissions = new Map();
  const newKey = () => "console-" + (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()) + Math.random());

  async function send(button, method, path, body) {
    const id = method + " " + path + " " + JSON.stringify(body === undefined ? null : body);
    let key = submissions.get(id);
    if (!key) { key = newKey(); submissions.set(id, key); }
    if (button) button.disabled = true;
    showProblem(null);
    try {
      const out = await TS.call(method, path, body, { "Idempotency-Key": key });
      submissions.delete(id);
      return out;
    } catch (e) {
      if (!(e instanceof TS.NetworkError) && !(e instanceof TS.Problem && e.status >= 500)) submissions.delete(id);
      showProblem(e);
      return undefined;
    } finally {
      if (button && button.isConnected) button.disabled = false;
    }
  }

  // A confirmation: the dialog restates what the action will do in money
  // (amount, table, seat, hand); Cancel is focused first. Resolves true
  // only for OK.
  function ask(title, lines, okLabel, danger) {
    const dlg = $("confirm-dialog");
    $("confirm-h").textContent = title;
    $("confirm-text").replaceChildren(...lines.map((l) => TS.el("p", {}, l)));
    const ok = $("confirm-ok");
    ok.textContent = okLabel;
    ok.className = danger ? "danger" : "primary";
    return new Promise((resolve) => {
      const close = () => { dlg.removeEventListener("close", close); resolve(dlg.returnValue === "ok"); };
      dlg.returnValue = "";
      dlg.addEventListener("close", close);
      dlg.showModal();
      $("confirm-cancel").focus();
    });
  }

  const hitFacts = (h) => [
    "Amount: " + money(h.amount) + (h.category ? " · " + hand(h.category || h.hand) : ""),
    "table " + h.table + " · seat " + h.seat + " · round " + h.round + (h.cards ? " · cards " + h.cards : ""),
  ];

  // After an action: the lists are asked for at once (not at the next
  // poll); the focus, if its row went, goes to the heading of its card.
  async function done(out, heading) {
    if (out === undefined) return;
    clearTimeout(state.timer);
    await tick(state.generation, false);
    // The focus is lost (its row went) now or once the dialog that asked
    // has closed and the alert has redrawn: either way it goes to the
    // card's heading, never left on the page's body.
    const settle = () => {
      const a = document.activeElement;
      if (heading && (!a || a === document.body || !a.isConnected)) $(heading).focus();
    };
    settle();
    requestAnimationFrame(settle);
    setTimeout(settle, 250);
  }

  // A button bound to the pool it was drawn for: after another pool is
  // opened it does nothing (and it is gone with its row).
  function action(label, attrs, run) {
    const gen = state.generation;
    const b = TS.el("button", Object.assign({ type: "button" }, attrs), label);
    b.addEventListener("click", async () => { if (gen === state.generation && state.pool) await run(b); });
    return b;
  }

  // ---- the hit queue, the alert, the pending hits and the hits to pay
  const openVoid = (seq) => state.proposals.find((p) => (!p.state || p.state === "open") && p.void && p.void.seq === seq);

  function queueRows() {
    const held = (state.pool.held || []).map((h) => ({
      seq: h.seq, state: "held", table: h.table, round: h.round, seat: h.hit.seat, category: h.hit.category, amount: h.amount != null ? h.amount : h.hit.amount,
      committedAt: h.heldAt, windowClosesAt: h.payAfter, acknowledged: h.acknowledged,
    }));
    const known = new Set(state.hits.map((h) => h.seq));
    // Paid and voided hits come from /hits?state=all where the API lists
    // them; else from the pool's last hits (their state when it says so).
    const heldSeqs = new Set(held.map((h) => h.seq));
    const past = (state.pool.lastHits || []).filter((h) => !known.has(h.seq) && !heldSeqs.has(h.seq) && (!h.state || h.state === "paid" || h.state === "voided"))
      .map((h) => ({ seq: h.seq, state: h.state || "paid", table: h.table, round: h.round, seat: h.seat, category: h.category, amount: h.paid, paidAt: h.paidAt, voidedAt: h.voidedAt }));
    return [...held.filter((h) => !known.has(h.seq)), ...past, ...state.hits].sort((a, b) => b.seq - a.seq);
  }

  function renderHits(first) {
    const rows = queueRows();
    // Pending or held hits: the alert and the beep, for those already
    // waiting when the pool is opened and for each that arrives later
    // (each announced once: a dismissed alert does not come back).
    const waiting = rows.filter((h) => h.state === "pending" || h.state === "held");
    if (state.seen === null || first) {
      state.seen = new Set(waiting.map((h) => h.seq));
      if (waiting.length) raiseAlert(waiting, "Jackpot hit waiting");
    } else {
      const fresh = waiting.filter((h) => !state.seen.has(h.seq));
      for (const h of fresh) state.seen.add(h.seq);
      if (fresh.length) raiseAlert(fresh, "New jackpot hit");
    }
    showAlert(waiting);
    const stamp = (t, a) => (t || a) ? [clock(t), a ? " · " + who(a) : ""].join("") : "";
    redraw("queue", (rows.length ? rows.map((h) => TS.el("tr", { "data-seq": h.seq, class: "state-" + h.state },
      TS.el("td", { class: "num" }, h.seq),
      TS.el("td", {}, TS.el("span", { class: "badge state-" + h.state }, h.state), openVoid(h.seq) ? " · void proposed" : ""),
      TS.el("td", {}, h.table), TS.el("td", {}, h.seat), TS.el("td", {}, hand(h.category || h.hand)),
      TS.el("td", { class: "num" }, amountCell(h)),
      TS.el("td", {}, clock(h.committedAt)),
      TS.el("td", {}, h.windowClosesAt ? clock(h.windowClosesAt) : ""),
      TS.el("td", {}, stamp(h.confirmedAt, h.confirmedBy)),
      TS.el("td", {}, stamp(h.paidAt, h.paidBy)),
      TS.el("td", {}, h.state === "voided" ? stamp(h.voidedAt, h.voidedBy) + (h.voidApprovedBy ? " · approved by " + who(h.voidApprovedBy) : "") + (h.voidReason ? " · " + h.voidReason : "") :
        h.state === "round_void" ? "round " + h.round + " void, nothing paid · " + (h.voidReason || "") : ""),
      TS.el("td", {}, h.state === "paid" ? action("Slip", { "data-action": "slip", "aria-label": "jackpot slip of hit " + h.seq }, () => openSlip(h.seq)) : ""))) :
      [TS.el("tr", {}, TS.el("td", { colspan: 12, class: "muted" }, "No hit yet."))]));
    $("release").classList.toggle("hidden", !rows.some((h) => h.state === "held") || !(has("supervisor") || has("cage")));
    renderPending();
    renderToPay();
  }

  // An amount as the queue shows it: a held hit's is what it would be paid
  // now, marked as not final until it is paid (ruling R21).
  function amountCell(h) {
    if (h.amount != null) return money(h.amount);
    if (h.amountNow != null) return [TS.el("span", { class: "amount-now" }, money(h.amountNow)), TS.el("span", { class: "not-final" }, "now · not final until paid (R21)")];
    return "";
  }
  const amountText = (h) => h.amount != null ? money(h.amount) : h.amountNow != null ? money(h.amountNow) + " now, not final until paid (R21)" : "";

  // Redraws keep the focus: a button focused in a row that is drawn again
  // (same row, same action) has the focus again afterwards.
  function redraw(table, rows) {
    const tbody = $(table).querySelector("tbody");
    const a = document.activeElement;
    const tr = a && a.dataset && a.dataset.action && tbody.contains(a) ? a.closest("tr") : null;
    const key = tr ? [tr.dataset.seq || "", tr.dataset.proposal || "", a.dataset.action] : null;
    tbody.replaceChildren(...rows);
    if (key) {
      const sel = "tr" + (key[0] ? '[data-seq="' + key[0] + '"]' : "") + (key[1] ? '[data-proposal="' + key[1] + '"]' : "") + ' [data-action="' + key[2] + '"]';
      const again = tbody.querySelector(sel);
      if (again) again.focus();
    }
  }

  // The banner names every announced hit not yet dismissed that still
  // waits (pending or held); it goes when none is left. Until each is
  // acknowledged by a named person (the API records who, issue 35), the
  // sound repeats, the page's title says a hit waits and Acknowledge is
  // offered; then Dismiss hides the banner (the hits stay in the queue and
  // in the pending hits).
  const baseTitle = document.title;
  const repeatMs = 2500;
  let repeat = 0;
  function raiseAlert(hits, title) {
    for (const h of hits) state.announced.add(h.seq);
    Console.raised++;
    $("hit-alert-h").textContent = title;
    showAlert(hits);
    beep();
    notify(hits);
  }
  function showAlert(waiting) {
    const shown = waiting.filter((h) => state.announced.has(h.seq));
    state.alerted = shown;
    // Each amount in a span that never wraps ("SGD / 100,001.73").
    const amt = (h) => h.amount != null ? [" · ", TS.el("span", { class: "amount-now" }, money(h.amount))]
      : h.amountNow != null ? [" · ", TS.el("span", { class: "amount-now" }, money(h.amountNow)), " now, not final until paid (R21)"] : [];
    const lines = shown.map((h) => TS.el("p", {}, (h.state === "held" ? "Hit held for its settle window" : "Hit pending verification") +
      ": table " + h.table + " · seat " + h.seat + " · " + hand(h.category || h.hand), amt(h),
      (h.windowClosesAt ? " · window closes " + clock(h.windowClosesAt) : "") +
      (h.acknowledged ? " · acknowledged by " + who(h.acknowledged.by) + " at " + clock(h.acknowledged.at) : " · not acknowledged yet")));
    const text = $("hit-alert-text");
    if (text.textContent !== lines.map((l) => l.textContent).join("")) text.replaceChildren(...lines);
    const waitingAck = shown.filter((h) => !h.acknowledged).length;
    const ack = $("hit-alert-ack"), dismiss = $("hit-alert-dismiss");
    const hadFocus = document.activeElement === ack;
    ack.classList.toggle("hidden", !waitingAck);
    dismiss.classList.toggle("hidden", !!waitingAck);
    if (hadFocus && !waitingAck) dismiss.focus();
    $("hit-alert").classList.toggle("hidden", !shown.length);
    $("hit-alert").classList.toggle("unacknowledged", !!waitingAck);
    document.title = waitingAck ? "(" + waitingAck + ") JACKPOT HIT waiting: acknowledge · " + baseTitle : baseTitle;
    // The sound repeats while a hit waits unacknowledged (and not muted).
    if (waitingAck && !repeat) repeat = setInterval(() => { if ((state.alerted || []).some((h) => !h.acknowledged)) beep(); }, repeatMs);
    if (!waitingAck && repeat) { clearInterval(repeat); repeat = 0; }
    scrollRoom();
  }
  function hideAlert() {
    state.announced.clear(); state.alerted = [];
    $("hit-alert").classList.add("hidden"); $("hit-alert-text").replaceChildren();
    if (repeat) { clearInterval(repeat); repeat = 0; }
    document.title = baseTitle;
    scrollRoom();
  }
  // The sticky alert never covers what the page scrolls to (a heading
  // focused after an action, a row): the page keeps its height free at the top.
  function scrollRoom() {
    const a = $("hit-alert");
    const h = a.classList.contains("hidden") ? 0 : Math.ceil(a.getBoundingClientRect().height) + 12;
    document.documentElement.style.scrollPaddingTop = h + "px";
  }
  if (window.ResizeObserver) new ResizeObserver(scrollRoom).observe($("hit-alert"));

  // Acknowledge: each hit of the banner not yet acknowledged, by the
  // signed-in principal (the API records who and when, and every console
  // stops sounding).
  $("hit-alert-ack").addEventListener("click", async () => {
    const b = $("hit-alert-ack");
    const todo = (state.alerted || []).filter((h) => !h.acknowledged);
    let out;
    for (const h of todo) {
      out = await send(b, "POST", poolPath("/hits/" + h.seq + "/acknowledge"));
      if (!out) return;
      h.acknowledged = out.hit && out.hit.acknowledged;
    }
    showAlert(state.alerted || []);
    // The button was disabled while sending (which blurs it): the focus
    // goes to Dismiss, now offered.
    const a = document.activeElement;
    if (!a || a === document.body || a === b) $("hit-alert-dismiss").focus();
    await done(out);
  });

  // Desktop notifications: asked for on a click (browsers allow the
  // question only on a user gesture), for this browser session.
  const notifyKey = "tablesettle.notify";
  const notifying = () => sessionStorage.getItem(notifyKey) === "1" && window.Notification && Notification.permission === "granted";
  function showNotify() {
    const b = $("notify");
    const on = notifying();
    b.setAttribute("aria-pressed", on ? "true" : "false");
    b.textContent = !window.Notification ? "Desktop notifications: not offered by this browser"
      : Notification.permission === "denied" ? "Desktop notifications: blocked by the browser"
      : "Desktop notifications: " + (on ? "on" : "off");
    b.disabled = !window.Notification;
  }
  $("notify").addEventListener("click", async () => {
    if (!window.Notification) return;
    if (notifying()) { sessionStorage.removeItem(notifyKey); showNotify(); return; }
    const p = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    if (p === "granted") sessionStorage.setItem(notifyKey, "1");
    showNotify();
  });
  function notify(hits) {
    if (!notifying()) return;
    for (const h of hits) {
      try {
        new Notification("Jackpot hit: table " + h.table + " seat " + h.seat, {
          body: hand(h.category || h.hand) + (amountText(h) ? " · " + amountText(h) : "") + " · " + (h.state === "held" ? "held for its settle window" : "pending verification") + ". Acknowledge it in the console.",
          tag: "tablesettle-hit-" + state.poolId + "-" + h.seq, requireInteraction: true,
        });
        Console.notified++;
      } catch (_) { /* a page may not create one itself (Android): the banner still shows */ }
    }
  }

  // ---- the printable jackpot slip of a paid hit
  // A slip is printed when Print is pressed: the console records the
  // print (POST .../slip/prints: the first takes the pool's next serial,
  // later ones are REPRINT n), draws the slip as recorded, then prints.
  let slipSeq = 0;
  function drawSlip(sl, printed) {
    const c = sl.currency;
    const row = (k, v) => TS.el("tr", {}, TS.el("th", { scope: "row" }, k), TS.el("td", {}, v));
    const prints = sl.prints || [];
    const sign = (k) => TS.el("div", { class: "signature" }, TS.el("span", { class: "sig-line", "aria-hidden": "true" }), TS.el("span", {}, k));
    $("slip-body").replaceChildren(
      TS.el("h2", { id: "slip-h" }, "Jackpot slip · " + (sl.displayName || sl.pool)),
      printed && printed.mark ? TS.el("p", { class: "reprint", id: "slip-mark" }, printed.mark) : "",
      TS.el("table", { class: "slip" }, TS.el("tbody", {},
        row("Serial", sl.serial ? String(sl.serial) : "not printed yet: Print gives it its serial"),
        row("Hit", String(sl.seq)), row("Table", sl.table), row("Round", sl.round), row("Seat", String(sl.seat)),
        row("Hand", hand(sl.hand)), row("Amount", TS.money(sl.amount, c)), row("Committed", when(sl.committedAt)),
        row("Verified by", sl.verifiedBy ? who(sl.verifiedBy) + " · " + when(sl.verifiedAt) : "paid at its commit"),
        row("Paid by", who(sl.paidBy) + " · " + when(sl.paidAt)),
        row("Rules", (sl.rules || []).join(", ")),
        row("Printed", prints.length ? prints.map((p) => (p.mark || "original") + " · " + who(p.by) + " · " + when(p.at)).join("; ") : "never"))),
      TS.el("div", { class: "signatures" }, sign("Winner"), sign("Supervisor"), sign("Cashier"), sign("Security")));
  }
  async function openSlip(seq) {
    const sl = await act(() => TS.call("GET", poolPath("/hits/" + seq + "/slip")));
    if (!sl) return;
    slipSeq = seq;
    drawSlip(sl, null);
    $("slip-dialog").showModal();
  }
  $("slip-print").addEventListener("click", async () => {
    const b = $("slip-print");
    if (!slipSeq || !state.pool) return;
    const out = await send(b, "POST", poolPath("/hits/" + slipSeq + "/slip/prints"));
    if (!out) return;
    drawSlip(out, out.printed);
    $("slip-result").textContent = (out.printed.mark || "Original") + " of slip " + out.serial + " recorded as printed by " + who(out.printed.by) + ".";
    if (!navigator.webdriver) window.print();
  });

  // ---- the shift report: JSON shown, CSV downloaded
  // Both empty: the current shift (the API cuts it by the floor's shift
  // boundaries); the fields then show the shift's range.
  function reportRange() {
    const from = $("r-from").value, to = $("r-to").value;
    if (!from && !to) return "?shift=current";
    if (!from || !to) { showProblem("The report needs both From and To, or neither (the current shift)."); return null; }
    return "?from=" + encodeURIComponent(new Date(from).toISOString()) + "&to=" + encodeURIComponent(new Date(to).toISOString());
  }
  const localInput = (t) => { const d = new Date(t); return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 19); };
  const lineNames = { opening: "Opening", contributions: "+ contributions", seeds_and_resets: "+ seeds and resets", hits: "− hits", adjustments: "± adjustments", corrections: "± corrections", closing: "= closing" };
  function reconciliation(r) {
    const c = r.currency, ls = (r.reconciliation && r.reconciliation.lines) || [];
    const meters = ["displayed", "reserve", "overflow", "house"];
    const sum = {};
    for (const m of meters) sum[m] = ls.slice(0, 6).reduce((a, l) => a + (l[m] || 0), 0);
    const adds = ls.length === 7 && meters.every((m) => sum[m] === (ls[6][m] || 0));
    const signed = (l, m) => TS.money(l[m] || 0, c, l.line !== "opening" && l.line !== "closing");
    return [
      TS.el("div", { class: "scroll-x", "data-label": "reconciliation" }, TS.el("table", { id: "reconciliation" },
        TS.el("caption", {}, "Reconciliation: each meter's opening plus its movements is its closing"),
        TS.el("thead", {}, TS.el("tr", {}, TS.el("th", { scope: "col" }, "Line"), TS.el("th", { scope: "col", class: "num" }, "Entries"),
          ...meters.map((m) => TS.el("th", { scope: "col", class: "num" }, m === "house" ? "house funded" : m)))),
        TS.el("tbody", {}, ...ls.map((l) => TS.el("tr", { "data-line": l.line, class: l.line === "closing" ? "total" : "" },
          TS.el("th", { scope: "row" }, lineNames[l.line] || l.line), TS.el("td", { class: "num" }, l.line === "opening" || l.line === "closing" ? "" : String(l.entries)),
          ...meters.map((m) => TS.el("td", { class: "num" }, signed(l, m)))))))),
      TS.el("p", { id: "reconciliation-check", class: adds ? "ok" : "bad" }, adds ? "The lines add up to the closing meters, to the cent." : "The lines do not add up to the closing meters."),
    ];
  }
  async function showReport() {
    const q = reportRange();
    if (!q) return;
    const r = await act(() => TS.call("GET", poolPath("/report" + q)));
    if (!r) return;
    if (r.shift) { $("r-from").value = localInput(r.from); $("r-to").value = localInput(r.to); }
    const c = r.currency;
    const signedBy = (a) => a.actor ? " · " + who(a.actor) + (a.approvedBy ? " approved by " + who(a.approvedBy) : "") : "";
    const mm = (m) => m ? "displayed " + TS.money(m.displayed, c) + " · reserve " + TS.money(m.reserve, c) + " · overflow " + TS.money(m.overflow, c) : "";
    const lines = [
      (r.shift ? "The " + r.shift + " shift (" + r.shifts + "): " : "") + when(r.from) + " to " + when(r.to),
      "Opening meters: " + mm(r.opening),
      "Closing meters: " + mm(r.closing),
      "Contributed: " + TS.money((r.contributed.displayed || 0) + (r.contributed.reserve || 0) + (r.contributed.overflow || 0), c) + " from " + (r.contributed.rounds || 0) + " rounds" +
        (r.contributions || []).map((t) => " · " + t.table + " " + TS.money((t.displayed || 0) + (t.reserve || 0) + (t.overflow || 0), c)).join(""),
      "Hits: " + (r.hits || []).length + (r.hits || []).map((h) => " · " + h.table + " seat " + h.seat + " " + hand(h.category || h.hand) + " " + TS.money(h.amount !== undefined ? h.amount : h.paid, c) + " (" + h.state + ")").join(""),
      "Adjustments: " + (r.adjustments || []).length + (r.adjustments || []).map((a) => " · " + (a.meter || "") + " " + TS.money(a.amount, c, true) + (a.reason ? " (" + a.reason + ")" : "") + signedBy(a)).join(""),
      "Corrections: " + (r.corrections || []).length + (r.corrections || []).map((a) => " · " + a.kind + " " + (a.table ? a.table + "/" + a.round + " " : "") + TS.money(a.amount, c, true) + signedBy(a)).join(""),
      "Liabilities: " + TS.money(r.liabilities ? r.liabilities.total : 0, c) + " (" + ((r.liabilities && r.liabilities.pending) || []).length + " pending, " +
        ((r.liabilities && r.liabilities.confirmed) || []).length + " confirmed, " + ((r.liabilities && r.liabilities.held) || []).length + " held)",
    ];
    $("report-result").replaceChildren(...reconciliation(r), ...lines.map((l) => TS.el("p", {}, l)));
  }
  async function downloadReport() {
    const q = reportRange();
    if (!q) return;
    showProblem(null);
    try {
      const res = await TS.send("GET", poolPath("/report" + q + "&format=csv"), undefined, { "Accept": "text/csv" });
      const text = await res.text();
      if (!res.ok) { let b = null; try { b = JSON.parse(text); } catch (_) { b = { detail: text }; } throw new TS.Problem(res.status, b); }
      const a = TS.el("a", { href: URL.createObjectURL(new Blob([text], { type: "text/csv" })), download: "report-" + state.poolId + ".csv" });
      document.body.append(a); a.click(); a.remove();
      $("report-result").dataset.csv = text;
    } catch (e) { showProblem(e); }
  }
  $("report-form").addEventListener("submit", (ev) => { ev.preventDefault(); showReport(); });
  $("r-csv").addEventListener("click", downloadReport);
  $("r-shift").addEventListener("click", () => { $("r-from").value = ""; $("r-to").value = ""; showReport(); });

  // ---- the sound: a short WebAudio beep; muted lasts this browser
  // session (sessionStorage: the next shift's browser starts with sound).
  const muteKey = "tablesettle.mute";
  const muted = () => sessionStorage.getItem(muteKey) === "1";
  let audio = null;
  function beep() {
    if (muted()) return;
    Console.beeps++;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
      const o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 880;
      g.gain.setValueAtTime(0.2, audio.currentTime);
      g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.6);
      o.connect(g).connect(audio.destination);
      o.start(); o.stop(audio.currentTime + 0.6);
    } catch (_) { /* no audio device: the banner still shows */ }
  }
  function showMute() {
    const m = muted();
    $("mute").setAttribute("aria-pressed", m ? "true" : "false");
    $("mute").classList.toggle("is-muted", m);
    $("mute-words").textContent = m ? "Alert sound muted" : "Alert sound on";
    $("mute-waves").classList.toggle("hidden", m);
    $("mute-cross").classList.toggle("hidden", !m);
  }
  $("mute").addEventListener("click", () => { if (muted()) sessionStorage.removeItem(muteKey); else sessionStorage.setItem(muteKey, "1"); showMute(); });
  $("hit-alert-dismiss").addEventListener("click", () => { hideAlert(); $("queue-h").focus(); });

  // A void reason being typed survives the live redraws (a round at any
  // table changes the pool), and so does the focus in it.
  const reasons = new Map();
  function renderPending() {
    const a = document.activeElement;
    const focusedSeq = a && a.dataset && a.dataset.reasonFor;
    const caret = focusedSeq ? [a.selectionStart, a.selectionEnd] : null;
    const rows = state.hits.filter((h) => h.state === "pending").map((h) => {
      const reason = TS.el("input", { "aria-label": "reason to void hit " + h.seq, placeholder: "reason to void", size: 18, "data-reason-for": h.seq });
      reason.value = reasons.get(h.seq) || "";
      reason.addEventListener("input", () => { reasons.set(h.seq, reason.value); if ($("problem").dataset.reason) showProblem(null); });
      const proposal = openVoid(h.seq);
      return TS.el("tr", { "data-seq": h.seq },
        TS.el("td", { class: "num" }, h.seq), TS.el("td", {}, h.table), TS.el("td", {}, h.round), TS.el("td", {}, h.seat),
        TS.el("td", { class: "cite" }, h.cards || ""), TS.el("td", {}, hand(h.category || h.hand)),
        TS.el("td", { class: "num" }, money(h.amount)), TS.el("td", {}, when(h.committedAt)),
        TS.el("td", {}, action("Confirm", { class: "primary", "data-action": "confirm" }, async (b) => {
          if (!await ask("Confirm hit " + h.seq + "?", [...hitFacts(h), "The cage may then pay it."], "Confirm " + money(h.amount))) return;
          done(await send(b, "POST", poolPath("/hits/" + h.seq + "/confirm")), "pending-h");
        })),
        TS.el("td", { class: "void-cell" }, proposal
          ? TS.el("span", { class: "muted" }, "void proposal " + proposal.id + " waits for a controller")
          : [reason, " ", action("Void…", { class: "danger", "data-action": "void" }, async (b) => {
            const why = reason.value.trim();
            if (!why) { showProblem("A void needs its reason: what the cards really were."); $("problem").dataset.reason = "1"; reason.focus(); return; }
            if (!await ask("Propose to void hit " + h.seq + "?", [...hitFacts(h), money(h.amount) + " returns to where it came from once a controller approves.", "Reason: " + why], "Propose the void", true)) return;
            const out = await send(b, "POST", poolPath("/hits/" + h.seq + "/void"), { reason: why });
            if (out) $("void-result").textContent = "Void of hit " + h.seq + " proposed" + (out.proposal ? " (proposal " + out.proposal.id + ")" : "") + ": it waits for a controller's approval.";
            done(out, "pending-h");
          })]));
    });
    redraw("pending", (rows.length ? rows : [TS.el("tr", {}, TS.el("td", { colspan: 10, class: "muted" }, "No pending hit."))]));
    if (focusedSeq) {
      const again = $("pending").querySelector('input[data-reason-for="' + focusedSeq + '"]');
      if (again) { again.focus(); again.setSelectionRange(caret[0], caret[1]); }
    }
  }

  function renderToPay() {
    const rows = state.hits.filter((h) => h.state === "confirmed").map((h) => TS.el("tr", { "data-seq": h.seq },
      TS.el("td", { class: "num" }, h.seq), TS.el("td", {}, h.table), TS.el("td", {}, h.seat), TS.el("td", {}, hand(h.category || h.hand)),
      TS.el("td", { class: "num" }, money(h.amount)),
      TS.el("td", {}, h.confirmedBy ? h.confirmedBy.id + " · " + when(h.confirmedAt) : ""),
      TS.el("td", {}, action("Mark paid", { class: "primary", "data-action": "paid" }, async (b) => {
        if (!await ask("Mark hit " + h.seq + " paid?", [...hitFacts(h), "Verified by " + who(h.confirmedBy) + ". Only after the winner holds " + money(h.amount) + "."], "Mark " + money(h.amount) + " paid")) return;
        done(await send(b, "POST", poolPath("/hits/" + h.seq + "/paid")), "pay-h");
      }))));
    redraw("topay", (rows.length ? rows : [TS.el("tr", {}, TS.el("td", { colspan: 7, class: "muted" }, "Nothing to pay."))]));
  }

  // ---- proposals: what each will do in money; Approve (controller),
  // Withdraw (its proposer).
  function effectLines(p) {
    const lines = [];
    const e = p.effect || null;
    const meterLine = (name, before, after) => name + " meter " + money(after - before, true) + " (now " + money(before) + ", after " + money(after) + ")";
    if (p.void) {
      const h = state.hits.find((x) => x.seq === p.void.seq) || {};
      const f = (k, hk) => (e && e[k]) || h[hk || k];
      const amount = (e && e.amount) || h.amount;
      lines.push("void hit " + p.void.seq + ": table " + (f("table") || "?") + " · seat " + (f("seat") || "?") + " · " + hand(f("hand", "category")) +
        (amount !== undefined ? " · " + money(amount) + " back to where it came from" : ""));
    }
    if (p.correction) {
      const c = p.correction;
      lines.push((c.corrected ? "correct" : "void") + " round " + (c.table || "") + "/" + (c.round || ""));
    }
    if (e && e.error) lines.push("would be refused if approved now: " + e.error);
    const ms = (e && e.meters) || null;
    if (ms) {
      for (const name of meterNames) {
        const m = ms[name];
        if (m && m.before !== m.after) lines.push(meterLine(name, m.before, m.after));
      }
    } else if (p.adjustment) {
      const a = p.adjustment;
      const before = state.pool && state.pool.meters ? state.pool.meters[a.meter] : undefined;
      lines.push(before !== undefined ? meterLine(a.meter, before, before + a.amount) : a.meter + " meter " + money(a.amount, true));
    }
    if (e && e.recovered) lines.push("the house recovers " + money(e.recovered) + " from the winner");
    if (p.settings) lines.push("settings: " + Object.entries(p.settings).filter(([k]) => k !== "reason").map(([k, v]) => k + " " + (typeof v === "object" ? JSON.stringify(v) : v)).join(", "));
    const a = p.adjustment;
    const reason = (e && e.reason) || (a && a.reason) || (p.void && p.void.reason) || (p.correction && p.correction.reason) || (p.settings && p.settings.reason) || p.reason;
    if (reason) lines.push("reason: " + reason);
    if (!lines.length) lines.push(p.summary || p.kind);
    return lines;
  }

  function renderProposals() {
    const mine = (p) => state.me && p.proposedBy && p.proposedBy.id === state.me.id;
    const rows = state.proposals.filter((p) => !p.state || p.state === "open").map((p) => TS.el("tr", { "data-proposal": p.id },
      TS.el("td", {}, p.id), TS.el("td", {}, p.kind),
      TS.el("td", {}, effectLines(p).join(" · ")),
      TS.el("td", {}, who(p.proposedBy)),
      TS.el("td", {}, when(p.expiresAt)),
      TS.el("td", {},
        has("controller") && !mine(p) ? action("Approve", { class: "primary", "data-action": "approve" }, async (b) => {
          // A correction: what it changes in the round too (corrections.js).
          const diff = p.correction && Console.roundDiff ? await Console.roundDiff(p) : [];
          if (!await ask("Approve proposal " + p.id + "?", [...diff, ...effectLines(p), "Proposed by " + who(p.proposedBy) + "."], "Approve")) return;
          done(await send(b, "POST", poolPath("/proposals/" + encodeURIComponent(p.id) + "/approve")), "proposals-h");
        }) : "",
        mine(p) ? action("Withdraw", { "data-action": "withdraw" }, async (b) => {
          done(await send(b, "POST", poolPath("/proposals/" + encodeURIComponent(p.id) + "/withdraw")), "proposals-h");
        }) : "")));
    redraw("proposals", (rows.length ? rows : [TS.el("tr", {}, TS.el("td", { colspan: 6, class: "muted" }, "Nothing waits for a second signature."))]));
  }

  // ---- propose a meter adjustment (admin), typed in currency units
  async function proposeAdjustment() {
    const button = $("adjust-form").querySelector("button[type=submit]");
    if (button.disabled || !state.pool) return;
    const parsed = TS.parseMoney($("adjust-amount").value, cur());
    if (parsed.error) { showProblem(parsed.error); return; }
    if (parsed.minor === 0) { showProblem("The adjustment may not be " + money(0) + "."); return; }
    const meter = $("adjust-meter").value, holds = state.pool.meters[meter];
    if (typeof holds === "number" && holds + parsed.minor < 0) {
      showProblem("The " + meter + " meter holds " + money(holds) + ": " + money(parsed.minor, true) + " would take it below zero."); return;
    }
    const out = await send(button, "POST", poolPath("/adjustments"),
      { meter: $("adjust-meter").value, amount: parsed.minor, reason: $("adjust-reason").value.trim() });
    if (out) {
      $("adjust-result").textContent = out.proposal ? "Proposal " + out.proposal.id + " (" + $("adjust-meter").value + " " + money(parsed.minor, true) + ") waits for a controller's approval." : "Recorded.";
      await done(out);
    }
  }

  // ---- held hits (RWS): release those whose window has passed
  // The answer is said: what was paid, or that no held hit is due yet
  // and when the first window closes (ruling R7: not paid before).
  $("release").addEventListener("click", async () => {
    if (!state.pool) return;
    const b = $("release");
    $("release-result").textContent = "";
    const out = await send(b, "POST", poolPath("/release"), undefined);
    let said = "";
    if (out) {
      const paid = out.paid || [];
      const held = ((out.pool && out.pool.held) || []).slice().sort((x, y) => String(x.payAfter).localeCompare(String(y.payAfter)));
      said = paid.length
        ? "Released " + paid.length + " held hit" + (paid.length > 1 ? "s" : "") + ": " + paid.map((p) => "table " + p.table + " seat " + p.seat + " " + money(p.amount)).join(", ") + "."
        : "No held hit is due" + (held.length ? ": table " + held[0].table + " seat " + held[0].hit.seat + " waits, its window closes " + clock(held[0].payAfter) + "." : ".");
    }
    await done(out, "queue-h");
    if (out && b.isConnected && !b.classList.contains("hidden") && document.activeElement !== b) b.focus();
    // Said last, once the focus is back where the user left it (the
    // button was disabled while sending, which blurs it).
    if (said) $("release-result").textContent = said;
  });

  // ---- the ledger: newest first, each entry's signed meter movements;
  // new entries are added as the pool's ledger grows (not reloaded).
  function entryMoves(e) {
    const moves = meterNames.filter((m) => e[m]).map((m) => m + " " + money(e[m], true));
    if (!moves.length && typeof e.amount === "number" && e.amount) moves.push(money(e.amount, true));
    if (e.paid) moves.push("paid " + money(e.paid));
    if (e.recovered) moves.push("recovered " + money(e.recovered));
    return moves.join(" · ") || "—";
  }

  // What a proposal entry proposed, as it was written (not as it would
  // apply now).
  function proposedText(c) {
    if (c.adjustment) return c.adjustment.meter + " meter " + money(c.adjustment.amount, true);
    if (c.void) return "void hit " + c.void.seq;
    if (c.correction) return (c.correction.corrected ? "correct" : "void") + " round " + (c.correction.table || "") + "/" + (c.correction.round || "");
    if (c.settings) return "settings " + Object.keys(c.settings).filter((k) => k !== "reason").join(", ");
    return c.kind || "";
  }

  // The ledger newest first: the newest page first (order=desc), older
  // pages on demand (before=next), newer entries as the pool's ledger
  // grows (after=the newest shown): never the whole ledger again. A server
  // that does not page newest first (its answer comes oldest first) is
  // read oldest first instead, once.
  const ledgerPage = 200;
  async function loadLedgerNew(gen) {
    if (!state.me || !(state.me.roles || []).some((r) => readers.includes(r))) return;
    const total = state.pool ? state.pool.ledgerEntries : 0;
    if (!state.ledger.length) {
      const out = await TS.call("GET", poolPath("/ledger?order=desc&limit=" + ledgerPage));
      if (gen !== state.generation) return;
      const es = out.entries || [];
      if (es.length < 2 || es[0].seq > es[1].seq) {
        state.ledger = es;
        state.ledgerNext = out.next || null;
        renderLedger();
        return;
      }
    }
    let after = state.ledger.length ? state.ledger[0].seq : 0;
    const fresh = [];
    while (after < total) {
      const out = await TS.call("GET", poolPath("/ledger?limit=1000&after=" + after));
      if (gen !== state.generation || !out.entries.length) break;
      fresh.push(...out.entries);
      after = out.entries[out.entries.length - 1].seq;
      if (out.entries.length < 1000) break;
    }
    if (gen !== state.generation) return;
    if (fresh.length) state.ledger = fresh.reverse().concat(state.ledger);
    renderLedger();
  }

  async function loadLedgerOlder() {
    if (!state.ledgerNext) return;
    const gen = state.generation;
    const out = await act(() => TS.call("GET", poolPath("/ledger?order=desc&limit=" + ledgerPage + "&before=" + state.ledgerNext)));
    if (!out || gen !== state.generation) return;
    const oldest = state.ledger.length ? state.ledger[state.ledger.length - 1].seq : Infinity;
    state.ledger = state.ledger.concat((out.entries || []).filter((e) => e.seq < oldest));
    state.ledgerNext = out.next || null;
    renderLedger();
  }

  function renderLedger() {
    const entries = state.ledger;
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
    const total = state.pool ? state.pool.ledgerEntries : entries.length;
    $("ledger-count").textContent = shown.length + " of " + entries.length + " loaded entries shown (" + total + " in the ledger), newest first";
    $("ledger-more").classList.toggle("hidden", !state.ledgerNext);
    const tbody = $("ledger").querySelector("tbody");
    tbody.replaceChildren(...shown.map((e) => TS.el("tr", { "data-seq": e.seq },
      TS.el("td", { class: "num" }, e.seq),
      TS.el("td", {}, when(e.at)),
      TS.el("td", {}, e.kind),
      TS.el("td", {}, e.table ? TS.el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); $("f-table").value = e.table; renderLedger(); } }, e.table) : ""),
      TS.el("td", {}, e.round ? TS.el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); $("f-round").value = e.round; renderLedger(); } }, e.round) : ""),
      TS.el("td", {}, e.seat || ""),
      TS.el("td", {}, hand(e.category)),
      TS.el("td", { class: "num" }, entryMoves(e)),
      TS.el("td", {}, [e.proposed ? "proposed: " + proposedText(e.proposed) : "", e.note, e.reason].filter(Boolean).join(" · ")),
      TS.el("td", {}, who(e.actor) || e.by || "", e.approvedBy ? " · approved by " + who(e.approvedBy) : ""),
      TS.el("td", {}, (e.rules || []).map((r) => Cite.link(r))))));
  }
  $("ledger-more").addEventListener("click", loadLedgerOlder);

  // ---- reconcile (controller)
  async function reconcile() {
    const out = await act(() => TS.call("GET", poolPath("/reconcile")));
    if (!out) return;
    const lines = [TS.el("p", { class: out.ok ? "ok" : "bad" }, out.ok
      ? "Reconciled: the meters equal the ledger's " + out.entries + " entries."
      : "DOES NOT RECONCILE over " + out.entries + " entries.")];
    for (const d of out.differences || []) lines.push(TS.el("p", { class: "bad" }, d.meter + ": meters " + money(d.meters) + ", ledger " + money(d.ledger)));
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
  $("signout").addEventListener("click", () => {
    TS.signOut(); state.me = null; clearTimeout(state.timer); state.generation++; state.pool = null; applyRoles();
  });
  $("pool-form").addEventListener("submit", (ev) => { ev.preventDefault(); openPool($("pool-id").value.trim()); });
  $("ledger-form").addEventListener("submit", (ev) => { ev.preventDefault(); renderLedger(); });
  $("f-clear").addEventListener("click", () => { for (const id of ["f-table", "f-round", "f-from", "f-to"]) $(id).value = ""; $("f-kind").value = ""; renderLedger(); });
  $("reconcile").addEventListener("click", reconcile);
  $("adjust-form").addEventListener("submit", (ev) => { ev.preventDefault(); proposeAdjustment(); });

  Object.assign(Console, { act, money, when, poolPath, $ });
  window.Console = Console;
  // What the corrections module (corrections.js) uses of the console.
  Object.assign(Console, { act, send, ask, done, money, who, when, hand, poolPath, showProblem, has, cur });
  showMute();
  showNotify();
  if (TS.iam()) {
    $("mode-iam").checked = true;
    $("iam-key").value = TS.iam().accessKeyId;
    $("iam-region").value = TS.iam().region;
  }
  showMode();
  if (TS.signedIn()) signIn(null); else applyRoles();
})();
