// The outbox of the site's forms, for the service worker (docs/offline-forms.md): sends what a
// phone kept while it had no connection, when the browser says the connection is back
// (Background Sync). The worker takes it after the shared store (assets/outbox-store.js, which
// says where the items live and how one is posted):
//   importScripts("assets/outbox-store.js", "assets/outbox-sw.js");
(function () {
  "use strict";
  var outbox = self.portalOutbox;
  if (!outbox) return;
  var TAG = outbox.TAG;

  function flush() {
    return outbox.all().then(function (items) {
      var queued = items.filter(function (item) { return item.state === "queued"; });
      var failed = false;
      return Promise.all(queued.map(function (item) {
        return outbox.send(item).then(function (state) {
          if (!state) { failed = true; return null; }
          item.state = state;
          item.sentAt = Date.now();
          return outbox.change(function (store) { store.put(item); }).then(function () { return tell(item); });
        });
      })).then(function () {
        // Rejecting asks the browser to fire the sync event again later.
        if (failed) throw new Error("some items wait for a better connection");
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
