//! Tags and categories (docs/content.md#listings-tags-and-categories): `/tags` and `/categories`
//! list every term with how many records carry it; `/tags/<slug>` and `/categories/<slug>` list
//! those records (and encyclopedia entries) across collections, newest first, paged like
//! collections. Terms that slug the same are one term, named by their most used spelling (see
//! `portal_core::content::taxonomy`).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use anyhow::Result;
use portal_core::content::taxonomy::{slug, Taxonomy};
use portal_core::search::schema::fold;
use rayon::prelude::*;
use serde_json::{json, Value};
use tera::Context;

use super::listing::{paged, Listing};
use super::{Keep, Paged, Renderer};
use crate::build::model::{Card, Model};
use crate::build::write::file::Group;
use crate::sanitize::markdown::link;

/// One term with the records that carry it.
#[derive(Debug)]
pub struct Term<'a> {
    /// Its slug.
    pub slug: String,
    /// Its most used spelling.
    pub name: String,
    /// The cards of the records carrying it (see [`Term::newest_first`]).
    pub records: Vec<&'a Card>,
}

impl<'a> Term<'a> {
    /// The cards of the term, newest first (then by title and URL): the order of its pages,
    /// sorted only for the terms whose pages are made.
    pub fn newest_first(&self) -> Vec<&'a Card> {
        let mut records = self.records.clone();
        records.sort_by(|a, b| b.date.cmp(&a.date).then_with(|| a.title.cmp(&b.title)).then_with(|| a.url.cmp(&b.url)));
        records
    }
}

/// The terms of one taxonomy over every record and entry, in name order.
pub fn terms(model: &Model, taxonomy: Taxonomy) -> Vec<Term<'_>> {
    let mut by_slug: BTreeMap<String, (HashMap<&str, usize>, Vec<&Card>)> = BTreeMap::new();
    for record in model.all() {
        let names: Vec<&str> = match taxonomy {
            Taxonomy::Tags => record.tags.iter().map(String::as_str).collect(),
            Taxonomy::Categories => record.category.as_deref().into_iter().collect(),
        };
        let mut seen = Vec::new();
        for name in names {
            let term = slug(name);
            if term.is_empty() {
                continue;
            }
            let (spellings, tagged) = by_slug.entry(term.clone()).or_default();
            *spellings.entry(name.trim()).or_default() += 1;
            if !seen.contains(&term) {
                tagged.push(record);
                seen.push(term);
            }
        }
    }
    let mut terms: Vec<Term> = by_slug
        .into_iter()
        .map(|(slug, (spellings, records))| {
            let name = spellings
                .into_iter()
                .max_by(|(a, x), (b, y)| x.cmp(y).then_with(|| b.cmp(a)))
                .map(|(name, _)| name.to_string())
                .unwrap_or_else(|| slug.clone());
            Term { slug, name, records }
        })
        .collect();
    terms.sort_by_cached_key(|t| (fold(&t.name), t.slug.clone()));
    terms
}

/// Which terms to make the pages of: all, or only those a rebuild must redo (by taxonomy name and
/// term slug), the pages of the others standing as they are.
#[derive(Debug, Clone, Copy)]
pub enum Which<'a> {
    /// Every term.
    All,
    /// These terms only.
    Only(&'a BTreeSet<(String, String)>),
}

impl Which<'_> {
    fn includes(&self, taxonomy: Taxonomy, slug: &str) -> bool {
        match self {
            Which::All => true,
            Which::Only(terms) => terms.contains(&(taxonomy.name().to_string(), slug.to_string())),
        }
    }
}

