// Citations ("mbs-megalink-tcp-v6 3.11.2", "ruling R5") as links that open
// the clause's text, read from the API like any client would.
"use strict";

const Cite = (() => {
  // CLAUSE_URL: where the API answers a citation's text (set at integration).
  function url(cite) {
    return "/v1/citations?cite=" + encodeURIComponent(cite);
  }

  async function open(cite) {
    const dlg = document.getElementById("clause");
    document.getElementById("clause-h").textContent = cite;
    const pre = document.getElementById("clause-text");
    pre.textContent = "loading…";
    dlg.showModal();
    try {
      const out = await TS.call("GET", url(cite));
      pre.textContent = out.text || JSON.stringify(out, null, 2);
    } catch (e) {
      pre.textContent = e instanceof TS.Problem ? e.describe() : String(e);
    }
  }

  function link(cite) {
    return TS.el("button", { type: "button", class: "cite", "data-cite": cite, onclick: () => open(cite) }, cite);
  }

  return { link, open, url };
})();
