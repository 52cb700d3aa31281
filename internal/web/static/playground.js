// The round playground: compose a round, settle it through the API, read
// every line with the rules it applied; each citation opens its text.
"use strict";

(() => {
  TS.tokenFromFragment();
  const $ = (id) => document.getElementById(id);

  // One example round per game, written in the API's own request shape.
  const examples = {
    "mbs-megalink-ssp-v6": { ruleset: "mbs-megalink-ssp-v6", roundId: "PG-SSP-1", currency: "SGD", dealer: "As Kd 7h 4c 2s", progressiveUnit: 100,
      positions: [{ seat: 1, cards: "Qh Qd Qs 9c 9d", wagers: { ante: 1000, bet: 2000, progressive: 100 } },
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
  }

  function showProblem(text) {
    $("problem").textContent = text;
    $("problem").classList.toggle("hidden", !text);
  }

  async function settle() {
    showProblem("");
    let body;
    try { body = JSON.parse($("round").value); } catch (e) { showProblem("The round is not valid JSON: " + e.message); return; }
    try {
      render(await TS.call("POST", "/v1/rounds/settle", body));
    } catch (e) {
      $("result-card").classList.add("hidden");
      showProblem(e instanceof TS.Problem ? e.describe() : String(e));
    }
  }

  function render(out) {
    const cur = out.currency || "";
    const tbody = $("lines").querySelector("tbody");
    tbody.replaceChildren();
    for (const p of out.positions || []) {
      for (const l of p.lines || []) {
        tbody.append(TS.el("tr", {},
          TS.el("td", {}, p.seat),
          TS.el("td", {}, p.hand ? p.hand.cards + " (" + (p.hand.category || "").replace(/_/g, " ") + ")" : ""),
          TS.el("td", {}, l.wager),
          TS.el("td", { class: "num" }, TS.formatMoney(l.stake || 0, cur)),
          TS.el("td", {}, l.result),
          TS.el("td", {}, l.odds || ""),
          TS.el("td", { class: "num" }, TS.formatMoney(l.returned || 0, cur)),
          TS.el("td", { class: "num" }, TS.formatMoney(l.net || 0, cur)),
          TS.el("td", {}, (l.rules || []).map((r) => Cite.link(r)))));
      }
    }
    const t = out.totals || {};
    $("summary").textContent = (out.void ? "Round VOID. " : "") + "Staked " + cur + " " + TS.formatMoney(t.staked || 0, cur) +
      ", returned " + cur + " " + TS.formatMoney(t.returned || 0, cur) + ", house net " + cur + " " + TS.formatMoney(t.houseNet || 0, cur) + ".";
    $("result-card").classList.remove("hidden");
  }

  $("ruleset").addEventListener("change", loadExample);
  $("example").addEventListener("click", loadExample);
  $("settle").addEventListener("click", settle);
  loadRulesets();
})();
