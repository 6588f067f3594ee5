//! `GET /api/encyclopedia` (list), `/suggest` and `/facets` (docs/spec/api-spec.md#encyclopedia).
//! Detail and JSON-LD are built files. Parameters are checked here; the logic lives in
//! [`crate::queries::encyclopedia`].

use serde_json::{json, Value};

use crate::content::collections::ENCYCLOPEDIA;
use crate::handlers::Ctx;
use crate::http::envelope::success;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::{internal, Platform};
use crate::queries::encyclopedia::{facets, sort, suggest, Filters, Sort};
use crate::search::limits::bounded_terms;
use crate::search::schema::fold;

/// Default and largest `pageSize`.
pub const PAGE_SIZE: (i64, i64) = (20, 100);
/// Default and largest suggestion `limit`.
pub const SUGGEST_LIMIT: (i64, i64) = (8, 20);

/// The filters of the list and the facets, with `q` run through the search engine.
async fn filters<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Filters, Problem> {
    // Not trimmed: a letter is exactly one character (any: a title may start with a digit or a
    // sign), and an empty value means no filter.
    let letter = match ctx.query.get("letter") {
        None | Some("") => None,
        Some(raw) if raw.chars().count() == 1 => Some(fold(raw).to_uppercase()),
        Some(raw) => {
            return Err(Problem::bad_request(format!("`letter` must be one character; got `{raw}`.")));
        }
    };
    let matches = match ctx.query.text("q") {
        None => None,
        Some(q) => {
            // The length as sent, as the OpenAPI document's `maxLength` counts it.
            let sent = ctx.query.get("q").unwrap_or(q);
            let terms = bounded_terms(sent).map_err(|refusal| Problem::bad_request(refusal.message("q")))?;
            let index = ctx.state.search_index(ctx.platform).await?;
            let catalog = ctx.state.catalog(ctx.platform).await?;
            let (hits, _) = index
                .search(&terms, ENCYCLOPEDIA, catalog.entries.len().max(1))
                .map_err(internal(ctx.platform, "searching the encyclopedia"))?;
            Some(hits.into_iter().map(|h| h.slug).collect())
        }
    };
    Ok(Filters {
        matches,
        category: ctx.query.text("category").map(str::to_string),
        tag: ctx.query.text("tag").map(str::to_string),
        letter,
    })
}

/// The list: filters, sort, pagination and links.
pub async fn list<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let page = ctx.query.integer("page", 1, i64::MAX)?.unwrap_or(1);
    let page_size = ctx.query.integer("pageSize", 1, PAGE_SIZE.1)?.unwrap_or(PAGE_SIZE.0);
    let order = match ctx.query.text("sort") {
        None => None,
        Some(value) => Some(Sort::parse(value).ok_or_else(|| {
            Problem::bad_request(format!("`sort` must be `title`, `updated` or `relevance`; got `{value}`."))
        })?),
    };
    let filters = filters(ctx).await?;
    let order = order.unwrap_or(if filters.matches.is_some() { Sort::Relevance } else { Sort::Title });
    let catalog = ctx.state.catalog(ctx.platform).await?;
    let mut entries = filters.apply(&catalog);
    sort(&mut entries, order);
    let total = entries.len();
    let size = page_size as usize;
    let start = usize::try_from(page - 1).unwrap_or(usize::MAX).saturating_mul(size);
    let items: Vec<Value> = entries.iter().skip(start).take(size).map(|e| e.item.clone()).collect();
    let total_pages = total.div_ceil(size);
    let link = |p: i64| page_link(ctx, p);
    let mut links = json!({"self": link(page)});
    if (page as usize) < total_pages {
        links["next"] = json!(link(page + 1));
    }
    if page > 1 {
        links["prev"] = json!(link((page - 1).min(total_pages.max(1) as i64)));
    }
    Ok(Response::json(&success(json!({
        "count": items.len(),
        "total": total,
        "page": page,
        "pageSize": page_size,
        "totalPages": total_pages,
        "data": {"entries": items},
        "links": links,
    }))))
}

/// `/api/encyclopedia?...&page=<page>` keeping every list parameter the request gave.
fn page_link<P>(ctx: &Ctx<'_, P>, page: i64) -> String {
    let mut query = form_urlencoded::Serializer::new(String::new());
    for name in ["q", "category", "tag", "letter", "sort", "pageSize"] {
        if let Some(value) = ctx.query.text(name) {
            query.append_pair(name, value);
        }
    }
    query.append_pair("page", &page.to_string());
    format!("/api/encyclopedia?{}", query.finish())
}

/// Counts under the list's filters.
pub async fn facet_counts<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let filters = filters(ctx).await?;
    let catalog = ctx.state.catalog(ctx.platform).await?;
    Ok(Response::json(&success(json!({"facets": facets(&filters.apply(&catalog))}))))
}

/// Title and alias prefix suggestions.
pub async fn suggestions<P: Platform>(ctx: &Ctx<'_, P>) -> Result<Response, Problem> {
    let limit = ctx.query.integer("limit", 1, SUGGEST_LIMIT.1)?.unwrap_or(SUGGEST_LIMIT.0);
    let q = ctx
        .query
        .text("q")
        .ok_or_else(|| Problem::bad_request("`q` is required: the beginning of a title or alias."))?;
    let catalog = ctx.state.catalog(ctx.platform).await?;
    Ok(Response::json(&success(json!({
        "query": q,
        "suggestions": suggest(&catalog, q, limit as usize),
    }))))
}
