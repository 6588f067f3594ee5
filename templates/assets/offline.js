// Reading offline (docs/offline.md): registers the site's service worker, offers "Save for
// offline" on a listing, and on the offline page lists the pages this phone keeps. Pages do
// without it: with no script (or no service worker) nothing is shown and nothing breaks.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || !window.caches || location.protocol === "file:") return;
  var script = document.currentScript;
  // The site's root: this script is at <root>assets/offline.<hash>.js.
  var root = new URL("../", script ? script.src : location.href).href;

  navigator.serviceWorker.register(root + "sw.js", { scope: root }).catch(function () {});

  function size(bytes) {
    if (bytes >= 1e6) return (bytes / 1e6).toFixed(1) + " MB";
    if (bytes >= 1e3) return Math.ceil(bytes / 1e3) + " KB";
    return bytes + " B";
  }
  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (_, name) { return values[name] != null ? values[name] : ""; });
  }

  // "Save for offline": the listing's record pages, whose list and size the build wrote.
  function offerSaving(box) {
    var list = root + "offline/" + box.getAttribute("data-collection") + ".json";
    fetch(list).then(function (r) { return r.ok ? r.json() : null; }).then(function (saved) {
      if (!saved || !saved.count) return;
      var button = document.createElement("button");
      var status = box.querySelector("[role=status]");
      button.type = "button";
      button.textContent = fill(box.getAttribute("data-save"), { count: saved.count, size: size(saved.bytes) });
      button.addEventListener("click", function () {
        button.disabled = true;
        status.textContent = box.getAttribute("data-saving");
        caches.open("portal-saved").then(function (cache) {
          return Promise.all(saved.pages.map(function (page) {
            return fetch(root + page).then(function (r) { if (r.ok) return cache.put(root + page, r); });
          }));
        }).then(function () {
          status.textContent = fill(box.getAttribute("data-saved"), { count: saved.count });
        }, function () {
          button.disabled = false;
          status.textContent = box.getAttribute("data-failed");
        });
      });
      box.insertBefore(button, status);
      box.hidden = false;
    }).catch(function () {});
  }

  // The offline page: every page kept on this phone, by its title.
  function listKept(list) {
    var names = ["portal-pages", "portal-saved"];
    caches.keys().then(function (all) {
      return all.filter(function (n) { return n.indexOf("portal-precache-") === 0; }).concat(names);
    }).then(function (cacheNames) {
      return Promise.all(cacheNames.map(function (name) {
        return caches.open(name).then(function (cache) {
          return cache.keys().then(function (keys) {
            return Promise.all(keys.filter(function (k) { return /(\/|\.html)$/.test(new URL(k.url).pathname); })
              .slice(0, 200).map(function (key) {
                return cache.match(key).then(function (r) { return r.text(); }).then(function (html) {
                  var title = /<title>([^<]*?)(?: · [^<·]*)?<\/title>/i.exec(html);
                  return { url: key.url, title: title ? title[1] : key.url };
                });
              }));
          });
        });
      }));
    }).then(function (groups) {
      var seen = {};
      var pages = [].concat.apply([], groups).filter(function (page) {
        var fresh = !seen[page.url] && !/\/offline\.html$/.test(page.url);
        seen[page.url] = true;
        return fresh;
      });
      if (!pages.length) return;
      list.textContent = "";
      pages.forEach(function (page) {
        var item = document.createElement("li");
        var link = document.createElement("a");
        var text = document.createElement("textarea");
        text.innerHTML = page.title;
        link.href = page.url;
        link.textContent = text.value;
        item.appendChild(link);
        list.appendChild(item);
      });
    }).catch(function () {});
  }

  // Only once a worker runs: saved pages are of no use without one to answer with them.
  navigator.serviceWorker.ready.then(function () {
    Array.prototype.forEach.call(document.querySelectorAll(".save-offline[data-collection]"), offerSaving);
  });
  var kept = document.getElementById("offline-pages");
  if (kept && navigator.serviceWorker.controller) listKept(kept);
})();
