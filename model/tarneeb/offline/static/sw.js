// The offline site's service worker (written by `tarneeb site`): on install it caches every file of the site
// under one name (a hash of the files), then answers every request of the site from that cache, so the pages open
// and the referee rules with the network off. A new build has a new name: its worker caches the new files and
// deletes the old cache.
"use strict";
var VERSION = "__VERSION__";
var FILES = ["__FILES__"];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(VERSION).then(function (cache) {
    return cache.addAll(FILES.map(function (f) { return new Request(f, { cache: "reload" }); }));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (n) { return n !== VERSION && n.indexOf("tarneeb-") === 0; })
      .map(function (n) { return caches.delete(n); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  if (event.request.method !== "GET") { return; }
  event.respondWith(caches.open(VERSION).then(function (cache) {
    // a page's query (?example=NAME) is read by the page's script: the cached page is the same file
    return cache.match(event.request, { ignoreSearch: true }).then(function (hit) {
      return hit || fetch(event.request);
    });
  }));
});
