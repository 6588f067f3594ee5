//! `GET /search?q=` (docs/spec/api-spec.md#forms): search results as a page people read, grouped by collection
//! (the encyclopedia included), each hit linking its page with its collection, date and an
//! excerpt. The page forgives what the API does not (word forms, typos, partial matches: see
//! [`crate::search::forgiving`]) on the same engine; a query too short, too long or with too many
//! words to search ([`crate::search::limits`]) gets the form back with a message.

use std::fmt::Write;

use serde_json::Value;

use crate::content::collections::{record_api_path, ENCYCLOPEDIA};
use crate::content::i18n::Strings;
use crate::content::plain::markdown as plain;
use crate::content::text::escape;
use crate::content::{HelpPage, SearchSettings};
use crate::handlers::files::read_json;
use crate::handlers::page;
use crate::handlers::search::{asked, Asked, MAX_LIMIT};
use crate::handlers::Ctx;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::{internal, Platform};
use crate::routing::pages::SEARCH;
use crate::search::excerpt::{excerpt, excerpt_of, NeedsMore, EXCERPT_CHARS};
use crate::search::forgiving::{Forgiven, Highlight};
use crate::search::limits::{self, Refusal, MAX_QUERY_CHARS, MAX_QUERY_WORDS, MIN_QUERY_CHARS};
use crate::search::safety::HelpWords;
use crate::search::schema::words;
use crate::search::shown::Shown;
use crate::search::stopwords::meaningful;
use crate::search::Hit;

/// Hits a collection shows on the page unless the link asks for more: the first few, each with an
/// excerpt read from its record, and a link to the rest. A phone shows about three results per
/// screen, and reading a record per hit was most of the page's time on a query matching nearly
/// everything (BENCHMARKS.md: 20 collections of 10 hits took 47 ms at the 99th percentile over
/// 100k records; 3 each, 15.5 ms).
const PAGE_LIMIT: usize = 3;

/// Answers `/search`.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let strings = &ctx.state.manifest().strings;
    let mut asked = asked(ctx)?;
    if ctx.query.get("limit").is_none() {
        asked.limit = PAGE_LIMIT;
    }
    // People search everything: the encyclopedia too, unless the link names the collections.
    if ctx.query.get("collections").is_none_or(|c| c.trim().is_empty()) {
        asked.scope.push(ENCYCLOPEDIA.to_string());
    }
    let mut main = format!("<h1>{}</h1>\n{}", escape(strings.get("search_page.title")), form(strings, &asked.query));
    match limits::terms(&asked.query) {
        Ok(terms) => {
            let index = ctx.state.search_index(ctx.platform).await?;
            let forms = index.page_forms(&ctx.state.manifest().site);
            let forgiven = index
                .forgiving(&terms, &asked.scope, asked.limit, &forms)
                .map_err(internal(ctx.platform, "searching"))?;
            let highlight = Highlight::new(&forgiven.words, &forms);
            let manifest = ctx.state.manifest();
            let help = manifest.help.as_ref();
            let settings = &manifest.site.search;
            let asks = help.is_some()
                && HelpWords::new(&settings.help_words, settings.help_words_replace).asks_for_help(&asked.query);
            let page = Page { strings, asked: &asked, help, help_first: asks, settings };
            let order = section_order(&page, &forgiven);
            let excerpted = excerpted(&forgiven, &order);
            let details = details(ctx, &forgiven, &excerpted, &highlight).await;
            let named = named_collections(strings, &asked.scope, &asked.query);
            let mut listed = Vec::new();
            for collection in named {
                if let Some(records) = listing(ctx, &collection).await {
                    listed.push((collection, records));
                }
            }
            main.push_str(&results(&page, &forgiven, &order, &details, &listed));
        }
        Err(refusal) => {
            let _ = writeln!(main, "<p role=\"status\">{}</p>", escape(&refused(strings, refusal)));
        }
    }
    Ok(page::render(ctx.state, ctx.platform, &ctx.request.path, 200, strings.get("search_page.title"), &main).await)
}

