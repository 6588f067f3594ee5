// The outbox of the site's forms, for the service worker (docs/offline-forms.md): sends what a
// phone kept while it had no connection, when the browser says the connection is back
// (Background Sync). Self-contained, so the service worker takes it with one line:
//   importScripts("/assets/outbox-sw.js");
//
// Shared with the pages' script (assets/outbox.js), which queues and shows the items:
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
  var TAG = "portal-outbox";
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

  function all(db) {
    return new Promise(function (resolve, reject) {
      var request = db.transaction(STORE).objectStore(STORE).getAll();
      request.onsuccess = function () { resolve(request.result || []); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function put(db, item) {
    return new Promise(function (resolve, reject) {
      var tx = db.transaction(STORE, "readwrite");
      tx.objectStore(STORE).put(item);
      tx.oncomplete = function () { resolve(); };
      tx.onerror = function () { reject(tx.error); };
    });
  }

  // Posts one item. Resolves to the item's new state, or null to try again later (a network
  // error, 408, 409 while the server still works on the key, 429, 5xx). A 303 to the
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

  function flush() {
    return open().then(function (db) {
      return all(db).then(function (items) {
        var queued = items.filter(function (item) { return item.state === "queued"; });
        var failed = false;
        return Promise.all(queued.map(function (item) {
          return send(item).then(function (state) {
            if (!state) { failed = true; return null; }
            item.state = state;
            item.sentAt = Date.now();
            return put(db, item).then(function () { return tell(item); });
          });
        })).then(function () {
          // Rejecting asks the browser to fire the sync event again later.
          if (failed) throw new Error("some items wait for a better connection");
        });
      });
    });
  }

  // Tells the open pages, so one showing an item says it was sent.
  function tell(item) {
    return self.clients.matchAll({ includeUncontrolled: true, type: "window" }).then(function (clients) {
      clients.forEach(function (client) { client.postMessage({ type: TAG, key: item.key, state: item.state }); });
    });
  }

  self.addEventListener("sync", function (event) {
    if (event.tag === TAG) event.waitUntil(flush());
  });
})();
