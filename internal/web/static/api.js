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

  // A request that never reached the server (the network dropped, the
  // server is away): not a refusal, so the same submission may be retried.
  class NetworkError extends Error {
    constructor(cause) { super("not sent: the network or the server is unreachable (" + (cause && cause.message || cause) + "); retry"); }
    describe() { return this.message; }
  }

  async function call(method, path, body, extraHeaders) {
    const res = await send(method, path, body, extraHeaders);
    const text = await res.text();
    let data = null;
    if (text) { try { data = JSON.parse(text); } catch (_) { data = { detail: text }; } }
    if (!res.ok) throw new Problem(res.status, data);
    return data;
  }

  // Conditional GET (ETag / If-None-Match): each path's last answer and
  // its ETag are kept; a 304 costs no body and answers { data, changed:
  // false }. A server that sends no ETag is answered in full each time.
  const lastAnswers = new Map();
  async function poll(path) {
    const last = lastAnswers.get(path);
    const res = await send("GET", path, undefined, last && last.etag ? { "If-None-Match": last.etag } : {});
    if (res.status === 304 && last) return { data: last.data, changed: false };
    const text = await res.text();
    let data = null;
    if (text) { try { data = JSON.parse(text); } catch (_) { data = { detail: text }; } }
    if (!res.ok) throw new Problem(res.status, data);
    const etag = res.headers.get("ETag");
    const changed = !last || text !== last.text;
    lastAnswers.set(path, { etag, data, text });
    return { data, changed };
  }
  function forget(prefix) { for (const k of [...lastAnswers.keys()]) if (k.startsWith(prefix)) lastAnswers.delete(k); }

  async function send(method, path, body, extraHeaders) {
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
    try {
      return await fetch(path, { method, headers, body: payload, cache: "no-store" });
    } catch (e) {
      throw new NetworkError(e);
    }
  }

  // Money: integer minor units in, text out. No float touches an amount:
  // the minor digits are split off as a string.
  const minorDigits = { JPY: 0, KRW: 0, BHD: 3, KWD: 3, OMR: 3 };
  function formatMoney(amount, currency) {
    const digits = digitsOf(currency);
    const neg = amount < 0;
    let s = String(Math.abs(amount)).padStart(digits + 1, "0");
    let whole = digits ? s.slice(0, -digits) : s;
    const frac = digits ? s.slice(-digits) : "";
    whole = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (neg ? "-" : "") + whole + (frac ? "." + frac : "");
  }

  function digitsOf(currency) { return currency in minorDigits ? minorDigits[currency] : 2; }

  // The amount a person typed in currency units ("500.50", "-1,250",
  // "+12.5") as integer minor units, by string arithmetic (no float):
  // { minor } or { error } worded in money.
  function parseMoney(text, currency) {
    const digits = digitsOf(currency);
    const s = String(text || "").trim().replace(/\s/g, "");
    const m = /^([+-])?((?:\d{1,3}(?:,\d{3})+)|\d+)(?:\.(\d*))?$/.exec(s);
    if (!m) return { error: "Type an amount in " + currency + ", such as 500.50 or -12" + (digits ? "." + "0".repeat(digits) : "") + "." };
    const frac = m[3] || "";
    if (frac.length > digits) return { error: currency + " amounts have at most " + digits + " decimals: " + s + " is not an amount of " + currency + "." };
    const whole = m[2].replace(/,/g, "").replace(/^0+(?=\d)/, "");
    const minorText = (whole + frac.padEnd(digits, "0")).replace(/^0+(?=\d)/, "");
    const minor = Number(minorText);
    if (!Number.isSafeInteger(minor)) return { error: currency + " " + s + " is more than this page can send exactly." };
    return { minor: m[1] === "-" ? -minor : minor };
  }

  // An amount with its currency and its sign when asked ("+SGD 500.00").
  function money(amount, currency, signed) {
    const n = Number(amount || 0);
    const sign = n < 0 ? "-" : signed && n > 0 ? "+" : "";
    return sign + (currency ? currency + " " : "") + formatMoney(Math.abs(n), currency);
  }

  // A hand as the rule documents write it ("royal_flush": "Royal Flush",
  // "four_of_a_kind": "Four of a Kind"), issue 35: the API's hand names
  // are snake_case; a name not listed is spelled out word by word.
  const handNames = {
    royal_flush: "Royal Flush", straight_flush: "Straight Flush", four_of_a_kind: "Four of a Kind", full_house: "Full House",
    flush: "Flush", straight: "Straight", three_of_a_kind: "Three of a Kind", two_pair: "Two Pair", one_pair: "One Pair", high_card: "High Card",
  };
  function handName(c) {
    if (!c) return "";
    return handNames[c] || String(c).split("_").map((w, i) => (i === 0 || !/^(of|a|the)$/.test(w) ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(" ");
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

  return { token, setToken, iam, setIAM, signOut, signedIn, tokenFromFragment, call, send, poll, forget, Problem, NetworkError, formatMoney, parseMoney, money, digitsOf, handName, el };
})();
