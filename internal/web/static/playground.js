// The round playground: compose a round (by hand or with the card picker),
// settle it through the API, and read it as a trainee would: the dealer's
// hand and whether it qualifies, the board, each player's best five, every
// line with its wager named as the document names it and the rules it
// applied (each citation opens its text), why a void round is void, and
// what a percentage jackpot prize pays from a pool of a given size.
"use strict";

(() => {
  TS.tokenFromFragment();
  const $ = (id) => document.getElementById(id);

  // One example round per ruleset, written in the API's own request shape,
  // each valid as it stands.
  const examples = {
    "mbs-megalink-ssp-v6": { ruleset: "mbs-megalink-ssp-v6", roundId: "PG-SSP-1", currency: "SGD", dealer: "As Kd 7h 4c 2s", progressiveUnit: 100,
      positions: [{ seat: 1, cards: "Qh Qd Qs 9c 9d", wagers: { ante: 1000, bet: 2000, progressive: 100 } },
                  { seat: 2, cards: "2h 3h 4h 5h 6h", wagers: { ante: 1000, bet: 2000 } }] },
    // SSP v4: jackpot wagers are credits paid at odds (no pool unit); the
    // system's Magic Card, Lucky Player seat and Lucky Dealer are given.
    "mbs-ssp-v4": { ruleset: "mbs-ssp-v4", roundId: "PG-SSP4-1", currency: "SGD", dealer: "As Kd 7h 4c 2s", magicCard: "3c", luckyPlayerSeat: 1, luckyDealer: false,
      positions: [{ seat: 1, cards: "Qh Qd Qs 9c 9d", wagers: { ante: 1000, bet: 2000, progressivePlayer: 100, progressiveDealer: 100 } },
                  { seat: 2, cards: "2h 3h 4h 5h 6h", wagers: { ante: 1000, bet: 2000 } }] },
    "mbs-megalink-tcp-v6": { ruleset: "mbs-megalink-tcp-v6", roundId: "PG-TCP-1", currency: "SGD", dealer: "Qs 7d 2c", community: "9h 4s",
      positions: [{ seat: 1, cards: "Ah Kh Qh", wagers: { ante: 1000, play: 1000, pairPlus: 500 } }] },
    "mbs-megalink-thb-v9": { ruleset: "mbs-megalink-thb-v9", roundId: "PG-THB-1", currency: "SGD", dealer: "7c 2d", community: "Ah Kh 9s 4d 3c",
      positions: [{ seat: 1, cards: "As Ad", wagers: { ante: 1000, flop: 2000, turn: 1000, river: 1000, bonus: 500 } }] },
    "rws-mlp-csp-v2": { ruleset: "rws-mlp-csp-v2", roundId: "PG-RWS-1", currency: "SGD", dealer: "As Kd 7h 4c 2s", progressiveUnit: 100,
      positions: [{ seat: 1, cards: "Jc Jd Js Jh 2c", wagers: { ante: 1000, bet: 2000, progressive: 100 } }] },
  };

  async function loadRulesets() {
    const sel = $("ruleset");
    try {
      const out = await TS.call("GET", "/v1/rulesets");
      for (const r of out.rulesets || out) sel.append(TS.el("option", { value: r.id }, r.id + " · " + (r.name || "")));
    } catch (e) {
      for (const id of Object.keys(examples)) sel.append(TS.el("option", { value: id }, id));
    }
    loadExample();
  }

  function loadExample() {
    const id = $("ruleset").value;
    const ex = examples[id] || Object.assign({}, examples["mbs-megalink-ssp-v6"], { ruleset: id });
    $("round").value = JSON.stringify(ex, null, 2);
    pickTargets();
  }

  function showProblem(text) {
    $("problem").textContent = text;
    $("problem").classList.toggle("hidden", !text);
  }

  // The wagers' names as the ruleset's document writes them (GET
  // /v1/rulesets/{id}: each wager's label), kept per ruleset.
  const labels = {};
  async function wagerLabels(id) {
    if (!labels[id]) {
      labels[id] = {};
      try {
        const r = await TS.call("GET", "/v1/rulesets/" + encodeURIComponent(id));
        for (const w of r.wagers || []) labels[id][w.name] = w.label || w.name;
      } catch (_) { /* the API's words then */ }
    }
    return labels[id];
  }
  // A name the ruleset does not list ("anteBonus"), in words.
  const words = (name) => name.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase().replace(/^./, (c) => c.toUpperCase());

  async function settle() {
    showProblem("");
    let body;
    try { body = JSON.parse($("round").value); } catch (e) { showProblem("The round is not valid JSON: " + e.message); return; }
    try {
      const out = await TS.call("POST", "/v1/rounds/settle", body);
      render(out, await wagerLabels(out.ruleset || body.ruleset));
    } catch (e) {
      $("result-card").classList.add("hidden");
      showProblem(e instanceof TS.Problem || e instanceof TS.NetworkError ? e.describe() : String(e));
    }
  }

  const hand = (c) => (c || "").replace(/_/g, " ");

  // A percentage prize of the pool the trainee typed: floor(bp x pool /
  // 10000), in BigInt (exact), as a pool pays a single winner.
  function poolPrize(bp, cur) {
    const meter = TS.parseMoney($("pool-meter").value, cur);
    if (meter.error || meter.minor < 0) return null;
    return Number(BigInt(meter.minor) * BigInt(bp) / 10000n);
  }

  function render(out, names) {
    const cur = out.currency || "";
    const m = (a) => cur + " " + TS.formatMoney(a || 0, cur);
    $("pool-currency").textContent = cur;
    const tbody = $("lines").querySelector("tbody");
    tbody.replaceChildren();
    let fromPool = 0;
    for (const p of out.positions || []) {
      for (const l of p.lines || []) {
        let price = l.odds || "";
        const j = (p.jackpot || []).find((x) => x.wager === l.wager && x.prize && x.prize.kind === "pool_percent");
        if (j && l.result === "win") {
          const prize = poolPrize(j.prize.basisPoints, cur);
          if (prize !== null) fromPool += prize;
          price += prize === null ? " (type the pool meter above for the amount)" : " = " + m(prize) + " from a pool of " + m(TS.parseMoney($("pool-meter").value, cur).minor) + ", paid by the pool";
        }
        tbody.append(TS.el("tr", {},
          TS.el("td", {}, p.seat),
          TS.el("td", {}, p.hand ? p.hand.cards + " (" + hand(p.hand.category) + (p.hand.best && p.hand.best !== p.hand.cards ? ", best five " + p.hand.best : "") + ")" : ""),
          TS.el("td", {}, names[l.wager] || words(l.wager)),
          TS.el("td", { class: "num" }, TS.formatMoney(l.stake || 0, cur)),
          TS.el("td", {}, l.result),
          TS.el("td", {}, price),
          TS.el("td", { class: "num" }, TS.formatMoney(l.returned || 0, cur)),
          TS.el("td", { class: "num" }, TS.formatMoney(l.net || 0, cur)),
          TS.el("td", {}, (l.rules || []).map((r) => Cite.link(r)))));
      }
    }
    const t = out.totals || {};
    const why = (out.irregularities || []).map((i) => i.message).filter(Boolean);
    $("summary").textContent = (out.void ? "Round VOID" + (why.length ? ": " + why.join("; ") + ". Every wager is returned. " : ". ") : "") +
      "Staked " + m(t.staked) + ", returned " + m(t.returned) + ", house net " + m(t.houseNet) + "." +
      (fromPool ? " The pool pays " + m(fromPool) + " more (its percentage prizes, at the meter above)." : "");
    const d = out.dealer;
    $("dealer").replaceChildren(...(d ? ["Dealer: " + d.cards + " · " + hand(d.category) + (d.best && d.best !== d.cards ? " · best five " + d.best : "") +
      " · " + (d.qualifies ? "qualifies" : "does not qualify") + " ", ...(d.rules || []).map((r) => Cite.link(r))] : []));
    $("board").textContent = out.community ? "Board: " + out.community : "";
    $("result-card").classList.remove("hidden");
  }

  // ---- the card picker: 52 buttons; a card goes into the chosen field of
  // the round (the dealer, the board, a seat); a card used anywhere in the
  // round cannot be picked again.
  const ranks = ["A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2"];
  const suits = [["s", "♠", "spades"], ["h", "♥", "hearts"], ["d", "♦", "diamonds"], ["c", "♣", "clubs"]];
  function roundJSON() { try { return JSON.parse($("round").value); } catch (_) { return null; } }

  function pickTargets() {
    const r = roundJSON();
    const sel = $("pick-target");
    const chosen = sel.value;
    const opts = [["dealer", "the dealer's hand"], ["community", "the board (community cards)"]];
    for (const [i, p] of ((r && r.positions) || []).entries()) opts.push(["seat:" + i, "seat " + p.seat]);
    sel.replaceChildren(...opts.map(([v, l]) => TS.el("option", { value: v }, l)));
    if (opts.some(([v]) => v === chosen)) sel.value = chosen;
    markUsed();
  }

  function cardsOf(r) {
    return [r.dealer, r.community, r.magicCard, ...(r.positions || []).map((p) => p.cards)].filter(Boolean).join(" ").split(/\s+/).filter(Boolean);
  }
  function markUsed() {
    const r = roundJSON();
    const used = new Set(r ? cardsOf(r) : []);
    for (const b of $("picker").querySelectorAll("button")) b.disabled = used.has(b.dataset.card);
  }

  function setTarget(fn) {
    const r = roundJSON();
    if (!r) { showProblem("The round is not valid JSON: fix it before picking cards."); return; }
    const target = $("pick-target").value;
    if (target.startsWith("seat:")) {
      const p = r.positions[Number(target.slice(5))];
      p.cards = fn(p.cards || "");
    } else {
      r[target] = fn(r[target] || "");
      if (!r[target]) delete r[target];
    }
    $("round").value = JSON.stringify(r, null, 2);
    markUsed();
  }

  for (const [s, sym, name] of suits) {
    for (const rk of ranks) {
      const card = rk + s;
      // The visible card, then its name for a screen reader.
      $("picker").append(TS.el("button", { type: "button", class: "pick suit-" + s, "data-card": card,
        onclick: () => setTarget((v) => (v ? v + " " : "") + card) }, rk + sym,
        TS.el("span", { class: "visually-hidden" }, " (" + card + ", " + ({ A: "ace", K: "king", Q: "queen", J: "jack", T: "ten" }[rk] || rk) + " of " + name + ")")));
    }
  }
  $("pick-clear").addEventListener("click", () => setTarget(() => ""));
  $("round").addEventListener("input", () => { pickTargets(); });

  $("ruleset").addEventListener("change", loadExample);
  $("example").addEventListener("click", loadExample);
  $("settle").addEventListener("click", settle);
  loadRulesets();
})();
