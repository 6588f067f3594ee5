//! The HSDS 3.0 API (docs/spec/api-spec.md#hsds): pages of a list with filters, and one item by
//! id, read from the build's data file of every HSDS item. The first page of each list with no
//! parameters is served as built.

use serde_json::Value;

use crate::content::time::parse_content_date;
use crate::handlers::Ctx;
use crate::http::problem::Problem;
use crate::http::Response;
use crate::platform::{internal, Platform};
use crate::search::limits;
use crate::standards::hsds::{id_of, list_item, Dataset, Kind, Paging};

/// The parameters each list takes besides `page` and `per_page` (docs/spec/api-spec.md#hsds); a
/// parameter of the HSDS reference that a list does not take (`format`, `full`, `postcode`...) is
/// 400 naming it, never a page that looks filtered and is not.
pub fn filters(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Services | Kind::ServiceAtLocations => {
            &["search", "taxonomy_term_id", "taxonomy_id", "organization_id", "modified_after"]
        }
        Kind::Organizations | Kind::Taxonomies => &["search"],
        Kind::TaxonomyTerms => &["search", "taxonomy_id", "parent_id", "top_only"],
    }
}

/// 400 for a parameter the list of `kind` does not take.
fn check_parameters(ctx: &Ctx<'_, impl Platform>, kind: Kind) -> Result<(), Problem> {
    let known = |name: &str| matches!(name, "page" | "per_page") || filters(kind).contains(&name);
    match ctx.query.pairs().map(|(name, _)| name).find(|name| !known(name)) {
        None => Ok(()),
        Some(name) => Err(Problem::bad_request(format!(
            "`{name}` is not supported by {}; it takes `page`, `per_page`{}.",
            kind.list_path(),
            filters(kind).iter().map(|f| format!(", `{f}`")).collect::<String>()
        ))),
    }
}

/// A page of the list of `kind`, filtered.
pub async fn list<P: Platform>(ctx: &Ctx<'_, P>, kind: Kind) -> Result<Response, Problem> {
    check_parameters(ctx, kind)?;
    let paging = Paging::of(&ctx.query)?;
    let data = ctx.state.hsds(ctx.platform).await?;
    let all = data.items(kind);
    let words = match (kind, ctx.query.get("search")) {
        (Kind::Services, _) | (_, None) => None,
        (_, Some(query)) => {
            Some(limits::terms(query).map_err(|refusal| Problem::bad_request(refusal.message("search")))?)
        }
    };
    let chosen: Vec<&Value> = match kind {
        Kind::Services => services(ctx, &data).await?,
        Kind::ServiceAtLocations => {
            let keep = ServiceFilter::of(ctx)?;
            all.iter().filter(|at| keep.keeps(&at["service"])).collect()
        }
        Kind::TaxonomyTerms => terms(ctx, all)?,
        _ => all.iter().collect(),
    };
    let chosen: Vec<&Value> = match &words {
        Some(words) => chosen.into_iter().filter(|item| mentions(kind, item, words)).collect(),
        None => chosen,
    };
    let contents = chosen[paging.window(chosen.len())].iter().map(|item| list_item(kind, item)).collect();
    Ok(Response::json(&paging.envelope(chosen.len(), contents)))
}

/// The taxonomy terms `taxonomy_id`, `parent_id` and `top_only` keep.
fn terms<'d, P: Platform>(ctx: &Ctx<'_, P>, all: &'d [Value]) -> Result<Vec<&'d Value>, Problem> {
    let taxonomy = ctx.query.text("taxonomy_id");
    let parent = ctx.query.text("parent_id");
    let top_only = match ctx.query.get("top_only").map(str::trim) {
        None | Some("false") => false,
        Some("true") => true,
        Some(other) => return Err(Problem::bad_request(format!("`top_only` is `true` or `false`; got `{other}`."))),
    };
    Ok(all
        .iter()
        .filter(|term| taxonomy.is_none_or(|t| term["taxonomy_id"] == t))
        .filter(|term| parent.is_none_or(|p| term["parent_id"] == p))
        .filter(|term| !top_only || term["parent_id"].as_str().is_none_or(str::is_empty))
        .collect())
}

