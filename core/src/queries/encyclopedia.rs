//! The encyclopedia's query logic (docs/spec/api-spec.md#encyclopedia): the catalog the build
//! writes, filters, sort orders, facets and suggestions. Pure functions over the catalog, so
//! `portal serve` and the Worker agree.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::search::schema::fold;

/// Where the build writes the catalog.
pub const CATALOG_FILE: &str = "_portal/encyclopedia.json";

/// Every published entry, in title order, with what filtering needs precomputed.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Catalog {
    /// Entries in title order.
    pub entries: Vec<CatalogEntry>,
}

/// One entry of the catalog.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CatalogEntry {
    /// Slug.
    pub slug: String,
    /// Title.
    pub title: String,
    /// Page URL.
    pub url: String,
    /// The folded title (sort key, prefix matching).
    pub fold: String,
    /// The folded, upper-cased first letter (`É` -> `E`).
    pub letter: String,
    /// The aliases as written.
    pub aliases: Vec<String>,
    /// Category.
    pub category: Option<String>,
    /// Tags.
    pub tags: Vec<String>,
    /// `updated` as Unix seconds.
    pub updated: Option<i64>,
    /// The list item as clients see it (no body).
    pub item: Value,
}

/// The letter an entry is filed under: the first character of its folded title, upper-cased.
pub fn letter_of(title: &str) -> String {
    fold(title).chars().next().map_or_else(|| "#".to_string(), |c| c.to_uppercase().collect())
}

/// How a list is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sort {
    /// Folded title, A to Z.
    Title,
    /// Newest `updated` first (undated last).
    Updated,
    /// The search engine's ranking of `q`.
    Relevance,
}

impl Sort {
    /// Parses `title | updated | relevance`.
    pub fn parse(value: &str) -> Option<Sort> {
        match value {
            "title" => Some(Sort::Title),
            "updated" => Some(Sort::Updated),
            "relevance" => Some(Sort::Relevance),
            _ => None,
        }
    }
}

/// The list filters shared by the list and the facets.
#[derive(Debug, Clone, Default)]
pub struct Filters {
    /// Slugs matching `q`, best first; `None` when there is no `q`.
    pub matches: Option<Vec<String>>,
    /// `category`, compared case-insensitively.
    pub category: Option<String>,
    /// `tag`, compared case-insensitively.
    pub tag: Option<String>,
    /// `letter`, already folded and upper-cased.
    pub letter: Option<String>,
}

impl Filters {
    fn admits(&self, entry: &CatalogEntry) -> bool {
        let same = |a: &str, b: &str| a.to_lowercase() == b.to_lowercase();
        self.category.as_deref().is_none_or(|c| entry.category.as_deref().is_some_and(|e| same(c, e)))
            && self.tag.as_deref().is_none_or(|t| entry.tags.iter().any(|e| same(t, e)))
            && self.letter.as_deref().is_none_or(|l| entry.letter == l)
    }

    /// The entries that pass, in title order, or in relevance order when there is a `q`.
    pub fn apply<'a>(&self, catalog: &'a Catalog) -> Vec<&'a CatalogEntry> {
        match &self.matches {
            None => catalog.entries.iter().filter(|e| self.admits(e)).collect(),
            Some(slugs) => {
                let by_slug: BTreeMap<&str, &CatalogEntry> =
                    catalog.entries.iter().map(|e| (e.slug.as_str(), e)).collect();
                slugs.iter().filter_map(|s| by_slug.get(s.as_str()).copied()).filter(|e| self.admits(e)).collect()
            }
        }
    }
}

/// Orders filtered entries (they arrive in title or relevance order).
pub fn sort(entries: &mut [&CatalogEntry], sort: Sort) {
    match sort {
        Sort::Relevance => {}
        Sort::Title => entries.sort_by(|a, b| (&a.fold, &a.slug).cmp(&(&b.fold, &b.slug))),
        Sort::Updated => entries.sort_by(|a, b| {
            b.updated.is_some().cmp(&a.updated.is_some()).then(b.updated.cmp(&a.updated)).then(a.fold.cmp(&b.fold))
        }),
    }
}

/// Category, tag and letter counts over `entries`.
pub fn facets(entries: &[&CatalogEntry]) -> Value {
    let mut category: BTreeMap<&str, usize> = BTreeMap::new();
    let mut tags: BTreeMap<&str, usize> = BTreeMap::new();
    let mut letter: BTreeMap<&str, usize> = BTreeMap::new();
    for entry in entries {
        if let Some(c) = &entry.category {
            *category.entry(c).or_default() += 1;
        }
        for t in &entry.tags {
            *tags.entry(t).or_default() += 1;
        }
        *letter.entry(&entry.letter).or_default() += 1;
    }
    json!({"category": category, "tags": tags, "letter": letter})
}