/// What the page says of a query it does not search (docs/spec/api-spec.md#limits): the form
/// stays, with the limit in the site's language (a page answers 200, as for a short query).
fn refused(strings: &Strings, refusal: Refusal) -> String {
    match refusal {
        Refusal::TooShort => strings.fill("search_page.too_short", &[("min", &MIN_QUERY_CHARS.to_string())]),
        Refusal::TooLong { .. } => strings.fill("search_page.too_long", &[("max", &MAX_QUERY_CHARS.to_string())]),
        Refusal::TooManyWords { .. } => {
            strings.fill("search_page.too_many_words", &[("max", &MAX_QUERY_WORDS.to_string())])
        }
    }
}

/// What a hit shows besides its title, read from its record.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Detail {
    /// Its `date`, when it has one.
    date: Option<String>,
    /// An excerpt of its summary and body, HTML.
    excerpt: Option<String>,
}

/// Sections of hits shown with their dates and excerpts, first in [`section_order`]; the hits of
/// later sections show their titles alone. Reading a record per hit is most of the page's time on
/// a query matching nearly every collection (BENCHMARKS.md, "Search page"), and a reader on a phone
/// looks at the first few sections; the rest are a title and a link away.
const EXCERPTED_SECTIONS: usize = 5;

/// Per collection of `forgiven`, whether its hits get details: the first
/// [`EXCERPTED_SECTIONS`] of `order` that have hits.
fn excerpted(forgiven: &Forgiven, order: &[usize]) -> Vec<bool> {
    let mut wanted = vec![false; forgiven.found.len()];
    let with_hits = order.iter().filter(|&&i| forgiven.found.get(i).is_some_and(|(hits, _)| !hits.is_empty()));
    for &i in with_hits.take(EXCERPTED_SECTIONS) {
        wanted[i] = true;
    }
    wanted
}

/// The details of the hits of `forgiven` whose collection is `excerpted`, per collection in
/// order (the others default), from their records read together. A record that cannot be read
/// (reported) shows its title alone.
async fn details<P: Platform>(
    ctx: &Ctx<'_, P>,
    forgiven: &Forgiven,
    excerpted: &[bool],
    highlight: &Highlight<'_>,
) -> Vec<Vec<Detail>> {
    let mut files = Vec::new();
    for (i, (hits, _)) in forgiven.found.iter().enumerate() {
        for hit in hits {
            let file = if excerpted.get(i).copied().unwrap_or(false) {
                let asset = ctx.state.asset(ctx.platform, &record_api_path(&hit.collection, &hit.slug)).await;
                asset.ok().flatten().map(|asset| asset.file.clone())
            } else {
                None
            };
            files.push(file);
        }
    }
    let known: Vec<String> = files.iter().flatten().cloned().collect();
    let mut read = ctx.platform.read_files(&known).await.into_iter();
    let mut shown = files.iter().map(|file| {
        let file = file.as_deref()?;
        match read.next()? {
            Ok(Some(bytes)) => match serde_json::from_slice::<Shown<'_>>(&bytes) {
                Ok(shown) => Some(detail(&shown, highlight)),
                Err(e) => report(ctx.platform, file, &e),
            },
            Ok(None) => None,
            Err(e) => report(ctx.platform, file, &e),
        }
    });
    let mut all = Vec::with_capacity(forgiven.found.len());
    for (hits, _) in &forgiven.found {
        all.push(shown.by_ref().take(hits.len()).map(Option::unwrap_or_default).collect());
    }
    all
}

/// Reports that `file` could not be read or parsed: the hit shows its title alone.
fn report<P: Platform>(platform: &P, file: &str, cause: &dyn std::fmt::Display) -> Option<Detail> {
    platform.report(file, cause);
    None
}

/// The detail of one record's shown fields.
fn detail(shown: &Shown<'_>, highlight: &Highlight<'_>) -> Detail {
    let date = shown.date.as_deref().and_then(crate::content::time::leading_date).map(str::to_string);
    let summary = shown.summary.as_deref().unwrap_or_default();
    let body = shown.body.as_deref().unwrap_or_default();
    let marks = |word: &str| highlight.marks(word);
    // Most excerpts come from the first lines: the rest of a long body is read only when not.
    let head = head_lines(body, HEAD_BYTES);
    let excerpt =
        match excerpt_of(&format!("{summary}\n{}", plain(head)), head.len() == body.len(), marks, EXCERPT_CHARS) {
            Ok(found) => found,
            Err(NeedsMore) => excerpt(&format!("{summary}\n{}", plain(body)), marks, EXCERPT_CHARS),
        };
    Detail { date, excerpt }
}