/// Whether an item's own words (name, description, code; a service at a location's service and
/// place) hold every searched word, the last also as the start of a word.
fn mentions(kind: Kind, item: &Value, searched: &[String]) -> bool {
    let fields: Vec<&Value> = match kind {
        Kind::ServiceAtLocations => vec![
            &item["service"]["name"],
            &item["service"]["description"],
            &item["location"]["name"],
            &item["description"],
        ],
        _ => vec![&item["name"], &item["description"], &item["code"]],
    };
    let text: String = fields.iter().filter_map(|v| v.as_str()).collect::<Vec<_>>().join(" ");
    let own = crate::search::schema::words(&text);
    searched
        .iter()
        .enumerate()
        .all(|(n, word)| own.iter().any(|w| w == word || (n + 1 == searched.len() && w.starts_with(word.as_str()))))
}

/// One item of `kind` by its id, fully nested.
pub async fn item<P: Platform>(ctx: &Ctx<'_, P>, kind: Kind) -> Result<Response, Problem> {
    let id = ctx.params.name.as_deref().unwrap_or_default();
    let data = ctx.state.hsds(ctx.platform).await?;
    match data.find(kind, id) {
        Some(item) => Ok(Response::json(item)),
        None => Err(Problem::not_found(format!(
            "No HSDS {} has the id `{id}`; the ids are listed at /api/hsds/{}.",
            kind.singular(),
            kind.name()
        ))),
    }
}

/// The filters a service is kept by, but `search`: `organization_id`, `taxonomy_term_id`,
/// `taxonomy_id` and `modified_after` (on or after, as the HSDS reference says, so a daily sync
/// asking from the day of its last run misses nothing).
struct ServiceFilter<'q> {
    organization: Option<&'q str>,
    term: Option<&'q str>,
    taxonomy: Option<&'q str>,
    after: Option<i64>,
}

impl<'q> ServiceFilter<'q> {
    fn of<P: Platform>(ctx: &'q Ctx<'_, P>) -> Result<Self, Problem> {
        // Present but empty is an error for this one, not "no filter", as the OpenAPI document says.
        let after = match ctx.query.get("modified_after").map(str::trim) {
            Some(text) => Some(parse_content_date(text).map_err(|e| {
                Problem::bad_request(format!("`modified_after` must be a date or an RFC 3339 time: {}", e.0))
            })?),
            None => None,
        };
        Ok(ServiceFilter {
            organization: ctx.query.text("organization_id"),
            term: ctx.query.text("taxonomy_term_id"),
            taxonomy: ctx.query.text("taxonomy_id"),
            after: after.map(|at| at.unix),
        })
    }

    fn keeps(&self, service: &Value) -> bool {
        let has_term = |key: &str, wanted: &str| {
            service["attributes"].as_array().into_iter().flatten().any(|a| a["taxonomy_term"][key] == wanted)
        };
        let modified = service["last_modified"].as_str().and_then(|t| parse_content_date(t).ok()).map(|at| at.unix);
        self.organization.is_none_or(|o| service["organization_id"] == o)
            && self.term.is_none_or(|t| has_term("id", t))
            && self.taxonomy.is_none_or(|t| has_term("taxonomy_id", t))
            && self.after.is_none_or(|after| modified.is_some_and(|at| at >= after))
    }
}

/// The services the filters keep, in the API's order.
async fn services<'d, P: Platform>(ctx: &Ctx<'_, P>, data: &'d Dataset) -> Result<Vec<&'d Value>, Problem> {
    let keep = ServiceFilter::of(ctx)?;
    let found = match ctx.query.get("search") {
        Some(query) => Some(search(ctx, query, data.services.len()).await?),
        None => None,
    };
    Ok(data
        .services
        .iter()
        .filter(|s| keep.keeps(s))
        .filter(|s| found.as_ref().is_none_or(|ids| s["id"].as_str().is_some_and(|id| ids.iter().any(|f| f == id))))
        .collect())
}

/// The ids of the services the site's search finds for `query`.
async fn search<P: Platform>(ctx: &Ctx<'_, P>, query: &str, limit: usize) -> Result<Vec<String>, Problem> {
    let terms = limits::terms(query).map_err(|refusal| Problem::bad_request(refusal.message("search")))?;
    let index = ctx.state.search_index(ctx.platform).await?;
    let (hits, _) =
        index.search(&terms, "services", limit.max(1)).map_err(internal(ctx.platform, "searching services"))?;
    let base = ctx.state.manifest().site.base();
    Ok(hits.iter().map(|hit| id_of(&format!("{base}{}", hit.url))).collect())
}
