// AWS Signature Version 4 for the floor pages, with the browser's own
// WebCrypto (SubtleCrypto: SHA-256 and HMAC-SHA256). In the AWS stack every
// API route needs IAM authorization: API Gateway recomputes this signature
// from the request it receives and refuses the request when they differ.
// Nothing here is loaded from another host, and the secret never leaves
// this file: it only keys the first HMAC below.
//
// The steps follow AWS's "Create a signed AWS API request"
// (docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html):
//   1. the canonical request, 2. its hash, 3. the string to sign,
//   4. the signing key, 5. the signature, 6. the Authorization header.
// test/browser checks every step against aws-sdk-go-v2's signer.
"use strict";

const SigV4 = (() => {
  const algorithm = "AWS4-HMAC-SHA256";
  const utf8 = new TextEncoder();

  function subtle() {
    // WebCrypto exists only in a secure context: https, or a page served
    // from localhost / 127.0.0.1.
    if (!(window.crypto && window.crypto.subtle)) {
      throw new Error("This page cannot sign requests: the browser offers WebCrypto only over https (or on localhost).");
    }
    return window.crypto.subtle;
  }

  // Bytes as lowercase hex, as every SigV4 hash and signature is written.
  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function sha256Hex(text) {
    return hex(await subtle().digest("SHA-256", utf8.encode(text)));
  }

  // HMAC-SHA256 of text under key (bytes or a string), as bytes.
  async function hmac(key, text) {
    const raw = typeof key === "string" ? utf8.encode(key) : key;
    const k = await subtle().importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return subtle().sign("HMAC", k, utf8.encode(text));
  }

  // AWS's URI encoding: every byte except the unreserved characters
  // A-Z a-z 0-9 - _ . ~ becomes %XY with uppercase hex. encodeURIComponent
  // already does that (UTF-8, uppercase) but leaves ! ' ( ) * alone, so
  // those are encoded here too.
  function awsEncode(s) {
    return encodeURIComponent(s).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
  }

  // The canonical URI of a service other than S3 (execute-api included):
  // the path exactly as sent (already percent-encoded), each segment
  // encoded once more, so "/v1/pools/a%3Ab" is signed as
  // "/v1/pools/a%253Ab". An empty path is "/".
  function canonicalURI(url) {
    const path = url.pathname || "/";
    return path.split("/").map(awsEncode).join("/");
  }

  // The canonical query: every name=value pair decoded, then encoded the
  // AWS way, sorted by name and then by value, joined by "&". A name
  // without a value signs as "name=".
  function canonicalQuery(url) {
    const pairs = [];
    for (const [k, v] of new URLSearchParams(url.search)) pairs.push([awsEncode(k), awsEncode(v)]);
    pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    return pairs.map(([k, v]) => k + "=" + v).join("&");
  }

  // The request's time as SigV4 writes it: 20260126T155700Z, and its day.
  function amzDate(now) {
    const iso = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
    return { stamp: iso, day: iso.slice(0, 8) };
  }

  // sign returns the headers to add to the request: X-Amz-Date,
  // X-Amz-Security-Token (temporary credentials only) and Authorization.
  //   method: "GET", "POST", ...
  //   url:    the URL the request goes to (relative to the page is fine)
  //   body:   the exact body string sent ("" for none)
  //   creds:  { accessKeyId, secretAccessKey, sessionToken, region }
  //   service: "execute-api" for API Gateway
  async function sign(method, url, body, creds, service, now) {
    const u = new URL(url, location.href);
    const t = amzDate(now || new Date());

    // 1. The canonical request. Signed headers: host (the browser sends
    // the URL's host), the time, and the session token when there is one;
    // names lowercase and sorted, each "name:value\n".
    const headers = [["host", u.host], ["x-amz-date", t.stamp]];
    if (creds.sessionToken) headers.push(["x-amz-security-token", creds.sessionToken]);
    headers.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    const canonicalHeaders = headers.map(([k, v]) => k + ":" + String(v).trim() + "\n").join("");
    const signedHeaders = headers.map(([k]) => k).join(";");
    const payloadHash = await sha256Hex(body || "");
    const canonicalRequest = [
      method.toUpperCase(),
      canonicalURI(u),
      canonicalQuery(u),
      canonicalHeaders,
      signedHeaders,
      payloadHash,
    ].join("\n");

    // 2-3. The string to sign: the algorithm, the time, the credential
    // scope (day/region/service/aws4_request) and the canonical request's
    // hash.
    const scope = t.day + "/" + creds.region + "/" + service + "/aws4_request";
    const stringToSign = [algorithm, t.stamp, scope, await sha256Hex(canonicalRequest)].join("\n");

    // 4. The signing key: the secret, prefixed "AWS4", keys an HMAC of the
    // day; that keys the region, that the service, that "aws4_request".
    const kDate = await hmac("AWS4" + creds.secretAccessKey, t.day);
    const kRegion = await hmac(kDate, creds.region);
    const kService = await hmac(kRegion, service);
    const kSigning = await hmac(kService, "aws4_request");

    // 5. The signature: HMAC of the string to sign under the signing key.
    const signature = hex(await hmac(kSigning, stringToSign));

    // 6. The headers to send. Host is the browser's to set.
    const out = {
      "X-Amz-Date": t.stamp,
      "Authorization": algorithm + " Credential=" + creds.accessKeyId + "/" + scope +
        ", SignedHeaders=" + signedHeaders + ", Signature=" + signature,
    };
    if (creds.sessionToken) out["X-Amz-Security-Token"] = creds.sessionToken;
    return out;
  }

  return { sign, canonicalURI, canonicalQuery, awsEncode };
})();
