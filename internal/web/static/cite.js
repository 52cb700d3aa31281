// Citations ("mbs-megalink-tcp-v6 3.11.2", "ruling R5") as links that open
// the clause's text, read from the API like any client would.
"use strict";

const Cite = (() => {
  // Where the API answers a citation's text: GET /v1/rulings/{id} for
  // "ruling R5", GET /v1/rulesets/{id}/clauses/{clause} for
  // "mbs-megalink-tcp-v6 3.11.2".
  function url(cite) {
    const ruling = /^ruling (R\d+)$/.exec(cite);
    if (ruling) return "/v1/rulings/" + ruling[1];
    const sp = cite.indexOf(" ");
    return "/v1/rulesets/" + encodeURIComponent(cite.slice(0, sp)) + "/clauses/" + encodeURIComponent(cite.slice(sp + 1));
  }

  async function open(cite) {
    const dlg = document.getElementById("clause");
    document.getElementById("clause-h").textContent = cite;
    const pre = document.getElementById("clause-text");
    pre.textContent = "loading…";
    dlg.showModal();
    try {
      const out = await TS.call("GET", url(cite));
      const subs = (out.subclauses || []).map((c) => "\n\n" + c.number + " " + c.text).join("");
      pre.textContent = (out.title ? out.title + "\n\n" : "") + (out.number ? out.number + " " : "") + out.text + subs;
    } catch (e) {
      pre.textContent = e instanceof TS.Problem ? e.describe() : String(e);
    }
  }

  function link(cite) {
    return TS.el("button", { type: "button", class: "cite", "data-cite": cite, onclick: () => open(cite) }, cite);
  }

  return { link, open, url };
})();
