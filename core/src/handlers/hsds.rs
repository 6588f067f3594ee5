//! The HSDS 3.0 API (docs/spec/api-spec.md#hsds): pages of a list with filters, and one item by
//! id, read from the build's data file of every HSDS item. The first page of each list with no
//! parameters is served as built.

use serde_json::Value;

use crate::content::time::parse_content_date;
use crate::handlers::Ctx;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::{internal, Platform};
use crate::queries::hsds::{id_of, list_item, Dataset, Kind, Paging};
use crate::search::limits;

/// The list parameters of `/api/hsds/services` besides paging.
pub const SERVICE_FILTERS: &[&str] =
    &["search", "taxonomy_term_id", "taxonomy_id", "organization_id", "modified_after"];

/// A page of the list of `kind`, filtered.
pub async fn list<P: Platform>(ctx: &Ctx<'_, P>, kind: Kind) -> Result<Response, Problem> {
    let paging = Paging::of(&ctx.query)?;
    let data = ctx.app.hsds(ctx.platform).await?;
    let all = data.items(kind);
    let chosen: Vec<&Value> = match kind {
        Kind::Services => services(ctx, &data).await?,
        Kind::TaxonomyTerms => match ctx.query.text("taxonomy_id") {
            Some(taxonomy) => all.iter().filter(|term| term["taxonomy_id"] == taxonomy).collect(),
            None => all.iter().collect(),
        },
        _ => all.iter().collect(),
    };
    let contents = chosen[paging.window(chosen.len())].iter().map(|item| list_item(kind, item)).collect();
    Ok(Response::json(&paging.envelope(chosen.len(), contents)))
}

/// One item of `kind` by its id, fully nested.
pub async fn item<P: Platform>(ctx: &Ctx<'_, P>, kind: Kind) -> Result<Response, Problem> {
    let id = ctx.params.name.as_deref().unwrap_or_default();
    let data = ctx.app.hsds(ctx.platform).await?;
    match data.find(kind, id) {
        Some(item) => Ok(Response::json(item)),
        None => Err(Problem::not_found(format!(
            "No HSDS {} has the id `{id}`; the ids are listed at /api/hsds/{}.",
            kind.singular(),
            kind.name()
        ))),
    }
}

/// The services the filters keep, in the API's order.
async fn services<'d, P: Platform>(ctx: &Ctx<'_, P>, data: &'d Dataset) -> Result<Vec<&'d Value>, Problem> {
    // Present but empty is an error for these two, not "no filter", as the OpenAPI document says.
    let after = match ctx.query.get("modified_after").map(str::trim) {
        Some(text) => Some(parse_content_date(text).map_err(|e| {
            Problem::bad_request(format!("`modified_after` must be a date or an RFC 3339 time: {}", e.0))
        })?),
        None => None,
    };
    let found = match ctx.query.get("search") {
        Some(query) => Some(search(ctx, query, data.services.len()).await?),
        None => None,
    };
    let organization = ctx.query.text("organization_id");
    let term = ctx.query.text("taxonomy_term_id");
    let taxonomy = ctx.query.text("taxonomy_id");
    let has_term = |service: &Value, key: &str, wanted: &str| {
        service["attributes"].as_array().into_iter().flatten().any(|a| a["taxonomy_term"][key] == wanted)
    };
    let modified = |service: &Value| {
        let at = service["last_modified"].as_str().and_then(|t| parse_content_date(t).ok());
        at.map(|at| at.unix)
    };
    Ok(data
        .services
        .iter()
        .filter(|s| organization.is_none_or(|o| s["organization_id"] == o))
        .filter(|s| term.is_none_or(|t| has_term(s, "id", t)))
        .filter(|s| taxonomy.is_none_or(|t| has_term(s, "taxonomy_id", t)))
        .filter(|s| after.is_none_or(|after| modified(s).is_some_and(|at| at > after.unix)))
        .filter(|s| found.as_ref().is_none_or(|ids| s["id"].as_str().is_some_and(|id| ids.iter().any(|f| f == id))))
        .collect())
}

/// The ids of the services the site's search finds for `query`.
async fn search<P: Platform>(ctx: &Ctx<'_, P>, query: &str, limit: usize) -> Result<Vec<String>, Problem> {
    let terms = limits::terms(query).map_err(|refusal| Problem::bad_request(refusal.message("search")))?;
    let index = ctx.app.search_index(ctx.platform).await?;
    let (hits, _) =
        index.search(&terms, "services", limit.max(1)).map_err(internal(ctx.platform, "searching services"))?;
    let base = ctx.app.manifest().site.base();
    Ok(hits.iter().map(|hit| id_of(&format!("{base}{}", hit.url))).collect())
}
