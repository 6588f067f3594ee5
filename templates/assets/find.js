// The search page without a server (docs/api.md#search-without-a-server): searches the static
// index the build writes under /find/ (core's search::offline) with the server page's rules
// (core's search::forgiving and handlers::search_page): the same folding, stop words, forms,
// other words, prefix of the last word, typo corrections, ranking, safety net and markup.
// Each query fetches the manifest once, then only the chunks of its words and the hits shown.
"use strict";
(function () {
  const form = document.querySelector("form[data-find]");
  const out = document.getElementById("find-results");
  if (!form || !out) return;
  const base = new URL(form.getAttribute("data-find"), location.href);
  const loaded = new Map();
  const get = (path) => {
    const url = new URL(path, base).href;
    if (!loaded.has(url)) loaded.set(url, fetch(url).then((r) => (r.ok ? r.json() : null)).catch(() => null));
    return loaded.get(url);
  };

  // --- Folding: core's search::schema::analyzer (tokenizer, lower case, ASCII folding, Arabic).
  const SPECIAL = { "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ł": "l", "þ": "th", "ð": "d", "ı": "i", "ħ": "h", "ŧ": "t", "ŋ": "n" };
  const ARTICLES = ["وال", "بال", "كال", "فال", "لل", "ال"];
  const isArabic = (t) => /[\u0600-\u06FF]/.test(t);
  const asciiFold = (t) => {
    let s = "";
    for (const c of t) {
      if (isArabic(c)) { s += c; continue; }
      const mapped = SPECIAL[c];
      s += mapped !== undefined ? mapped : c.normalize("NFKD").replace(/\p{M}/gu, "");
    }
    return s;
  };
  const arabicFold = (w) => {
    if (!isArabic(w)) return w;
    let letters = "";
    for (const c of w) {
      if ("أإآٱ".includes(c)) letters += "ا";
      else if (c === "ى") letters += "ي";
      else if (c === "ة") letters += "ه";
      else if (c === "\u0640" || (c >= "\u064B" && c <= "\u065F") || c === "\u0670") continue;
      else letters += c;
    }
    for (const a of ARTICLES) {
      if (letters.startsWith(a) && [...letters.slice(a.length)].length >= 2) return letters.slice(a.length);
    }
    if (letters.startsWith("و") && [...letters.slice(1)].length >= 3) return letters.slice(1);
    return letters;
  };
  const encoder = new TextEncoder();
  const words = (text) => {
    const found = [];
    for (const token of text.match(/[\p{Alphabetic}\p{N}]+/gu) || []) {
      if (encoder.encode(token).length >= 64) continue;
      const w = arabicFold(asciiFold(token.toLowerCase()));
      if (w) found.push(w);
    }
    return found;
  };
  window.portalFindWords = words; // for the folding test (tests/browser)
  const unique = (list) => [...new Set(list)];
  const chars = (w) => [...w].length;

  // --- Escaping and strings (core's pages::shell::escape, pages::i18n::Strings).
  const esc = (t) => String(t).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
  let M = null;
  const str = (key) => M.strings[key] || key;
  const fill = (key, values) => Object.entries(values).reduce((t, [k, v]) => t.split("{" + k + "}").join(v), str(key));
  const fillHtml = (key, html) => {
    let out = "", rest = str(key);
    for (;;) {
      let best = null;
      for (const [k, markup] of Object.entries(html)) {
        const at = rest.indexOf("{" + k + "}");
        if (at >= 0 && (!best || at < best.at)) best = { at, k, markup };
      }
      if (!best) break;
      out += esc(rest.slice(0, best.at)) + best.markup;
      rest = rest.slice(best.at + best.k.length + 2);
    }
    return out + esc(rest);
  };

  // --- The index's chunks: the manifest holds where each group of chunks starts (`terms`, `vocab`,
  // `known`), `<kind>s/<g>.json` where each chunk of group g starts (core's search::offline::grouped).
  const LISTS = { t: "terms", v: "vocab", k: "known" };
  const chunkOf = (starts, key) => {
    let lo = 0, hi = starts.length - 1, at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= key) { at = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return at;
  };
  // The number of the chunk of `kind` that would hold `key` (-1 before the first).
  const chunkAt = async (kind, key) => {
    const g = chunkOf(M[LISTS[kind]], key);
    if (g < 0) return -1;
    const at = chunkOf((await get(kind + "s/" + g + ".json")) || [], key);
    return at < 0 ? -1 : g * M.group + at;
  };
  // Where chunk n of `kind` starts (undefined past the last).
  const startOf = async (kind, n) => ((await get(kind + "s/" + Math.floor(n / M.group) + ".json")) || [])[n % M.group];
  const entry = async (word) => {
    const at = await chunkAt("t", word);
    if (at < 0) return null;
    const chunk = await get("t/" + at + ".json");
    return (chunk && chunk[word]) || null;
  };
  // Every entry whose word starts with `prefix` (the chunks that hold them: a later chunk holds
  // some only when its start starts with it).
  const startingWith = async (prefix) => {
    const first = Math.max(0, await chunkAt("t", prefix));
    const found = [];
    for (let i = first; ; i++) {
      const start = i > first ? await startOf("t", i) : "";
      if (start === undefined || (i > first && !start.startsWith(prefix))) break;
      const chunk = (await get("t/" + i + ".json")) || {};
      for (const [k, e] of Object.entries(chunk)) if (k.startsWith(prefix)) found.push(e);
    }
    return found;
  };
  const decode = (flat, stride) => {
    const out = [];
    let doc = 0;
    for (let i = 0; i < (flat || []).length; i += stride) {
      doc += flat[i];
      out.push([doc, flat[i + 1], stride === 3 ? flat[i + 2] / M.scoreScale : 0]);
    }
    return out;
  };
  const fieldsScore = (mask, factor) => M.fieldWeights.reduce((s, w, f) => (mask & (1 << f) ? s + w * factor : s), 0);

  // One word's matches: per document, its score (core's search::matching clauses).
  async function wordMatches(word, last) {
    const own = (await entry(word)) || {};
    const docs = new Map();
    const add = (doc, score) => docs.set(doc, (docs.get(doc) || 0) + score);
    const exact = decode(own.p, 3);
    exact.forEach(([doc, , score]) => add(doc, score));
    decode(own.sp, 2).forEach(([doc, score]) => add(doc, (score / M.scoreScale) * M.formDiscount));
    if (last) {
      const masks = new Map();
      if (chars(word) <= M.prefixEntryChars) {
        decode(own.x, 2).forEach(([doc, mask]) => masks.set(doc, mask));
      } else {
        for (const e of await startingWith(word)) decode(e.p, 3).forEach(([doc, mask]) => masks.set(doc, (masks.get(doc) || 0) | mask));
      }
      masks.forEach((mask, doc) => add(doc, fieldsScore(mask, M.prefixDiscount)));
    }
    if (own.ff) {
      const masks = new Map(decode(own.fp, 2).map(([doc, mask]) => [doc, mask]));
      exact.forEach(([doc, mask]) => masks.set(doc, (masks.get(doc) || 0) | mask));
      masks.forEach((mask, doc) => add(doc, fieldsScore(mask & own.ff, M.formDiscount)));
    }
    return { docs, forms: own.f || [], synonyms: own.s || [] };
  }

  const collectionOf = (doc) => {
    let name = null;
    for (const [collection, start] of M.segments) { if (start <= doc) name = collection; else break; }
    return name;
  };

  // core's forgiving::by_words: the documents with the most words first, then by score.
  async function byWords(list, scope, limit) {
    const matches = await Promise.all(list.map((w, i) => wordMatches(w, i + 1 === list.length)));
    const docs = new Map();
    matches.forEach((m) => m.docs.forEach((score, doc) => {
      const d = docs.get(doc) || { words: 0, score: 0 };
      d.words += 1; d.score += score; docs.set(doc, d);
    }));
    const buckets = scope.map(() => ({ total: 0, top: [] }));
    docs.forEach((d, doc) => {
      const i = scope.indexOf(collectionOf(doc));
      if (i < 0) return;
      buckets[i].total += 1;
      buckets[i].top.push({ doc, words: d.words, score: d.score });
    });
    for (const b of buckets) {
      b.top.sort((a, b) => b.words - a.words || b.score - a.score || a.doc - b.doc);
      b.top = b.top.slice(0, limit);
    }
    const total = buckets.reduce((s, b) => s + b.total, 0);
    const partial = total > 0 && buckets.every((b) => !b.top.length || b.top[0].words < list.length);
    return { words: list, buckets, total, partial, matches };
  }

  // core's forgiving::corrections: an unknown word's nearest word of the index.
  const distance = (a, b) => {
    a = [...a]; b = [...b];
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
    for (let j = 0; j <= b.length; j++) d[0][j] = j;
    for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) {
      let best = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2][j - 2] + 1);
      d[i][j] = best;
    }
    return d[a.length][b.length];
  };
  async function knownWord(word) {
    const at = await chunkAt("k", word);
    const chunk = at < 0 ? null : await get("k/" + at + ".json");
    return Array.isArray(chunk) && chunk.includes(word);
  }
  async function nearest(word) {
    if (chars(word) < 4) return null;
    const max = chars(word) >= 8 ? 2 : 1;
    const first = [...word][0];
    const ranked = [];
    // The index's words are ordered by first character, length (two digits), word (core's
    // search::offline::vocabulary_key): read the chunks of the lengths within `max`.
    const key = (n) => first + String(Math.max(0, Math.min(99, n))).padStart(2, "0");
    const start = Math.max(0, await chunkAt("v", key(chars(word) - max)));
    const end = key(chars(word) + max) + "\uffff";
    for (let i = start; ; i++) {
      const from = i > start ? await startOf("v", i) : "";
      if (from === undefined || (i > start && from >= end)) break;
      const chunk = (await get("v/" + i + ".json")) || {};
      for (const [term, docs] of Object.entries(chunk)) {
        if (term === word || [...term][0] !== first || Math.abs(chars(term) - chars(word)) > max) continue;
        const d = distance(word, term);
        if (d <= max) ranked.push([d, -docs, term]);
      }
    }
    ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1] || (a[2] < b[2] ? -1 : a[2] > b[2] ? 1 : 0));
    if (!ranked.length) return null;
    return { word: ranked[0][2], only: !ranked[1] || ranked[1][0] > ranked[0][0] };
  }
  async function forgiving(terms, scope, limit) {
    const stop = new Set(M.stopWords);
    let typed = unique(terms).filter((w) => !stop.has(w));
    if (!typed.length) typed = unique(terms);
    typed = typed.slice(0, M.limits.maxPartialWords);
    const answer = { suggestion: null, corrected: false };
    const unknown = [];
    for (let i = 0; i < typed.length; i++) {
      const m = await wordMatches(typed[i], i + 1 === typed.length);
      unknown.push(m.docs.size === 0);
    }
    if (typed.filter((w, i) => unknown[i] && chars(w) >= 4).length <= M.limits.maxCorrectedWords) {
      const corrections = [];
      let any = false;
      for (let i = 0; i < typed.length; i++) {
        let near = unknown[i] ? await nearest(typed[i]) : null;
        if (near && (await knownWord(typed[i]))) near.only = false;
        any = any || !!near;
        corrections.push(near || { word: typed[i], only: true });
      }
      if (any) {
        const corrected = corrections.map((c) => c.word);
        answer.suggestion = corrected.join(" ");
        if (corrections.every((c) => c.only)) {
          const found = await byWords(corrected, scope, limit);
          if (found.total > 0) return Object.assign(answer, found, { corrected: true });
        }
      }
    }
    return Object.assign(answer, await byWords(typed, scope, limit));
  }

  // --- The page (core's handlers::search_page).
  const helpFirst = (query) => {
    const folded = words(query);
    return !!M.help && folded.length > 0 &&
      M.helpWords.some((entry) => entry.every(([w, stem]) => folded.some((q) => (stem ? q.startsWith(w) : q === w))));
  };
  const label = (c) => M.labels[c] || c;
  function helpBox(query) {
    if (!helpFirst(query)) return "";
    const h = M.help;
    let s = `<section class="help-first" role="alert">\n<h2><a href="${esc(h.url)}">${esc(h.title)}</a></h2>\n`;
    if (h.summary) s += `<p>${esc(h.summary)}</p>\n`;
    if ((h.phones || []).length) {
      s += `<p>${esc(str("search_page.help_call"))}</p>\n<ul class="help-numbers">\n`;
      for (const p of h.phones) s += `<li><a href="tel:${esc(p.tel)}">${esc(p.text)}</a></li>\n`;
      s += "</ul>\n";
    }
    return s + "</section>\n";
  }
  function helpLinks() {
    const services = `<a href="/services">${esc(str("search_page.services_link"))}</a>`;
    const help = M.help ? `<a href="${esc(M.help.url)}">${esc(M.help.title)}</a>` : services;
    return `<p class="help-links">${fillHtml("search_page.help_links", { help, services })}</p>\n`;
  }
  const searchLink = (q) => "?" + new URLSearchParams({ q }).toString();
  function notices(query, found, asksHelp) {
    const total = String(found.total);
    let s = `<p role="status">${esc(found.total === 0 ? fill("search_page.none", { query }) : fill("search_page.results", { query, count: total }))}</p>\n`;
    if (found.total === 0) s += helpLinks();
    if (found.suggestion !== null && !asksHelp) {
      const link = `<a href="${esc(searchLink(found.suggestion))}">${esc(found.suggestion)}</a>`;
      s += `<p class="did-you-mean">${fillHtml("search_page.did_you_mean", { suggestion: link })}</p>\n`;
      if (found.corrected && found.total > 0) s += `<p>${esc(fill("search_page.corrected", { query: found.suggestion }))}</p>\n`;
    }
    if (found.partial) s += `<p class="notice">${esc(str("search_page.partial"))}</p>\n`;
    return s;
  }
  function named(scope, query) {
    const stop = new Set(M.stopWords);
    const all = words(query);
    let kept = all.filter((w) => !stop.has(w));
    if (!kept.length) kept = all;
    const typed = kept.join(" ");
    return scope.filter((c) => c !== "entries" && (M.names[c] || []).some((n) => chars(n) > 2 && n === typed));
  }
  function marker(found) {
    const marked = new Set(found.words);
    found.matches.forEach((m) => { m.forms.forEach((f) => marked.add(f)); m.synonyms.forEach((f) => marked.add(f)); });
    const last = found.words[found.words.length - 1] || "";
    return (text) => esc(text).replace(/[\p{Alphabetic}\p{N}]+/gu, (token) => {
      const w = words(token)[0] || "";
      return w && (marked.has(w) || (last && w.startsWith(last))) ? `<mark>${token}</mark>` : token;
    });
  }
  async function hitItem(doc, name, mark) {
    const chunk = (await get("d/" + Math.floor(doc / M.fragment) + ".json")) || [];
    const [url, title, , date, dateText, summary] = chunk[doc % M.fragment] || ["/", "", "", null, null, ""];
    let s = `<li><a href="${esc(url)}">${esc(title)}</a>\n<p class="hit-meta"><span class="hit-collection">${esc(name)}</span>`;
    if (date) s += ` · <time datetime="${esc(date)}">${esc(dateText)}</time>`;
    s += "</p>\n";
    if (summary) s += `<p class="excerpt" dir="auto">${mark(summary)}</p>\n`;
    return s + "</li>\n";
  }
  async function render(query, scope, limit) {
    const { minQueryChars, maxQueryChars, maxQueryWords } = M.limits;
    if (chars(query.trim()) < minQueryChars) return `<p role="status">${esc(fill("search_page.too_short", { min: String(minQueryChars) }))}</p>\n`;
    if (chars(query) > maxQueryChars) return `<p role="status">${esc(fill("search_page.too_long", { max: String(maxQueryChars) }))}</p>\n`;
    const terms = unique(words(query));
    if (terms.length > maxQueryWords) return `<p role="status">${esc(fill("search_page.too_many_words", { max: String(maxQueryWords) }))}</p>\n`;
    const found = await forgiving(terms, scope, limit);
    const asksHelp = helpFirst(query);
    let s = helpBox(query) + notices(query, found, asksHelp);
    const listed = [];
    for (const c of named(scope, query)) {
      const l = await get("l/" + c + ".json");
      if (l && l.hits.length) listed.push([c, l]);
    }
    for (const [c, l] of listed) {
      s += `<section class="search-group listed" aria-labelledby="listed-${c}">\n<h2 id="listed-${c}">${esc(label(c))}</h2>\n<ul class="records">\n`;
      for (const [title, url] of l.hits) s += `<li><a href="${esc(url)}">${esc(title)}</a></li>\n`;
      s += `</ul>\n<p><a href="/${c}">${esc(fill("search_page.more", { collection: label(c), count: String(l.total) }))}</a></p>\n</section>\n`;
    }
    const rank = (i) => {
      const best = found.buckets[i].top[0];
      if (!best) return 0;
      return (best.words + best.score / (best.score + 1)) * (M.weights[scope[i]] ?? 1);
    };
    const order = scope.map((_, i) => i).sort((a, b) => rank(b) - rank(a) || a - b);
    const mark = marker(found);
    for (const i of order) {
      const c = scope[i], bucket = found.buckets[i];
      if (!bucket.top.length || listed.some(([l]) => l === c) || scope.slice(0, i).includes(c)) continue;
      const name = label(c);
      s += `<section class="search-group" aria-labelledby="results-${c}">\n<h2 id="results-${c}">${esc(name)}</h2>\n<ul class="records">\n`;
      for (const hit of bucket.top) s += await hitItem(hit.doc, name, mark);
      s += "</ul>\n";
      if (bucket.total > bucket.top.length && limit < 50) {
        const more = new URLSearchParams({ q: query, collections: c, limit: "50" }).toString();
        s += `<p><a href="?${esc(more)}">${esc(fill("search_page.more", { collection: name, count: String(bucket.total) }))}</a></p>\n`;
      }
      s += "</section>\n";
    }
    return s;
  }

  async function run() {
    const params = new URLSearchParams(location.search);
    const query = params.get("q");
    form.querySelector("input[name=q]").value = query || "";
    if (query === null) return;
    M = M || (await get(base.href));
    if (!M || M.format !== 2) {
      out.innerHTML = `<p class="notice">${esc(M ? str("search_page.index_failed") : "Search could not load its index.")}</p>`;
      return;
    }
    const asked = (params.get("collections") || "").split(",").map((c) => c.trim()).filter((c) => M.scope.includes(c));
    const scope = asked.length ? unique(asked) : M.scope;
    const limit = Math.min(50, Math.max(1, parseInt(params.get("limit"), 10) || M.limits.pageLimit));
    out.innerHTML = await render(query, scope, limit);
    out.setAttribute("data-searched", query);
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const q = form.querySelector("input[name=q]").value;
    history.pushState(null, "", "?" + new URLSearchParams({ q }).toString());
    run();
  });
  window.addEventListener("popstate", run);
  run();
})();