/// Entries whose title, or one of whose aliases, starts with `prefix` (folded); title matches first.
pub fn suggest(catalog: &Catalog, prefix: &str, limit: usize) -> Vec<Value> {
    let wanted = fold(prefix);
    if wanted.is_empty() {
        return Vec::new();
    }
    let by_title = catalog.entries.iter().filter(|e| e.fold.starts_with(&wanted));
    let by_alias = catalog
        .entries
        .iter()
        .filter(|e| !e.fold.starts_with(&wanted))
        .filter_map(|e| e.aliases.iter().find(|a| fold(a).starts_with(&wanted)).map(|alias| (e, Some(alias))));
    by_title
        .map(|e| (e, None))
        .chain(by_alias)
        .take(limit)
        .map(|(e, alias)| {
            let mut suggestion = json!({"slug": e.slug, "title": e.title, "url": e.url});
            if let (Some(alias), Value::Object(map)) = (alias, &mut suggestion) {
                map.insert("alias".into(), json!(alias));
            }
            suggestion
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(
        slug: &str,
        title: &str,
        category: &str,
        tags: &[&str],
        updated: Option<i64>,
        aliases: &[&str],
    ) -> CatalogEntry {
        CatalogEntry {
            slug: slug.into(),
            title: title.into(),
            url: format!("/encyclopedia/{slug}"),
            fold: fold(title),
            letter: letter_of(title),
            aliases: aliases.iter().map(|a| a.to_string()).collect(),
            category: Some(category.into()),
            tags: tags.iter().map(|t| t.to_string()).collect(),
            updated,
            item: json!({"slug": slug}),
        }
    }

    fn catalog() -> Catalog {
        let mut entries = vec![
            entry("asylum", "Asylum", "law", &["rights"], Some(10), &["Refuge"]),
            entry("etat-civil", "État civil", "law", &["documents"], Some(30), &[]),
            entry("education", "Education", "culture", &["rights", "school"], None, &["Schooling"]),
        ];
        entries.sort_by(|a, b| a.fold.cmp(&b.fold));
        Catalog { entries }
    }

    #[test]
    fn letters_fold_accents() {
        assert_eq!(letter_of("École"), "E");
        assert_eq!(letter_of("état"), "E");
        assert_eq!(letter_of("  "), "#");
    }

    #[test]
    fn filters_combine() {
        let catalog = catalog();
        let slugs = |f: &Filters| f.apply(&catalog).iter().map(|e| e.slug.clone()).collect::<Vec<_>>();
        let law = Filters { category: Some("LAW".into()), ..Filters::default() };
        assert_eq!(slugs(&law), ["asylum", "etat-civil"]);
        let e_and_rights = Filters { letter: Some("E".into()), tag: Some("rights".into()), ..Filters::default() };
        assert_eq!(slugs(&e_and_rights), ["education"]);
    }

    #[test]
    fn updated_sort_is_newest_first_undated_last() {
        let catalog = catalog();
        let mut all = Filters::default().apply(&catalog);
        sort(&mut all, Sort::Updated);
        assert_eq!(all.iter().map(|e| e.slug.as_str()).collect::<Vec<_>>(), ["etat-civil", "asylum", "education"]);
    }

    #[test]
    fn suggestions_match_titles_then_aliases() {
        let catalog = catalog();
        let slugs = |q: &str| {
            suggest(&catalog, q, 8).iter().map(|s| s["slug"].as_str().unwrap_or("").to_string()).collect::<Vec<_>>()
        };
        assert_eq!(slugs("e"), ["education", "etat-civil"]);
        assert_eq!(slugs("ref"), ["asylum"]);
        assert_eq!(slugs("SCHOOL"), ["education"]);
        assert!(slugs("zzz").is_empty());
    }

    #[test]
    fn facets_count_what_passes() {
        let catalog = catalog();
        let law = Filters { category: Some("law".into()), ..Filters::default() }.apply(&catalog);
        let f = facets(&law);
        assert_eq!(f["category"]["law"], 2);
        assert_eq!(f["letter"]["E"], 1);
        assert_eq!(f["letter"]["A"], 1);
        assert_eq!(f["tags"]["documents"], 1);
    }
}
