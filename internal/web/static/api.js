// tablesettle pages: the one way they talk to the API. Same API and the same
// credentials as any client, kept in this tab's sessionStorage only (gone
// when the tab closes), never in a URL sent to the server, never logged:
//   - a bearer token (tablesettle serve), or
//   - a principal's IAM credentials (the AWS stack): every call is signed
//     with AWS Signature Version 4 for execute-api (sigv4.js).
"use strict";

const TS = (() => {
  const tokenKey = "tablesettle.token";
  const iamKey = "tablesettle.iam";

  function token() { return sessionStorage.getItem(tokenKey) || ""; }
  // Signing in one way signs out the other.
  function setToken(t) {
    if (t) { sessionStorage.setItem(tokenKey, t); sessionStorage.removeItem(iamKey); } else sessionStorage.removeItem(tokenKey);
  }

  // IAM credentials: { accessKeyId, secretAccessKey, sessionToken, region }
  // (the session token may be empty for long-term keys), or null.
  function iam() {
    try {
      const c = JSON.parse(sessionStorage.getItem(iamKey) || "null");
      return c && c.accessKeyId && c.secretAccessKey && c.region ? c : null;
    } catch (_) { return null; }
  }
  function setIAM(c) {
    if (c) { sessionStorage.setItem(iamKey, JSON.stringify(c)); sessionStorage.removeItem(tokenKey); } else sessionStorage.removeItem(iamKey);
  }
  function signOut() { sessionStorage.removeItem(tokenKey); sessionStorage.removeItem(iamKey); }
  function signedIn() { return !!(token() || iam()); }

  // A token may also come in the page's fragment (#token=...): fragments are
  // never sent to a server, so it reaches no log. It is moved to
  // sessionStorage and removed from the address bar.
  function tokenFromFragment() {
    const m = /(?:^|[#&])token=([^&]+)/.exec(location.hash);
    if (m) {
      setToken(decodeURIComponent(m[1]));
      history.replaceState(null, "", location.pathname + location.search);
    }
  }

  class Problem extends Error {
    constructor(status, body) {
      super((body && (body.detail || body.title)) || ("HTTP " + status));
      this.status = status;
      this.body = body;
    }
    describe() {
      const b = this.body || {};
      const lines = [this.status + " " + (b.title || "") + (b.detail ? ": " + b.detail : "")];
      for (const e of b.errors || []) lines.push("  " + (e.location || "") + ": " + (e.message || ""));
      return lines.join("\n");
    }
  }

  async function call(method, path, body, extraHeaders) {
    const headers = { "Accept": "application/json" };
    const payload = body === undefined ? undefined : JSON.stringify(body);
    if (body !== undefined) headers["Content-Type"] = "application/json";
    Object.assign(headers, extraHeaders || {});
    const creds = iam();
    if (creds) {
      // Signed over exactly the path, query and body string sent below.
      Object.assign(headers, await SigV4.sign(method, path, payload || "", creds, "execute-api"));
    } else if (token()) {
      headers["Authorization"] = "Bearer " + token();
    }
    const res = await fetch(path, { method, headers, body: payload, cache: "no-store" });
    const text = await res.text();
    let data = null;
    if (text) { try { data = JSON.parse(text); } catch (_) { data = { detail: text }; } }
    if (!res.ok) throw new Problem(res.status, data);
    return data;
  }

  // Money: integer minor units in, text out. No float touches an amount:
  // the minor digits are split off as a string.
  const minorDigits = { JPY: 0, KRW: 0, BHD: 3, KWD: 3, OMR: 3 };
  function formatMoney(amount, currency) {
    const digits = currency in minorDigits ? minorDigits[currency] : 2;
    const neg = amount < 0;
    let s = String(Math.abs(amount)).padStart(digits + 1, "0");
    let whole = digits ? s.slice(0, -digits) : s;
    const frac = digits ? s.slice(-digits) : "";
    whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (neg ? "-" : "") + whole + (frac ? "." + frac : "");
  }

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== undefined && c !== null) e.append(c instanceof Node ? c : String(c));
    return e;
  }

  return { token, setToken, iam, setIAM, signOut, signedIn, tokenFromFragment, call, Problem, formatMoney, el };
})();