/// How much of a body the excerpt is first looked for in.
const HEAD_BYTES: usize = 1024;

/// The whole lines of `text` within its first `bytes` (at least the first line), ending after a
/// line break, so the head's plain text is the start of the whole's.
fn head_lines(text: &str, bytes: usize) -> &str {
    if text.len() <= bytes {
        return text;
    }
    let cut = text.as_bytes()[..bytes].iter().rposition(|&b| b == b'\n');
    let end = cut.or_else(|| text.as_bytes().iter().position(|&b| b == b'\n')).map_or(text.len(), |at| at + 1);
    &text[..end]
}

/// The search box, holding the query.
fn form(strings: &Strings, query: &str) -> String {
    format!(
        "<form class=\"search\" action=\"/search\" method=\"get\" role=\"search\">\n<label for=\"q\">{}</label>\n\
         <input id=\"q\" name=\"q\" type=\"search\" value=\"{}\">\n<button type=\"submit\">{}</button>\n</form>\n",
        escape(strings.get("search.label")),
        escape(query),
        escape(strings.get("search.button"))
    )
}

/// How a collection is called on the page.
fn label<'a>(strings: &'a Strings, collection: &'a str) -> &'a str {
    if collection == ENCYCLOPEDIA {
        strings.get("search_page.encyclopedia")
    } else {
        let key = format!("collections.{collection}.label");
        match strings.lookup(&key).and_then(Value::as_str) {
            Some(label) => label,
            None => collection,
        }
    }
}

/// The link of a search for `query`.
fn search_link(query: &str) -> String {
    let query = form_urlencoded::Serializer::new(String::new()).append_pair("q", query).finish();
    format!("{SEARCH}?{query}")
}

/// What the page says of the search: the count, the correction offered or made, and whether the
/// hits have only some of the words.
fn notices(page: &Page<'_>, forgiven: &Forgiven) -> String {
    let Page { strings, asked, .. } = *page;
    let total = forgiven.total().to_string();
    let mut out = format!(
        "<p role=\"status\">{}</p>\n",
        escape(&if forgiven.total() == 0 {
            strings.fill("search_page.none", &[("query", &asked.query)])
        } else {
            strings.fill("search_page.results", &[("query", &asked.query), ("count", &total)])
        })
    );
    if forgiven.total() == 0 {
        out.push_str(&help_links(page));
    }
    // A query asking for help gets the help page, never a "did you mean" of its words.
    if let Some(suggestion) = forgiven.suggestion.as_ref().filter(|_| !page.help_first) {
        let link = format!("<a href=\"{}\">{}</a>", escape(&search_link(suggestion)), escape(suggestion));
        let text = strings.fill_html("search_page.did_you_mean", &[("suggestion", &link)]);
        let _ = writeln!(out, "<p class=\"did-you-mean\">{text}</p>");
        if forgiven.corrected && forgiven.total() > 0 {
            let _ =
                writeln!(out, "<p>{}</p>", escape(&strings.fill("search_page.corrected", &[("query", suggestion)])));
        }
    }
    if forgiven.partial {
        let _ = writeln!(out, "<p class=\"notice\">{}</p>", escape(strings.get("search_page.partial")));
    }
    out
}

/// One hit: its title linking its page, its collection and date, and its excerpt.
fn hit_item(strings: &Strings, name: &str, hit: &Hit, detail: &Detail) -> String {
    let mut out = format!("<li><a href=\"{}\">{}</a>\n", escape(&hit.url), escape(&hit.title));
    let _ = write!(out, "<p class=\"hit-meta\"><span class=\"hit-collection\">{}</span>", escape(name));
    if let Some(date) = &detail.date {
        let _ = write!(out, " · <time datetime=\"{}\">{}</time>", escape(date), escape(&strings.date(date)));
    }
    out.push_str("</p>\n");
    if let Some(excerpt) = &detail.excerpt {
        let _ = writeln!(out, "<p class=\"excerpt\" dir=\"auto\">{excerpt}</p>");
    }
    out.push_str("</li>\n");
    out
}

