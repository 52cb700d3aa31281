// The sign (RWS 4.5.1 pays "the Progressive Jackpot value displayed on the
// display screen"): each pool's displayed meter, updated within a second
// of any change, every hit the players may see at its stage (held,
// pending verification, verified, paid as the "last won" line), and STALE
// written across the meters whenever the data could not be refreshed.
//
// A kiosk: the token comes in the fragment (#token=...), read on load and
// whenever the fragment changes, then removed from the address bar; one
// address may name several pools (/display/P1,P2: the levels of a
// progressive). Offline, a service worker answers the page itself, and the
// page keeps retrying until the API answers again.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const pollMs = 500;        // twice a second (a conditional GET): any change shows within 1 s
  const staleAfterMs = 2500; // no fresh data for this long: STALE on the meters
  const ids = decodeURIComponent(location.pathname.replace(/^\/display\//, "").replace(/\/$/, ""))
    .split(",").map((s) => s.trim()).filter(Boolean);
  const levels = [];       // per pool: { id, el, name, currency, amount, data, source }
  let lastOK = 0;
  let refusal = "";

  function takeToken() {
    const before = TS.token();
    TS.tokenFromFragment();
    if (TS.token() !== before) { refusal = ""; TS.forget("/v1/pools/"); tickNow(); }
  }
  TS.tokenFromFragment();
  window.addEventListener("hashchange", takeToken);

  // The levels: the first keeps the page's own elements, each further pool
  // gets a copy.
  function buildLevels() {
    const first = document.querySelector(".level");
    ids.forEach((id, i) => {
      const el = i === 0 ? first : first.cloneNode(true);
      if (i > 0) {
        for (const e of el.querySelectorAll("[id]")) e.id = e.id + "-" + i;
        first.parentNode.insertBefore(el, $("stale"));
      }
      levels.push({ id, el, paytable: el.querySelector(".paytable"), name: el.querySelector(".pool-name"), currency: el.querySelector(".currency"), amount: el.querySelector(".amount"), meter: el.querySelector(".meter"), data: null, source: null });
    });
    document.body.classList.toggle("multi", ids.length > 1);
    document.body.style.setProperty("--levels", String(Math.max(ids.length, 1)));
    if (!ids.length) $("pool-name").textContent = "No pool named in the address";
  }

  // The API's answer as the sign needs it: from GET .../display (the
  // display role's read) or, where that is not served, the pool itself.
  function normalize(d) {
    if (d.meters) {
      const held = (d.held || []).map((h) => ({ seq: h.seq, state: "held", table: h.table, seat: h.hit.seat, category: h.hit.category, amount: h.amount, windowClosesAt: h.payAfter }));
      const locked = (d.locked || []).map((h) => Object.assign({}, h));
      const open = new Set([...held, ...locked].map((h) => h.seq));
      const won = (d.lastHits || []).filter((h) => !open.has(h.seq) && (!h.state || h.state === "paid"));
      const last = won[won.length - 1];
      return {
        name: (d.settings && d.settings.displayName) || "", currency: (d.settings && d.settings.currency) || "",
        meter: d.meters.displayed, hits: [...held, ...locked], version: d.version,
        lastWon: last ? { amount: last.paid, category: last.category, table: last.table, seat: last.seat, at: last.paidAt } : null,
      };
    }
    const withHand = (h) => h && Object.assign({}, h, { category: h.category || h.hand });
    return {
      name: d.displayName || "", currency: d.currency || "", meter: d.meter, hits: (d.hits || []).map(withHand), version: d.version || d.asOf,
      lastWon: withHand(d.lastWon) || null, paytables: d.paytables || [],
    };
  }

  const hand = (c) => (c || "").replace(/_/g, " ");
  const money = (a, c) => c + " " + TS.formatMoney(a, c);

  // A hit at its stage, in the words players read: a Royal Flush is the
  // jackpot; any other prize is named by its hand.
  function hitLine(h, c) {
    const what = h.category === "royal_flush" ? "JACKPOT" : hand(h.category || h.hand).toUpperCase() + " PRIZE";
    const stage = { held: "HELD", pending: "PENDING", confirmed: "VERIFIED" }[h.state] || h.state.toUpperCase();
    const amount = h.amount !== undefined && h.amount !== null ? " · " + money(h.amount, c) : "";
    const detail = { held: "held for its settle window" + (h.windowClosesAt ? " until " + new Date(h.windowClosesAt).toLocaleTimeString() : ""),
      pending: "pending verification", confirmed: "verified, being paid" }[h.state] || "";
    return what + " " + stage + " · table " + h.table + " seat " + h.seat + amount + (h.category ? " (" + hand(h.category || h.hand) + ")" : "") + (detail ? "\n" + detail : "");
  }

  function render() {
    const lines = [];
    let last = null;
    for (const l of levels) {
      if (!l.data) continue;
      const d = l.data, c = d.currency;
      l.name.textContent = !d.name || d.name === l.id ? "Progressive jackpot · " + l.id : d.name;
      l.currency.textContent = c;
      l.amount.textContent = TS.formatMoney(d.meter, c);
      // The paytable with each hand's current amount (the first
      // progressive wager's; Royal Flush = the meter, Straight Flush 10%).
      const pt = (d.paytables || [])[0];
      l.paytable.textContent = pt ? (pt.rows || []).map((r) => r.label + " " + (r.amount !== undefined && r.amount !== null ? money(r.amount, c) : r.odds || "")).join(" · ") : "";
      for (const h of d.hits.filter((x) => x.state === "held" || x.state === "pending" || x.state === "confirmed")) {
        lines.push((ids.length > 1 ? (d.name || l.id) + ": " : "") + hitLine(h, c));
      }
      if (d.lastWon && (!last || String(d.lastWon.at || "") > String(last.at || ""))) last = Object.assign({ currency: c }, d.lastWon);
    }
    const lock = $("lock");
    lock.classList.toggle("hidden", !lines.length);
    lock.replaceChildren(...lines.map((t) => TS.el("p", {}, t)));
    $("last-won").textContent = last ? "Last won: " + money(last.amount, last.currency) + " · " + hand(last.category) + " · table " + last.table + " seat " + last.seat +
      (last.at ? " · " + new Date(last.at).toLocaleString() : "") : "";
    if (levels[0] && levels[0].data) document.body.dataset.version = levels[0].data.version;
    fit();
  }

  // Each amount as large as its level allows, never wider than the screen:
  // the font is set from the height, then shrunk to the width it has.
  function fit() {
    for (const l of levels) {
      const m = l.meter;
      m.style.fontSize = "";
      const avail = l.el.clientWidth;
      const need = m.scrollWidth;
      if (need > avail && need > 0) {
        const size = parseFloat(getComputedStyle(m).fontSize);
        m.style.fontSize = Math.floor(size * avail / need * 0.97) + "px";
      }
    }
  }
  window.addEventListener("resize", fit);

  function status() {
    const s = $("status");
    const age = Date.now() - lastOK;
    const stale = !!refusal || !lastOK || age > staleAfterMs;
    document.body.dataset.stale = stale ? "true" : "false";
    for (const l of levels) l.meter.classList.toggle("is-stale", stale);
    const cover = $("stale");
    cover.classList.toggle("hidden", !stale);
    if (refusal) {
      s.textContent = refusal;
      cover.textContent = "NOT LIVE";
    } else if (stale) {
      s.textContent = lastOK ? "STALE: no update for " + Math.round(age / 1000) + " s, reconnecting…" : "connecting…";
      cover.textContent = lastOK ? "STALE · reconnecting" : "connecting…";
    } else {
      s.textContent = "live · updated " + new Date(lastOK).toLocaleTimeString();
      cover.textContent = "";
    }
    s.classList.toggle("stale", stale);
  }

  // noSuchPool: the problem is a 404 whose errors name the path's pool
  // id ("no pool megalnk" at path.id).
  function noSuchPool(e) {
    return e.status === 404 && ((e.body && e.body.errors) || []).some((x) => x.location === "path.id");
  }

  async function load(l) {
    const base = "/v1/pools/" + encodeURIComponent(l.id);
    if (l.source === null) {
      try {
        const r = await TS.poll(base + "/display");
        l.source = "/display";
        return r;
      } catch (e) {
        // Fall back to the pool itself only where the service has no
        // /display operation (405, or a 404 naming no parameter). A 404
        // naming the path's pool id says there is no such pool: the sign
        // says so, instead of asking the pool, which the display role may
        // not read (issue 33 item 7: "403 needs role cage or supervisor"
        // for a mistyped pool id).
        if (!(e instanceof TS.Problem) || (e.status !== 404 && e.status !== 405) || noSuchPool(e)) throw e;
        l.source = "";
      }
    }
    return TS.poll(base + l.source);
  }

  let timer = 0;
  function tickNow() { clearTimeout(timer); timer = setTimeout(tick, 0); }
  async function tick() {
    if (!ids.length) return;
    try {
      const answers = await Promise.all(levels.map(load));
      let changed = false;
      answers.forEach((a, i) => { if (a.changed || !levels[i].data) { levels[i].data = normalize(a.data); changed = true; } });
      lastOK = Date.now();
      refusal = "";
      if (changed) render();
    } catch (e) {
      // A network failure leaves the last amounts on screen, marked stale;
      // a refusal is shown as the API words it.
      refusal = e instanceof TS.Problem && e.status < 500 ? e.describe() : "";
    } finally {
      status();
      clearTimeout(timer);
      timer = setTimeout(tick, pollMs);
    }
  }

  // Offline, the page itself comes from the service worker's copy.
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/assets/display-sw.js", { scope: "/display/" }).catch(() => {});
  }
  buildLevels();
  status();
  tick();
})();
