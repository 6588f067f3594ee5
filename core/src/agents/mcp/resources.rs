//! Resources: every published record and encyclopedia entry, named by its public page URL and
//! read as its JSON with the page's markdown twin beside it. Listed a static page of a listing at a
//! time (`api.page_size` records, `/api/<collection>/_page/<n>`), so a list call costs the same at
//! 100 records as at 100,000.

use serde_json::{json, Value};

use super::jsonrpc::{RpcError, INVALID_PARAMS};
use super::version::Revision;
use crate::content::collections::{record_api_path, record_at, COLLECTIONS, ENCYCLOPEDIA};
use crate::handlers::files::read_json;
use crate::handlers::Ctx;
use crate::http::media;
use crate::platform::Platform;

/// The prefix of resource URIs: the site's address, or the address the request came to when the
/// site has none.
pub fn base<P>(ctx: &Ctx<'_, P>) -> String {
    let base = ctx.state.manifest().site.base();
    if base.is_empty() {
        format!("http://{}", ctx.request.header("host").unwrap_or("localhost"))
    } else {
        base.to_string()
    }
}

/// A listed record or entry as a resource (also the body of a tool result's `resource_link`).
pub fn describe(base: &str, item: &Value) -> Option<Value> {
    let url = item.get("url")?.as_str()?;
    let (collection, slug) = record_at(url)?;
    let mut resource = json!({
        "uri": format!("{base}{url}"),
        "name": format!("{collection}/{slug}"),
        "title": item.get("title").and_then(Value::as_str).unwrap_or(&slug),
        "mimeType": media::JSON,
    });
    if let Some(summary) = item.get("summary").and_then(Value::as_str).filter(|s| !s.is_empty()) {
        resource["description"] = json!(summary);
    }
    Some(resource)
}

/// Where a listing stands: a collection (or the encyclopedia) and a page of it, 1-based.
#[derive(Debug, Clone, PartialEq)]
struct Cursor {
    source: usize,
    page: usize,
}

/// The sources in listing order: the 19 collections, then the encyclopedia.
fn source_name(source: usize) -> Option<&'static str> {
    COLLECTIONS.get(source).copied().or((source == COLLECTIONS.len()).then_some(ENCYCLOPEDIA))
}

impl Cursor {
    fn parse(cursor: Option<&str>) -> Result<Cursor, RpcError> {
        let Some(cursor) = cursor else { return Ok(Cursor { source: 0, page: 1 }) };
        let invalid =
            || RpcError::new(INVALID_PARAMS, format!("Invalid cursor `{cursor}`: pass a nextCursor as given."));
        let (name, page) = cursor.split_once(':').ok_or_else(invalid)?;
        let source = (0..=COLLECTIONS.len()).find(|s| source_name(*s) == Some(name)).ok_or_else(invalid)?;
        let page = page.parse().ok().filter(|p| *p >= 1).ok_or_else(invalid)?;
        Ok(Cursor { source, page })
    }

    fn encode(&self) -> Option<String> {
        source_name(self.source).map(|name| format!("{name}:{}", self.page))
    }
}

/// `resources/list`: one non-empty page, and the cursor of the next.
pub async fn list<P: Platform>(ctx: &Ctx<'_, P>, cursor: Option<&str>) -> Result<Value, RpcError> {
    let mut at = Cursor::parse(cursor)?;
    let base = base(ctx);
    while let Some(name) = source_name(at.source) {
        let (items, pages) = page_of(ctx, name, at.page).await?;
        let next = if at.page < pages {
            Cursor { page: at.page + 1, ..at }
        } else {
            Cursor { source: at.source + 1, page: 1 }
        };
        if !items.is_empty() {
            let resources: Vec<Value> = items.iter().filter_map(|item| describe(&base, item)).collect();
            let mut result = json!({"resources": resources});
            if let Some(cursor) = source_name(next.source).and(next.encode()) {
                result["nextCursor"] = json!(cursor);
            }
            return Ok(result);
        }
        at = next;
    }
    Ok(json!({"resources": []}))
}

