// Corrections and voids of a whole round from the console (issue 35 item
// 2). A supervisor finds an applied round by its table and round id
// (GET /v1/pools/{id}/rounds/{table}/{round}: the round as the table sent
// it, and its answer), edits its cards or wagers, and proposes the
// correction (or a void of the whole round); the answer's proposal shows
// every meter before and after (the proposal's effect: a dry run on the
// pool as it stands). A controller, another person, approves it in the
// proposals card; the approval dialog states what changed in the round
// (Console.roundDiff) before the meters.
"use strict";

(() => {
  const C = window.Console;
  const $ = (id) => document.getElementById(id);
  // A table that scrolls sideways inside its card (a phone, 390 px) is
  // reached by the keyboard: while its box scrolls it is a focusable
  // region named after its card (axe: scrollable-region-focusable); while
  // it fits, it is no tab stop. Checked after every redraw and resize.
  function reachable() {
    for (const box of document.querySelectorAll(".scroll-x")) {
      const scrolls = box.scrollWidth > box.clientWidth + 1;
      if (scrolls && !box.hasAttribute("tabindex")) {
        const sec = box.closest("section"), h = sec && sec.querySelector("h2");
        box.setAttribute("tabindex", "0");
        box.setAttribute("role", "region");
        box.setAttribute("aria-label", (box.dataset.label || (h ? h.textContent : "table")) + " (scrolls sideways)");
      } else if (!scrolls && box.hasAttribute("tabindex") && document.activeElement !== box) {
        box.removeAttribute("tabindex");
        box.removeAttribute("role");
        box.removeAttribute("aria-label");
      }
    }
  }
  let queued = false;
  const soon = () => { if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; reachable(); }); } };
  new MutationObserver(soon).observe(document.querySelector("main"), { childList: true, subtree: true });
  window.addEventListener("resize", soon);
  reachable();
  let found = null; // {table, round, sent, result}

  const cardsOf = (s) => (s || "").trim().split(/[\s,]+/).filter(Boolean).join(" ");

  function roundPath(t, r) { return C.poolPath("/rounds/" + encodeURIComponent(t) + "/" + encodeURIComponent(r)); }

  // The round's answer, in words: its contribution and its payouts.
  function answerLines(res) {
    const out = [];
    const pays = (res && res.payouts) || [];
    out.push(pays.length ? "Payouts: " + pays.map((p) => "seat " + p.seat + " " + C.hand(p.category) + " " + C.money(p.amount) + " (" + p.status + ")").join(" · ") : "No jackpot payout.");
    return out;
  }

  // The editor of a round as sent: the dealer's (and community) cards, and
  // each position's cards and wagers (amounts in the pool's currency).
  function drawEditor(sent) {
    const view = $("c-round-view");
    const cur = C.cur();
    const rows = [];
    const cardInput = (id, label, value) => TS.el("label", {}, label + " ", TS.el("input", { id, value: value || "", size: 22, autocomplete: "off", spellcheck: "false", "data-orig": value || "" }));
    rows.push(TS.el("div", { class: "row" }, cardInput("c-dealer", "Dealer's cards", sent.dealer), sent.community !== undefined ? cardInput("c-community", "Community cards", sent.community) : ""));
    (sent.positions || []).forEach((p, i) => {
      const wagers = Object.entries(p.wagers || {}).map(([name, amount]) =>
        TS.el("label", {}, name + " (" + cur + ") ", TS.el("input", { id: "c-w-" + i + "-" + name, "data-wager": name, value: TS.formatMoney(amount, cur), size: 10, inputmode: "decimal", autocomplete: "off", "data-orig": TS.formatMoney(amount, cur) })));
      rows.push(TS.el("fieldset", { class: "plain row", "data-position": i },
        TS.el("legend", {}, "Seat " + p.seat),
        cardInput("c-cards-" + i, "Cards of seat " + p.seat, p.cards), ...wagers));
    });
    view.replaceChildren(TS.el("h3", {}, "Round " + found.round + " of table " + found.table + " as the table sent it"),
      ...answerLines(found.result).map((l) => TS.el("p", { class: "muted" }, l)), ...rows);
    view.querySelectorAll("input").forEach((inp) => inp.addEventListener("input", () => inp.classList.toggle("c-changed", inp.value.trim() !== inp.dataset.orig)));
  }

  // The round as edited, or an error.
  function edited() {
    const s = JSON.parse(JSON.stringify(found.sent));
    s.dealer = cardsOf($("c-dealer").value);
    if ($("c-community")) s.community = cardsOf($("c-community").value);
    const cur = C.cur();
    for (let i = 0; i < (s.positions || []).length; i++) {
      s.positions[i].cards = cardsOf($("c-cards-" + i).value);
      for (const name of Object.keys(s.positions[i].wagers || {})) {
        const v = $("c-w-" + i + "-" + name).value.trim();
        const parsed = TS.parseMoney(v === "" ? "0" : v, cur);
        if (parsed.error) return { error: "seat " + s.positions[i].seat + " " + name + ": " + parsed.error };
        if (parsed.minor < 0) return { error: "seat " + s.positions[i].seat + " " + name + ": a wager is not negative" };
        if (parsed.minor === 0) delete s.positions[i].wagers[name]; else s.positions[i].wagers[name] = parsed.minor;
      }
    }
    return { round: s };
  }

  // What changes from round a to round b (as sent), line by line.
  function diffLines(a, b) {
    const out = [];
    if (!b) return ["The whole round is voided: its contribution, hits and resets are taken back (ruling R28)."];
    if (!a) return ["The round as it was applied was not kept: compare the corrected round below with the table's record."];
    if ((a.dealer || "") !== (b.dealer || "")) out.push("Dealer's cards: " + a.dealer + " → " + b.dealer);
    if ((a.community || "") !== (b.community || "")) out.push("Community cards: " + (a.community || "none") + " → " + (b.community || "none"));
    const seats = new Map();
    for (const p of a.positions || []) seats.set(p.seat, [p, null]);
    for (const p of b.positions || []) seats.set(p.seat, [(seats.get(p.seat) || [null])[0], p]);
    for (const [seat, [pa, pb]] of [...seats.entries()].sort((x, y) => x[0] - y[0])) {
      if (!pa || !pb) { out.push("Seat " + seat + (pa ? " removed" : " added")); continue; }
      if ((pa.cards || "") !== (pb.cards || "")) out.push("Seat " + seat + " cards: " + (pa.cards || "none") + " → " + (pb.cards || "none"));
      const names = new Set([...Object.keys(pa.wagers || {}), ...Object.keys(pb.wagers || {})]);
      for (const n of names) {
        const wa = (pa.wagers || {})[n], wb = (pb.wagers || {})[n];
        if (wa !== wb) out.push("Seat " + seat + " " + n + ": " + (wa ? C.money(wa) : "none") + " → " + (wb ? C.money(wb) : "none"));
      }
    }
    return out.length ? out : ["No card or wager changes."];
  }

  // For the approval dialog: what proposal p changes in its round.
  C.roundDiff = async (p) => {
    const c = p.correction;
    let orig = null;
    try { orig = (await TS.call("GET", roundPath(c.table, c.round))).sent || null; } catch (_) { orig = null; }
    return ["Round " + c.round + " of table " + c.table + ":", ...diffLines(orig, c.corrected ? (c.sent || {}) : null).map((l) => "  " + l)];
  };

  // The answer: the proposal, what changes in the round, and each meter
  // before and after (the proposal's effect, from the open proposals).
  function showProposed(out, lines) {
    const pid = out && out.proposal ? out.proposal.id : null;
    const open = (C.state.proposals || []).find((x) => x.id === pid);
    const e = open && open.effect;
    const meters = e && e.meters ? ["displayed", "reserve", "overflow"].map((m) => TS.el("tr", {},
      TS.el("th", { scope: "row" }, m), TS.el("td", { class: "num" }, C.money(e.meters[m].before)), TS.el("td", { class: "num" }, C.money(e.meters[m].after)),
      TS.el("td", { class: "num" }, C.money(e.meters[m].after - e.meters[m].before, true)))) : [];
    $("correct-result").replaceChildren(
      TS.el("p", {}, "Proposal " + pid + " waits for a controller's approval (another person)."),
      ...lines.map((l) => TS.el("p", {}, l)),
      meters.length ? TS.el("div", { class: "scroll-x", "data-label": "meters before and after" }, TS.el("table", { id: "c-meters" }, TS.el("caption", {}, "Every meter before and after, if approved now"),
        TS.el("thead", {}, TS.el("tr", {}, TS.el("th", { scope: "col" }, "Meter"), TS.el("th", { scope: "col", class: "num" }, "Before"), TS.el("th", { scope: "col", class: "num" }, "After"), TS.el("th", { scope: "col", class: "num" }, "Change"))),
        TS.el("tbody", {}, ...meters))) : "",
      e && e.recovered ? TS.el("p", {}, "The house recovers " + C.money(e.recovered) + " from a winner already paid.") : "",
      e && e.error ? TS.el("p", { class: "bad" }, "Would be refused if approved now: " + e.error) : "");
  }

  $("correct-find").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const t = $("c-table").value.trim(), r = $("c-round").value.trim();
    if (!t || !r || !C.state.pool) return;
    $("correct-result").replaceChildren();
    const out = await C.act(() => TS.call("GET", roundPath(t, r)));
    $("correct-form").classList.toggle("hidden", !out);
    if (!out) { found = null; return; }
    found = { table: t, round: r, sent: out.sent || null, result: out.result };
    const submit = $("correct-form").querySelector("button[type=submit]");
    submit.classList.toggle("hidden", !found.sent);
    if (found.sent) drawEditor(found.sent);
    else $("c-round-view").replaceChildren(TS.el("p", {}, "This round was applied before its cards were kept: it can be voided here; a correction of its cards is sent through the API."), ...answerLines(found.result).map((l) => TS.el("p", { class: "muted" }, l)));
    $("c-reason").focus();
  });

  async function propose(button, voidIt) {
    if (!found || !C.state.pool) return;
    const reason = $("c-reason").value.trim(), rule = $("c-rule").value.trim();
    if (!reason) { C.showProblem("A correction states its reason."); $("c-reason").focus(); return; }
    if (voidIt && !rule) { C.showProblem("A void cites the rule that voids the round."); $("c-rule").focus(); return; }
    const body = { reason };
    if (rule) body.rules = [rule];
    let lines;
    if (!voidIt) {
      const e = edited();
      if (e.error) { C.showProblem(e.error); return; }
      body.corrected = e.round;
      lines = diffLines(found.sent, e.round);
      if (lines.length === 1 && lines[0] === "No card or wager changes.") { C.showProblem("Nothing was changed in the round: edit its cards or wagers, or void it."); return; }
    } else lines = diffLines(found.sent, null);
    const title = (voidIt ? "Propose to void round " : "Propose to correct round ") + found.round + " of table " + found.table + "?";
    if (!await C.ask(title, [...lines, "Reason: " + reason, "A controller (another person) approves it; nothing moves before."], voidIt ? "Propose the void" : "Propose the correction", voidIt)) return;
    const out = await C.send(button, "POST", roundPath(found.table, found.round) + "/correction", body);
    if (!out) return;
    await C.done(out);
    showProposed(out, lines);
    $("correct-h").focus();
  }
  $("correct-form").addEventListener("submit", (ev) => { ev.preventDefault(); propose($("correct-form").querySelector("button[type=submit]"), false); });
  $("c-void").addEventListener("click", () => propose($("c-void"), true));
})();
