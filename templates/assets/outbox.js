// Keeps a story or booking sent without a connection on the phone and sends it once the
// connection is back (docs/offline-forms.md). Without this script, or without IndexedDB, the
// forms post exactly as they do with scripts off.
//
// A form that takes part carries `data-outbox` and the texts to show (`data-queued`, `data-sent`,
// `data-refused`, `data-offline`); each rendering of it carries a fresh idempotency key in its
// hidden `idempotency_key` field (docs/spec/api-spec.md#idempotency), sent as the
// Idempotency-Key header too, so a submission is stored once however often it is sent: by this
// page, by a later page, or by the service worker (assets/outbox-sw.js). Where the items live and
// how one is posted is assets/outbox-store.js, loaded before this script by the page and by the
// worker alike.
(function () {
  "use strict";
  var outbox = self.portalOutbox;
  if (!outbox) return;
  var TAG = outbox.TAG, change = outbox.change, all = outbox.all, send = outbox.send;

  function newKey() {
    if (crypto.randomUUID) return crypto.randomUUID();
    var b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 15) | 64;
    b[8] = (b[8] & 63) | 128;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join("");
    return h.slice(0, 8) + "-" + h.slice(8, 12) + "-" + h.slice(12, 16) + "-" + h.slice(16, 20) + "-" + h.slice(20);
  }

  var forms = Array.prototype.slice.call(document.querySelectorAll("form[data-outbox]"));
  var here = forms[0];

  // The list of this page's kept items, above its form, read out when it changes.
  function list() {
    var found = document.getElementById("outbox-items");
    if (found || !here) return found;
    found = document.createElement("div");
    found.id = "outbox-items";
    found.className = "outbox";
    found.setAttribute("role", "status");
    here.parentNode.insertBefore(found, here);
    return found;
  }

  function show(key, state) {
    var box = list();
    if (!box) return false;
    var line = box.querySelector('[data-key="' + key + '"]');
    if (!line) {
      line = document.createElement("p");
      line.setAttribute("data-key", key);
      box.appendChild(line);
    }
    line.className = "outbox-" + state;
    line.textContent = here.getAttribute("data-" + state) || state;
    return true;
  }

  // Shown and done with: a sent or refused item the page has told about is forgotten.
  function settle(item) {
    if (item.state !== "queued" && item.url === location.pathname && show(item.key, item.state)) {
      return change(function (store) { store["delete"](item.key); });
    }
    return Promise.resolve();
  }

  var flushing = null;
  function flush() {
    if (flushing || navigator.onLine === false) return flushing;
    flushing = all().then(function (items) {
      return Promise.all(items.map(function (item) {
        if (item.state !== "queued") return settle(item);
        return send(item).then(function (state) {
          if (!state) return null;
          item.state = state;
          item.sentAt = Date.now();
          return change(function (store) { store.put(item); }).then(function () { return settle(item); });
        });
      }));
    })["catch"](function () { /* tried again on the next visit or connection */ }).then(function () { flushing = null; });
    return flushing;
  }

  function askForSync() {
    if (!("serviceWorker" in navigator) || typeof SyncManager === "undefined") return;
    navigator.serviceWorker.ready.then(function (registration) {
      return registration.sync.register(TAG);
    })["catch"](function () { /* the next visit sends it */ });
  }

  function keep(form, item) {
    return change(function (store) { store.put(item); }).then(function () {
      show(item.key, "queued");
      form.reset();
      if (form.elements.idempotency_key) form.elements.idempotency_key.value = newKey();
      askForSync();
    });
  }

  forms.forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var field = form.elements.idempotency_key;
      var key = (field && field.value) || newKey();
      if (field) field.value = key;
      var item = {
        key: key,
        url: location.pathname,
        body: new URLSearchParams(new FormData(form)).toString(),
        form: form.getAttribute("data-outbox"),
        state: "queued",
        queuedAt: Date.now()
      };
      if (navigator.onLine === false) {
        keep(form, item)["catch"](function () { form.submit(); });
        return;
      }
      fetch(item.url, {
        method: "POST",
        body: item.body,
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Idempotency-Key": key },
        credentials: "same-origin"
      }).then(function (response) {
        if (response.ok && response.redirected) {
          location.assign(response.url);
          return;
        }
        // Anything but the confirmation (the form sent back with what is wrong, an error page):
        // the browser posts it itself, with the same key, and shows the answer as without scripts.
        form.submit();
      }, function () {
        keep(form, item)["catch"](function () { form.submit(); });
      });
    });
  });

  if (here && navigator.onLine === false) {
    var note = document.createElement("p");
    note.className = "outbox-offline";
    note.textContent = here.getAttribute("data-offline");
    here.parentNode.insertBefore(note, here);
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("message", function (event) {
      if (event.data && event.data.type === TAG) flush();
    });
  }
  window.addEventListener("online", flush);
  flush();
  all().then(function (items) {
    items.forEach(function (item) { if (item.state === "queued" && item.url === location.pathname) show(item.key, "queued"); });
  })["catch"](function () {});
})();
