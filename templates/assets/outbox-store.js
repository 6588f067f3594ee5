// The outbox of the site's forms, as the pages (assets/outbox.js) and the service worker
// (assets/outbox-sw.js) both read and send it (docs/offline-forms.md): one definition of where
// the kept items live and how one is posted, loaded before either (a deferred script on the
// pages, importScripts in the worker). Sets `self.portalOutbox`, or nothing without IndexedDB.
//
//   sync tag:        "portal-outbox"
//   IndexedDB:       database "portal-outbox", version 1, object store "items", keyPath "key"
//   an item:         {key, url, body, form, state: "queued" | "sent" | "refused", queuedAt, sentAt?, location?}
//                    `key` is the submission's idempotency key; `body` is the form as
//                    application/x-www-form-urlencoded, `url` the form's own path.
// Each item is posted with its key in the Idempotency-Key header: a server that already stored it
// (the page sent it too, or an earlier attempt's answer was lost) answers the first answer again,
// so an item is stored once however often it is sent (docs/spec/api-spec.md#idempotency).
(function () {
  "use strict";
  if (typeof indexedDB === "undefined" || typeof fetch === "undefined") return;
  var DB = "portal-outbox";
  var STORE = "items";

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open(DB, 1);
      request.onupgradeneeded = function () {
        if (!request.result.objectStoreNames.contains(STORE)) request.result.createObjectStore(STORE, { keyPath: "key" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  // Runs `write(store)` in one read-write transaction.
  function change(write) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, "readwrite");
        write(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(); };
        tx.onerror = function () { reject(tx.error); };
      });
    });
  }

  function all() {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var request = db.transaction(STORE).objectStore(STORE).getAll();
        request.onsuccess = function () { resolve(request.result || []); };
        request.onerror = function () { reject(request.error); };
      });
    });
  }

  // Posts one item. Resolves to the item's new state, or null to try again later (a network
  // error, 408, 409 while the server still works on the key, 425, 429, 5xx). A 303 to the
  // confirmation (read as an opaque redirect) is success.
  function send(item) {
    return fetch(item.url, {
      method: "POST",
      body: item.body,
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": item.key },
      redirect: "manual",
      credentials: "same-origin"
    }).then(function (response) {
      if (response.type === "opaqueredirect" || (response.status >= 200 && response.status < 400)) return "sent";
      if ([408, 409, 425, 429].indexOf(response.status) >= 0 || response.status >= 500) return null;
      return "refused";
    }, function () { return null; });
  }

  self.portalOutbox = { TAG: "portal-outbox", change: change, all: all, send: send };
})();
