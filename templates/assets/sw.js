// The site's service worker (docs/offline.md). `portal build` writes it at the site's root with
// its settings before this code: self.PORTAL_OFFLINE = {version, precache: [{url, bytes}],
// offline, search, find, keep}. URLs are relative to the worker's scope, so a copy served under another
// root works as well.
//
// - Install: the precache list (the shell, home, help, listings' first pages, map, alerts, the
//   offline page), chosen by the build within the site's budget, in a cache named by the build.
// - Pages: network first; every page a reader opens is kept (the newest `keep` of them), and
//   answers offline. A page never opened answers with the offline page.
// - Other files of the site: the cache first (the shell's are fingerprinted), else the network;
//   the pieces of the static search index fetched are kept, so searches answer offline from them.
"use strict";

var SETTINGS = self.PORTAL_OFFLINE || { version: "0", precache: [], offline: "offline.html", keep: 100 };
var PRECACHE = "portal-precache-" + SETTINGS.version;
var PAGES = "portal-pages";
var SAVED = "portal-saved";
// The pieces of the static search index fetched so far, for searching offline; per build, since
// the pieces' names stay while their contents change.
var FIND = "portal-find-" + SETTINGS.version;
var SCOPE = self.registration ? self.registration.scope : self.location.href.replace(/[^/]*$/, "");

function at(path) {
  return new URL(path, SCOPE).href;
}

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(PRECACHE).then(function (cache) {
      // One by one, so that a file gone since the build does not cost the others.
      return Promise.all(SETTINGS.precache.map(function (item) {
        return fetch(at(item.url), { cache: "no-cache" }).then(function (response) {
          if (response.ok) return cache.put(at(item.url), response);
        }).catch(function () {});
      }));
    }).then(function () { return self.skipWaiting(); })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(names.filter(function (name) {
        return (name.indexOf("portal-precache-") === 0 && name !== PRECACHE) ||
          (name.indexOf("portal-find-") === 0 && name !== FIND);
      }).map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); })
  );
});

// The URLs a page may be cached under: as asked, and as the file the build wrote (`/news` is
// `news.html`, `/` is `index.html`), since links in the pages name the files.
function candidates(url) {
  var u = new URL(url);
  u.hash = "";
  u.search = "";
  var list = [u.href];
  if (u.pathname.slice(-1) === "/") list.push(u.href + "index.html");
  else if (!/\.[a-z0-9]+$/i.test(u.pathname)) list.push(u.href + ".html");
  return list;
}

function cached(url) {
  var list = candidates(url);
  return list.reduce(function (found, key) {
    return found.then(function (response) { return response || caches.match(key); });
  }, Promise.resolve(undefined));
}

// Keeps a page a reader opened, dropping the oldest past `keep`.
function keep(request, response) {
  return caches.open(PAGES).then(function (cache) {
    return cache.put(request.url.split("#")[0], response).then(function () { return cache.keys(); })
      .then(function (keys) {
        var extra = keys.length - SETTINGS.keep;
        return Promise.all(keys.slice(0, Math.max(0, extra)).map(function (key) { return cache.delete(key); }));
      });
  });
}

// The offline page, its links made relative to the site's root whatever the URL it answers.
function offlinePage() {
  return caches.match(at(SETTINGS.offline)).then(function (response) {
    if (!response) return Response.error();
    return response.text().then(function (html) {
      var base = '<base href="' + SCOPE + '">';
      // Its own headers (the pages' security policy) with it.
      return new Response(html.replace(/<head>/i, "<head>" + base), { status: 503, headers: response.headers });
    });
  });
}

// The page that searches in the browser, for a search asked offline or where no server answers
// it (a plain static host): it reads the query from the address, which stays as asked.
function searchPage(url, response) {
  var isSearch = SETTINGS.search && new URL(url).pathname === new URL("search", SCOPE).pathname;
  if (!isSearch || (response && response.ok)) return Promise.resolve(response);
  return caches.match(at(SETTINGS.search)).then(function (page) { return page || response; });
}

function navigate(request) {
  return fetch(request).then(function (response) {
    // Not an address with a query: what a reader searched or sent stays off the phone.
    var plain = !new URL(request.url).search;
    if (plain && response.ok && response.type === "basic") keep(request, response.clone());
    return searchPage(request.url, response);
  }).catch(function () {
    return searchPage(request.url, null).then(function (page) {
      return page || cached(request.url).then(function (hit) { return hit || offlinePage(); });
    });
  });
}

function file(request) {
  return caches.match(request, { ignoreSearch: false }).then(function (hit) {
    if (hit) return hit;
    return fetch(request).then(function (response) {
      if (isFind(request.url) && response.ok) {
        var copy = response.clone();
        caches.open(FIND).then(function (cache) { cache.put(request, copy); });
      }
      return response;
    });
  });
}

// Whether `url` is a piece of the static search index (docs/offline.md#searching-offline).
function isFind(url) {
  return !!SETTINGS.find && new URL(url).pathname.indexOf(new URL(SETTINGS.find, SCOPE).pathname) === 0;
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(navigate(request));
  else event.respondWith(file(request));
});

// Further handlers of the site's own are added below with one importScripts line each: sending
// the forms a phone kept offline when the connection returns (Background Sync; docs/offline.md).
// A theme without the file keeps a working worker.
try {
  importScripts("assets/outbox-store.js", "assets/outbox-sw.js");
} catch (e) {}
