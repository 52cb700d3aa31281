// The meter display (RWS 4.5.1 pays "the Progressive Jackpot value
// displayed on the display screen"): the pool's displayed meter, updated
// within a second of any change, the pending hits of the jackpot lock, and
// a plain "stale" warning whenever the data could not be refreshed.
"use strict";

(() => {
  TS.tokenFromFragment();
  const poolId = decodeURIComponent(location.pathname.replace(/^\/display\//, "").replace(/\/$/, ""));
  const $ = (id) => document.getElementById(id);
  const pollMs = 500;        // well inside the one second the floor expects
  const staleAfterMs = 2500; // no fresh data for this long: say so on screen
  let lastOK = 0;
  let refusal = ""; // the API's refusal (401, 403, 404), shown as it is

  $("pool-name").textContent = poolId ? "Progressive jackpot · " + poolId : "No pool named in the address";

  function render(pool) {
    const cur = (pool.settings && pool.settings.currency) || "";
    $("currency").textContent = cur;
    $("amount").textContent = TS.formatMoney(pool.meters.displayed, cur);
    const pending = (pool.locked || []).filter((h) => h.state === "pending");
    const lock = $("lock");
    if (pending.length) {
      lock.classList.remove("hidden");
      lock.textContent = pending.map((h) =>
        "JACKPOT PENDING · table " + h.table + " seat " + h.seat + " · " + cur + " " + TS.formatMoney(h.amount, cur) +
        (h.category ? " (" + h.category.replace(/_/g, " ") + ")" : "")).join("\n") +
        "\nverification in progress · meter shows the reset amount";
    } else {
      lock.classList.add("hidden");
      lock.textContent = "";
    }
    document.body.dataset.version = pool.version;
  }

  function status() {
    const s = $("status");
    if (refusal) {
      s.classList.add("stale");
      s.textContent = refusal;
      document.body.dataset.stale = "true";
      return;
    }
    const age = Date.now() - lastOK;
    if (!lastOK || age > staleAfterMs) {
      s.classList.add("stale");
      s.textContent = lastOK ? "STALE: no update for " + Math.round(age / 1000) + " s, reconnecting…" : "connecting…";
      document.body.dataset.stale = "true";
    } else {
      s.classList.remove("stale");
      s.textContent = "live · updated " + new Date(lastOK).toLocaleTimeString();
      document.body.dataset.stale = "false";
    }
  }

  async function tick() {
    if (!poolId) return;
    try {
      const pool = await TS.call("GET", "/v1/pools/" + encodeURIComponent(poolId));
      lastOK = Date.now();
      refusal = "";
      render(pool);
    } catch (e) {
      // A network failure leaves the last amount on screen, marked stale;
      // a refusal is shown as the API words it.
      refusal = e instanceof TS.Problem && e.status < 500 ? e.describe() : "";
    } finally {
      status();
      setTimeout(tick, pollMs);
    }
  }
  tick();
})();