/// The most records of a collection the query names that the page lists.
const MAX_LISTED: usize = 20;

/// The collections of `scope` that `query` names, all of it but stop words: by name (`jobs`),
/// singular (`job`) or label in the site's language (`Kazi`), folded as search folds.
fn named_collections(strings: &Strings, scope: &[String], query: &str) -> Vec<String> {
    let typed = meaningful(&words(query)).join(" ");
    let names = |collection: &str| -> Vec<String> {
        let key = format!("collections.{collection}.label");
        let label = strings.lookup(&key).and_then(Value::as_str).unwrap_or_default();
        vec![collection.to_string(), collection.trim_end_matches('s').to_string(), words(label).join(" ")]
    };
    scope
        .iter()
        .filter(|c| {
            c.as_str() != ENCYCLOPEDIA && names(c).iter().any(|name| name.chars().count() > 2 && *name == typed)
        })
        .cloned()
        .collect()
}

/// The first records of `collection`'s listing (its first JSON page) and how many it has in all;
/// `None` when it cannot be read.
async fn listing<P: Platform>(ctx: &Ctx<'_, P>, collection: &str) -> Option<(Vec<Hit>, usize)> {
    let page = read_json(ctx.state, ctx.platform, &format!("/api/{collection}")).await.ok()??;
    let items = page.get("data")?.get(collection)?.as_array()?;
    let total = page.get("total").and_then(Value::as_u64).map_or(items.len(), |t| t as usize);
    let hits = items
        .iter()
        .take(MAX_LISTED)
        .filter_map(|item| {
            let text = |key: &str| item.get(key).and_then(Value::as_str).map(str::to_string);
            Some(Hit {
                slug: text("slug")?,
                title: text("title")?,
                collection: collection.to_string(),
                url: text("url")?,
            })
        })
        .collect();
    Some((hits, total))
}

/// The sections of the collections the query names: their records, and a link to their listing.
fn listed_sections(strings: &Strings, listed: &[(String, (Vec<Hit>, usize))]) -> String {
    let mut out = String::new();
    for (collection, (hits, total)) in listed.iter().filter(|(_, (hits, _))| !hits.is_empty()) {
        let name = label(strings, collection);
        let _ = write!(
            out,
            "<section class=\"search-group listed\" aria-labelledby=\"listed-{collection}\">\n<h2 id=\"listed-{collection}\">{}</h2>\n<ul class=\"records\">\n",
            escape(name)
        );
        for hit in hits {
            let _ = writeln!(out, "<li><a href=\"{}\">{}</a></li>", escape(&hit.url), escape(&hit.title));
        }
        let more = strings.fill("search_page.more", &[("collection", name), ("count", &total.to_string())]);
        let _ = writeln!(out, "</ul>\n<p><a href=\"/{collection}\">{}</a></p>\n</section>", escape(&more));
    }
    out
}

/// What the page is rendered with besides the hits.
#[derive(Clone, Copy)]
struct Page<'a> {
    strings: &'a Strings,
    asked: &'a Asked,
    /// The site's help page, when it has one.
    help: Option<&'a HelpPage>,
    /// Whether the query asks for help (docs/spec/api-spec.md#search-page-help).
    help_first: bool,
    settings: &'a SearchSettings,
}

