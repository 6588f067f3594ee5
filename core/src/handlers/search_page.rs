//! `GET /search?q=` (docs/spec/api-spec.md#forms): search results as a page people read, grouped by collection
//! (the encyclopedia included), each hit linking its page. The same search as `/api/search`
//! (one engine, one cache); a query too short to search gets the form back with a message.

use std::fmt::Write;

use serde_json::Value;

use crate::content::collections::ENCYCLOPEDIA;
use crate::handlers::page;
use crate::handlers::search::{asked, long_enough, run, Asked, MAX_LIMIT, MIN_QUERY_CHARS};
use crate::handlers::Ctx;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::pages::i18n::Strings;
use crate::pages::shell::escape;
use crate::platform::Platform;

/// Answers `/search`.
pub async fn handle<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let strings = &ctx.app.manifest().strings;
    let mut asked = asked(ctx)?;
    // People search everything: the encyclopedia too, unless the link names the collections.
    if ctx.query.get("collections").is_none_or(|c| c.trim().is_empty()) {
        asked.scope.push(ENCYCLOPEDIA.to_string());
    }
    let mut main = format!("<h1>{}</h1>\n{}", escape(strings.get("search_page.title")), form(strings, &asked.query));
    if long_enough(&asked.query) {
        let answer = run(ctx, &asked).await?;
        main.push_str(&results(strings, &asked, &answer));
    } else {
        let min = MIN_QUERY_CHARS.to_string();
        let _ = writeln!(
            main,
            "<p role=\"status\">{}</p>",
            escape(&strings.fill("search_page.too_short", &[("min", &min)]))
        );
    }
    Ok(page::render(ctx.app, ctx.platform, &ctx.request.path, 200, strings.get("search_page.title"), &main).await)
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

/// The hits, a section per collection in the order searched, with a link to more when a
/// collection has more matches than the page shows.
fn results(strings: &Strings, asked: &Asked, answer: &Value) -> String {
    let total: u64 = answer["totals"].as_object().map_or(0, |t| t.values().filter_map(Value::as_u64).sum());
    let mut out = format!(
        "<p role=\"status\">{}</p>\n",
        escape(&if total == 0 {
            strings.fill("search_page.none", &[("query", &asked.query)])
        } else {
            strings.fill("search_page.results", &[("query", &asked.query), ("count", &total.to_string())])
        })
    );
    for collection in &asked.scope {
        let Some(hits) = answer["results"][collection].as_array().filter(|h| !h.is_empty()) else { continue };
        let name = label(strings, collection);
        let _ = write!(
            out,
            "<section class=\"search-group\" aria-labelledby=\"results-{collection}\">\n<h2 id=\"results-{collection}\">{}</h2>\n<ul class=\"records\">\n",
            escape(name)
        );
        for hit in hits {
            let url = hit["url"].as_str().unwrap_or("/");
            let title = hit["title"].as_str().unwrap_or(url);
            let _ = writeln!(out, "<li><a href=\"{}\">{}</a></li>", escape(url), escape(title));
        }
        out.push_str("</ul>\n");
        let matched = answer["totals"][collection].as_u64().unwrap_or(0);
        if matched > hits.len() as u64 && asked.limit < MAX_LIMIT as usize {
            let more = form_urlencoded::Serializer::new(String::new())
                .append_pair("q", &asked.query)
                .append_pair("collections", collection)
                .append_pair("limit", &MAX_LIMIT.to_string())
                .finish();
            let text = strings.fill("search_page.more", &[("collection", name), ("count", &matched.to_string())]);
            let _ = writeln!(out, "<p><a href=\"/search?{}\">{}</a></p>", escape(&more), escape(&text));
        }
        out.push_str("</section>\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hits_are_grouped_escaped_and_link_to_more() {
        let strings = Strings(
            json!({"collections": {"news": {"label": "News"}}, "search_page": {"results": "{count} for {query}"}}),
        );
        let asked = Asked { query: "<b>water</b>".into(), limit: 1, scope: vec!["news".into(), "entries".into()] };
        let answer =
            json!({"results": {"news": [{"url": "/news/a", "title": "A & B"}]}, "totals": {"news": 3, "entries": 0}});
        let html = results(&strings, &asked, &answer);
        assert!(html.contains("3 for &lt;b&gt;water&lt;/b&gt;"), "{html}");
        assert!(html.contains("<h2 id=\"results-news\">News</h2>"));
        assert!(html.contains("<a href=\"/news/a\">A &amp; B</a>"));
        assert!(html.contains("href=\"/search?q=%3Cb%3Ewater%3C%2Fb%3E&amp;collections=news&amp;limit=50\""));
        assert!(!html.contains("results-entries"));
    }
}