/// One page of a source's items and its number of pages.
async fn page_of<P: Platform>(ctx: &Ctx<'_, P>, name: &str, page: usize) -> Result<(Vec<Value>, usize), RpcError> {
    let size = ctx.state.manifest().site.api.page_size.max(1);
    if name == ENCYCLOPEDIA {
        let catalog = ctx.state.catalog(ctx.platform).await.map_err(internal)?;
        let items = catalog.entries.iter().skip((page - 1) * size).take(size).map(|e| e.item.clone()).collect();
        return Ok((items, catalog.entries.len().div_ceil(size)));
    }
    let listing = read_json(ctx.state, ctx.platform, &format!("/api/{name}/_page/{page}")).await.map_err(internal)?;
    let Some(mut listing) = listing else { return Ok((Vec::new(), 0)) };
    let pages = listing["totalPages"].as_u64().unwrap_or(0) as usize;
    let items = match listing["data"][name].take() {
        Value::Array(items) => items,
        _ => Vec::new(),
    };
    Ok((items, pages))
}

fn internal(problem: crate::http::problem::Problem) -> RpcError {
    RpcError::new(super::jsonrpc::INTERNAL_ERROR, problem.detail)
}

/// `resources/templates/list`: records by collection and slug, entries by slug.
pub fn templates<P>(ctx: &Ctx<'_, P>) -> Value {
    let base = base(ctx);
    json!({"resourceTemplates": [
        {
            "uriTemplate": format!("{base}/{{collection}}/{{slug}}"),
            "name": "record",
            "title": "A record of a collection",
            "description": "A published record by collection and slug (pages: /{slug}); JSON, with its page's markdown.",
            "mimeType": media::JSON,
        },
        {
            "uriTemplate": format!("{base}/encyclopedia/{{slug}}"),
            "name": "encyclopedia-entry",
            "title": "An encyclopedia entry",
            "description": "A sourced encyclopedia entry by slug; JSON, with its page's markdown.",
            "mimeType": media::JSON,
        },
    ]})
}

/// `resources/read`: the record's JSON and its page's markdown twin.
pub async fn read<P: Platform>(ctx: &Ctx<'_, P>, revision: Revision, uri: &str) -> Result<Value, RpcError> {
    let base = base(ctx);
    let not_found = || {
        RpcError::new(revision.resource_not_found(), format!("Resource not found: {uri}"))
            .with_data(json!({"uri": uri}))
    };
    let path = uri.strip_prefix(base.as_str()).unwrap_or(uri);
    let path = path.split(['?', '#']).next().unwrap_or("");
    let (collection, slug) = record_at(path).ok_or_else(not_found)?;
    let detail = read_json(ctx.state, ctx.platform, &record_api_path(collection, &slug)).await.map_err(internal)?;
    let mut detail = detail.ok_or_else(not_found)?;
    let record = match detail["data"]["entry"].take() {
        Value::Null => detail["data"][collection][0].take(),
        entry => entry,
    };
    let mut contents = vec![json!({"uri": uri, "mimeType": media::JSON, "text": record.to_string()})];
    if let Some(markdown) = twin(ctx, record["url"].as_str().unwrap_or(path)).await? {
        contents.push(json!({"uri": uri, "mimeType": "text/markdown", "text": markdown}));
    }
    Ok(json!({"contents": contents}))
}

/// The markdown twin of the page at `url`, if the build wrote one.
async fn twin<P: Platform>(ctx: &Ctx<'_, P>, url: &str) -> Result<Option<String>, RpcError> {
    let asset = ctx.state.asset(ctx.platform, url).await.map_err(internal)?;
    let Some(file) = asset.and_then(|asset| asset.markdown.clone()) else { return Ok(None) };
    let bytes =
        ctx.platform.read_file(&file).await.map_err(|e| internal(crate::platform::internal(ctx.platform, &file)(e)))?;
    Ok(bytes.map(|b| String::from_utf8_lossy(&b).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_name_a_source_and_a_page() {
        assert_eq!(Cursor::parse(None), Ok(Cursor { source: 0, page: 1 }));
        let cursor = Cursor { source: COLLECTIONS.len(), page: 3 };
        assert_eq!(cursor.encode().as_deref(), Some("entries:3"));
        assert_eq!(Cursor::parse(cursor.encode().as_deref()), Ok(cursor));
        for bad in ["x", "nope:1", "news:0", "news:x"] {
            assert_eq!(Cursor::parse(Some(bad)).map_err(|e| e.code), Err(INVALID_PARAMS));
        }
    }

    #[test]
    fn a_listed_record_is_a_resource_at_its_page() {
        let item = json!({"url": "/services/clinic", "title": "Clinic", "summary": "Open daily."});
        let resource = describe("https://p.example", &item).expect("a resource");
        assert_eq!(resource["uri"], "https://p.example/services/clinic");
        assert_eq!(resource["name"], "services/clinic");
        assert_eq!(resource["description"], "Open daily.");
    }
}
