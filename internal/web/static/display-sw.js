// The sign's service worker: a kiosk that loses the network (or reloads
// while the server is away) still gets the sign's own page, which then
// retries the API every second until it answers. Only the page and its
// assets are kept; API answers are never cached (the sign shows STALE).
"use strict";

const cacheName = "tablesettle-display-v1";
const shell = "/display/_shell";
const assets = ["/assets/app.css", "/assets/sigv4.js", "/assets/api.js", "/assets/display.js"];

self.addEventListener("install", (ev) => {
  ev.waitUntil(caches.open(cacheName).then((c) => c.addAll([shell, ...assets])).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (ev) => { ev.waitUntil(self.clients.claim()); });

self.addEventListener("fetch", (ev) => {
  const url = new URL(ev.request.url);
  if (url.origin !== location.origin || ev.request.method !== "GET") return;
  if (ev.request.mode === "navigate" && url.pathname.startsWith("/display/")) {
    ev.respondWith(fetch(ev.request).catch(() => caches.match(shell)));
  } else if (assets.includes(url.pathname)) {
    // The newest asset when the server answers, the kept copy when not.
    ev.respondWith(fetch(ev.request).then((res) => {
      if (res.ok) { const copy = res.clone(); caches.open(cacheName).then((c) => c.put(url.pathname, copy)); }
      return res;
    }).catch(() => caches.match(url.pathname)));
  }
});