/// The index page of a taxonomy and the pages of each of its terms (of those `which` names).
fn taxonomy_pages(r: &Renderer, taxonomy: Taxonomy, which: &Which, keep: Keep, sink: Sink) -> Result<()> {
    let strings = r.strings();
    let name = taxonomy.name();
    let terms = r.terms(taxonomy);
    let title = strings.get(&format!("taxonomy.{name}")).to_string();
    let lead = strings.get(&format!("taxonomy.{name}_lead")).to_string();
    let listed: Vec<Value> = terms
        .iter()
        .map(|t| json!({"name": t.name, "url": taxonomy.term_url(&t.slug), "count": t.records.len()}))
        .collect();
    let mut context = Context::new();
    context.insert("title", &title);
    context.insert("lead", &lead);
    context.insert("terms", &listed);
    let mut md = format!("# {title}\n\n{lead}\n\n");
    if terms.is_empty() {
        md.push_str(&format!("{}\n", strings.get("taxonomy.empty")));
    }
    for t in &listed {
        let term = link(t["name"].as_str().unwrap_or(""), t["url"].as_str().unwrap_or(""));
        md.push_str(&format!("- {term} ({})\n", t["count"]));
    }
    let index = r.generated("terms.html", &taxonomy.index_url(), context, md)?;
    sink(vec![Paged::Rendered(Box::new(index))])?;
    let singular = match taxonomy {
        Taxonomy::Tags => "taxonomy.tag",
        Taxonomy::Categories => "taxonomy.category",
    };
    let wanted: Vec<&Term> = terms.iter().filter(|term| which.includes(taxonomy, &term.slug)).collect();
    for chunk in by_records(&wanted, RECORDS_AT_ONCE) {
        let per_term: Vec<Vec<Paged>> = chunk
            .par_iter()
            .map(|term| {
                let items: Vec<super::listing::Item> =
                    term.newest_first().into_iter().map(|card| (card, false)).collect();
                let mut extra = Context::new();
                extra.insert("taxonomy", name);
                extra.insert("taxonomy_title", &title);
                extra.insert("taxonomy_url", &taxonomy.index_url());
                extra.insert("term", &term.name);
                let listing = Listing {
                    url: taxonomy.term_url(&term.slug),
                    title: strings.fill(singular, &[("term", &term.name)]),
                    lead: String::new(),
                    template: "term.html",
                    extra,
                    markdown_note: format!("{title}: <{}{}>", r.content.site.base(), taxonomy.index_url()),
                };
                paged(r, &listing, &items, keep)
            })
            .collect::<Result<_>>()?;
        sink(per_term.into_iter().flatten().collect())?;
    }
    Ok(())
}

/// Where pages go as they are made (written, or gathered).
pub type Sink<'a> = &'a mut dyn FnMut(Vec<Paged>) -> Result<()>;

/// How many records the terms whose pages are made at once list together (a term with more is
/// made on its own): a site's tags and categories can each list most of its records, and their
/// pages are handed over a few thousand records' worth at a time rather than held until all are
/// made.
const RECORDS_AT_ONCE: usize = 4_096;

/// `terms` cut into runs of neighbours listing at most `records` records together (or one term).
fn by_records<'t, 'a>(terms: &'t [&'t Term<'a>], records: usize) -> Vec<&'t [&'t Term<'a>]> {
    let mut runs = Vec::new();
    let (mut start, mut listed) = (0, 0);
    for (i, term) in terms.iter().enumerate() {
        if i > start && listed + term.records.len() > records {
            runs.push(&terms[start..i]);
            (start, listed) = (i, 0);
        }
        listed += term.records.len();
    }
    if start < terms.len() {
        runs.push(&terms[start..]);
    }
    runs
}

/// The pages of tags and categories (the index pages, and the terms `which` names), in their
/// group, handed to `sink` a few terms at a time.
pub fn pages(r: &Renderer, which: Which, keep: Keep, sink: Sink) -> Result<()> {
    let mut grouped = |pages: Vec<Paged>| {
        sink(
            pages
                .into_iter()
                .map(|p| match p {
                    Paged::Rendered(files) => Paged::Rendered(Box::new(files.map(|f| f.in_group(Group::Taxonomy)))),
                    kept => kept,
                })
                .collect(),
        )
    };
    for taxonomy in Taxonomy::ALL {
        taxonomy_pages(r, taxonomy, &which, keep, &mut grouped)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;

    #[test]
    fn spellings_that_slug_the_same_are_one_term_named_by_the_most_used() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("news")).expect("folders");
        std::fs::create_dir_all(dir.path().join("events")).expect("folders");
        std::fs::write(dir.path().join("site.yaml"), "title: T\n").expect("site");
        let records = [
            ("news/a.md", "date: 2026-01-01\ntags: [Clean water, clean-water]\ncategory: Health"),
            ("news/b.md", "date: 2026-03-01\ntags: [clean water]\ncategory: health"),
            ("events/c.md", "date: 2026-02-01\ntags: [clean water, '!!!']"),
        ];
        for (file, front) in records {
            std::fs::write(dir.path().join(file), format!("---\ntitle: {file}\n{front}\n---\n")).expect("record");
        }
        let content = crate::load::load(dir.path(), &Progress::hidden()).expect("loads");
        let model = Model::of(&content);
        let tags = terms(&model, Taxonomy::Tags);
        assert_eq!(tags.len(), 1, "`!!!` has no slug, the rest are one term");
        assert_eq!((tags[0].slug.as_str(), tags[0].name.as_str()), ("clean-water", "clean water"));
        let urls: Vec<&str> = tags[0].newest_first().iter().map(|r| r.url.as_str()).collect();
        assert_eq!(urls, ["/news/b", "/events/c", "/news/a"], "each record once, newest first");
        let categories = terms(&model, Taxonomy::Categories);
        assert_eq!((categories[0].name.as_str(), categories[0].records.len()), ("Health", 2));
    }
}