/// The help page first, with its numbers as `tel:` links.
fn help_box(page: &Page<'_>) -> String {
    let Some(help) = page.help.filter(|_| page.help_first) else { return String::new() };
    let mut out = format!(
        "<section class=\"help-first\" role=\"alert\">\n<h2><a href=\"{}\">{}</a></h2>\n",
        escape(&help.url),
        escape(&help.title)
    );
    if let Some(summary) = &help.summary {
        let _ = writeln!(out, "<p>{}</p>", escape(summary));
    }
    if !help.phones.is_empty() {
        let _ =
            writeln!(out, "<p>{}</p>\n<ul class=\"help-numbers\">", escape(page.strings.get("search_page.help_call")));
        for phone in &help.phones {
            let _ = writeln!(out, "<li><a href=\"tel:{}\">{}</a></li>", escape(&phone.tel), escape(&phone.text));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("</section>\n");
    out
}

/// The links of a page that found nothing: the help page (when the site has one) and the services.
fn help_links(page: &Page<'_>) -> String {
    let services = format!("<a href=\"/services\">{}</a>", escape(page.strings.get("search_page.services_link")));
    let help = match page.help {
        Some(help) => format!("<a href=\"{}\">{}</a>", escape(&help.url), escape(&help.title)),
        None => services.clone(),
    };
    let text = page.strings.fill_html("search_page.help_links", &[("help", &help), ("services", &services)]);
    format!("<p class=\"help-links\">{text}</p>\n")
}

/// The order of the sections: the collection whose best hit has the most words first, then the
/// highest score, each weighed by the collection's weight (`search.weights`; `docs` low), so that a
/// section of a lighter collection needs many more words to come first.
fn section_order(page: &Page<'_>, forgiven: &Forgiven) -> Vec<usize> {
    let rank = |i: usize| -> f32 {
        let Some(Some((words, score))) = forgiven.best.get(i) else { return 0.0 };
        let collection = page.asked.scope.get(i).map_or("", String::as_str);
        // A score below 1 of the word count: the words decide, the score only among equals.
        (*words as f32 + score / (score + 1.0)) * page.settings.weight(collection)
    };
    let mut order: Vec<usize> = (0..page.asked.scope.len()).collect();
    order.sort_by(|&a, &b| rank(b).total_cmp(&rank(a)).then(a.cmp(&b)));
    order
}

/// The hits, the help page first when the query asks for help, then a section per collection
/// in `order` (see [`section_order`]), with a link to more when a collection has more matches than the page
/// shows.
fn results(
    page: &Page<'_>,
    forgiven: &Forgiven,
    order: &[usize],
    details: &[Vec<Detail>],
    listed: &[(String, (Vec<Hit>, usize))],
) -> String {
    let Page { strings, asked, .. } = *page;
    let mut out = help_box(page);
    out.push_str(&notices(page, forgiven));
    out.push_str(&listed_sections(strings, listed));
    for &i in order {
        let (Some(collection), Some((hits, matched))) = (asked.scope.get(i), forgiven.found.get(i)) else { continue };
        let shown = listed.iter().any(|(c, (hits, _))| c == collection && !hits.is_empty());
        if hits.is_empty() || shown || asked.scope[..i].contains(collection) {
            continue;
        }
        let name = label(strings, collection);
        let _ = write!(
            out,
            "<section class=\"search-group\" aria-labelledby=\"results-{collection}\">\n<h2 id=\"results-{collection}\">{}</h2>\n<ul class=\"records\">\n",
            escape(name)
        );
        let none = Vec::new();
        let collection_details = details.get(i).unwrap_or(&none);
        for (j, hit) in hits.iter().enumerate() {
            out.push_str(&hit_item(strings, name, hit, collection_details.get(j).unwrap_or(&Detail::default())));
        }
        out.push_str("</ul>\n");
        if *matched > hits.len() && asked.limit < MAX_LIMIT as usize {
            let more = form_urlencoded::Serializer::new(String::new())
                .append_pair("q", &asked.query)
                .append_pair("collections", collection)
                .append_pair("limit", &MAX_LIMIT.to_string())
                .finish();
            let text = strings.fill("search_page.more", &[("collection", name), ("count", &matched.to_string())]);
            let _ = writeln!(out, "<p><a href=\"{SEARCH}?{}\">{}</a></p>", escape(&more), escape(&text));
        }
        out.push_str("</section>\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::word_forms::Forms;
    use serde_json::json;

    fn hit(title: &str) -> Hit {
        Hit { slug: "a".into(), title: title.into(), collection: "news".into(), url: "/news/a".into() }
    }

    #[test]
    fn hits_are_grouped_escaped_and_link_to_more() {
        let strings = Strings(
            json!({"collections": {"news": {"label": "News"}}, "search_page": {"results": "{count} for {query}"}}),
        );
        let asked = Asked { query: "<b>water</b>".into(), limit: 1, scope: vec!["news".into(), "entries".into()] };
        let found = vec![(vec![hit("A & B")], 3), (Vec::new(), 0)];
        let forgiven = Forgiven { words: vec!["water".into()], found, ..Forgiven::default() };
        let detail = Detail { date: Some("2026-10-14".into()), excerpt: Some("<mark>water</mark> here".into()) };
        let settings = SearchSettings::default();
        let page = Page { strings: &strings, asked: &asked, help: None, help_first: false, settings: &settings };
        let html = results(&page, &forgiven, &section_order(&page, &forgiven), &[vec![detail]], &[]);
        assert!(html.contains("3 for &lt;b&gt;water&lt;/b&gt;"), "{html}");
        assert!(html.contains("<h2 id=\"results-news\">News</h2>"));
        assert!(html.contains("<a href=\"/news/a\">A &amp; B</a>"));
        assert!(html.contains("<span class=\"hit-collection\">News</span> · <time datetime=\"2026-10-14\">"), "{html}");
        assert!(html.contains("<p class=\"excerpt\" dir=\"auto\"><mark>water</mark> here</p>"));
        assert!(html.contains("href=\"/search?q=%3Cb%3Ewater%3C%2Fb%3E&amp;collections=news&amp;limit=50\""));
        assert!(!html.contains("results-entries"));
    }

    #[test]
    fn only_the_first_sections_with_hits_are_excerpted() {
        let found = |n: usize| (vec![hit("x"); n], n);
        let forgiven =
            Forgiven { found: (0..9).map(|i| found(usize::from(i % 2 == 0))).collect(), ..Forgiven::default() };
        // Sections shown last to first: the five last with hits (8, 6, 4, 2, 0) get excerpts.
        let order: Vec<usize> = (0..9).rev().collect();
        let wanted = excerpted(&forgiven, &order);
        assert_eq!(wanted, [true, false, true, false, true, false, true, false, true]);
        let forgiven = Forgiven { found: (0..12).map(|_| found(1)).collect(), ..Forgiven::default() };
        let wanted = excerpted(&forgiven, &(0..12).collect::<Vec<_>>());
        assert_eq!(wanted.iter().filter(|&&w| w).count(), EXCERPTED_SECTIONS);
        assert!(wanted[..EXCERPTED_SECTIONS].iter().all(|&w| w));
    }

    #[test]
    fn sections_follow_their_best_hit_and_docs_weigh_less() {
        let strings = Strings(json!({}));
        let scope: Vec<String> = ["docs", "news", "services"].map(String::from).to_vec();
        let asked = Asked { query: "water".into(), limit: 3, scope };
        let forgiven = Forgiven {
            best: vec![Some((2, 9.0)), Some((1, 5.0)), Some((2, 1.0))],
            found: vec![(vec![hit("A")], 1), (vec![hit("B")], 1), (vec![hit("C")], 1)],
            ..Forgiven::default()
        };
        let settings = SearchSettings::default();
        let page = Page { strings: &strings, asked: &asked, help: None, help_first: false, settings: &settings };
        assert_eq!(section_order(&page, &forgiven), [2, 1, 0], "more words first; docs last by default");
        let mut even = SearchSettings::default();
        even.weights.insert("docs".into(), 1.0);
        let page = Page { settings: &even, ..page };
        assert_eq!(section_order(&page, &forgiven), [0, 2, 1], "a site may weigh docs as any other");
    }

    #[test]
    fn the_help_box_links_the_help_page_and_calls_its_numbers() {
        let strings = Strings(json!({"search_page": {"help_call": "Call:"}}));
        let asked = Asked { query: "rape".into(), limit: 3, scope: vec![] };
        let help = HelpPage {
            url: "/urgent-help".into(),
            title: "Urgent <help>".into(),
            summary: None,
            phones: vec![crate::content::HelpPhone { text: "+256 700".into(), tel: "+256700".into() }],
        };
        let settings = SearchSettings::default();
        let page = Page { strings: &strings, asked: &asked, help: Some(&help), help_first: true, settings: &settings };
        let html = help_box(&page);
        assert!(html.contains("<a href=\"/urgent-help\">Urgent &lt;help&gt;</a>"), "{html}");
        assert!(html.contains("<a href=\"tel:+256700\">+256 700</a>"), "{html}");
        assert_eq!(help_box(&Page { help_first: false, ..page }), "");
    }

    #[test]
    fn a_query_naming_a_collection_names_it() {
        let strings = Strings(json!({"collections": {"jobs": {"label": "Kazi"}}}));
        let scope: Vec<String> = ["news", "jobs"].map(String::from).to_vec();
        assert_eq!(named_collections(&strings, &scope, "Jobs"), ["jobs"]);
        assert_eq!(named_collections(&strings, &scope, "job"), ["jobs"]);
        assert_eq!(named_collections(&strings, &scope, "kazi"), ["jobs"]);
        assert!(named_collections(&strings, &scope, "water").is_empty());
        assert_eq!(named_collections(&strings, &scope, "the jobs"), ["jobs"]);
        assert!(named_collections(&strings, &scope, "job in zone b").is_empty());
    }

    #[test]
    fn a_correction_is_a_link_and_a_partial_match_says_so() {
        let strings = Strings(json!({"search_page": {
            "did_you_mean": "Did you mean {suggestion}?", "corrected": "Showing “{query}”.", "partial": "Some words."
        }}));
        let asked = Asked { query: "vacination".into(), limit: 10, scope: vec!["news".into()] };
        let forgiven = Forgiven {
            words: vec!["vaccination".into()],
            suggestion: Some("vaccination".into()),
            corrected: true,
            partial: true,
            found: vec![(vec![hit("A")], 1)],
            best: vec![Some((1, 1.0))],
        };
        let settings = SearchSettings::default();
        let page = Page { strings: &strings, asked: &asked, help: None, help_first: false, settings: &settings };
        let html = notices(&page, &forgiven);
        assert!(html.contains("Did you mean <a href=\"/search?q=vaccination\">vaccination</a>?"), "{html}");
        assert!(html.contains("Showing “vaccination”.") && html.contains("Some words."), "{html}");
    }

    #[test]
    fn a_match_past_the_head_of_a_long_body_is_still_the_excerpt() {
        let forms = Forms::new(["en"]);
        let words = vec!["cholera".to_string()];
        let highlight = Highlight::new(&words, &forms);
        let body = format!("{}\nThe cholera clinic.", "Plain words here.\n".repeat(200));
        let shown = Shown { date: None, summary: Some("Hours.".into()), body: Some(body.into()) };
        let excerpt = detail(&shown, &highlight).excerpt.unwrap_or_default();
        assert!(excerpt.contains("The <mark>cholera</mark> clinic."), "{excerpt}");
        let short = Shown { body: Some("Plain words.\nMore.".into()), ..shown };
        assert_eq!(detail(&short, &highlight).excerpt.as_deref(), Some("Hours. Plain words. More."));
        assert_eq!(head_lines("a\nb\nc", 3), "a\n");
        assert_eq!(head_lines("abcdef\ng", 3), "abcdef\n");
        assert_eq!(head_lines("abcdef", 3), "abcdef");
    }

    #[test]
    fn a_detail_has_the_date_and_an_excerpt_of_the_matched_words() {
        let forms = Forms::new(["en"]);
        let words = vec!["clinics".to_string()];
        let highlight = Highlight::new(&words, &forms);
        let record = json!({"data": {"news": [{
            "date": "2026-10-14T09:30:00+03:00", "summary": "Hours.", "body": "The **clinic** opens."
        }]}})
        .to_string();
        let detail = detail(&serde_json::from_str(&record).expect("parses"), &highlight);
        assert_eq!(detail.date.as_deref(), Some("2026-10-14"));
        assert_eq!(detail.excerpt.as_deref(), Some("Hours. The <mark>clinic</mark> opens."));
        let soon = serde_json::from_str(r#"{"date": "soon"}"#).expect("parses");
        assert_eq!(super::detail(&soon, &highlight), Detail::default());
    }
}
