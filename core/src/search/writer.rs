//! Building the index (in `portal build`, natively: writing spawns threads, which wasm cannot).
//! Documents go in sorted by collection and id, through one indexing thread, then the result is
//! one segment with a fixed name, so the same content always gives the same bytes.

use tantivy::directory::Directory;
use tantivy::{doc, Index, IndexWriter, TantivyDocument};

use super::schema::{register, schema};

/// One record or encyclopedia entry as the index sees it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchDoc {
    /// Collection name (`entries` for the encyclopedia).
    pub collection: String,
    /// Record id.
    pub id: String,
    /// Slug.
    pub slug: String,
    /// Site-relative URL of its page.
    pub url: String,
    /// Title.
    pub title: String,
    /// Summary.
    pub summary: String,
    /// Tags (and aliases).
    pub tags: Vec<String>,
    /// Markdown body.
    pub body: String,
}

/// The fixed name given to the single segment (tantivy names segments by random UUIDs).
const SEGMENT_NAME: &str = "00000000000000000000000000000001";

/// Indexes `docs` and returns the index files (name, bytes), deterministic for the same input.
pub fn build(mut docs: Vec<SearchDoc>) -> tantivy::Result<Vec<(String, Vec<u8>)>> {
    docs.sort_by(|a, b| (&a.collection, &a.id).cmp(&(&b.collection, &b.id)));
    let (schema, fields) = schema();
    let index = Index::create_in_ram(schema);
    register(&index);
    let mut writer: IndexWriter<TantivyDocument> = index.writer_with_num_threads(1, 256 << 20)?;
    for d in docs {
        writer.add_document(doc!(
            fields.collection => d.collection,
            fields.id => d.id,
            fields.slug => d.slug,
            fields.url => d.url,
            fields.title => d.title,
            fields.summary => d.summary,
            fields.tags => d.tags.join(" "),
            fields.body => d.body,
        ))?;
    }
    writer.commit()?;
    let segments = index.searchable_segment_ids()?;
    if segments.len() > 1 {
        writer.merge(&segments).wait()?;
    }
    writer.wait_merging_threads()?;
    collect_files(&index)
}

/// `8-4-4-4-12` form of a 32-digit hex id.
fn hyphenated(id: &str) -> String {
    let part = |range: std::ops::Range<usize>| id.get(range).unwrap_or_default();
    format!("{}-{}-{}-{}-{}", part(0..8), part(8..12), part(12..16), part(16..20), part(20..32))
}

fn collect_files(index: &Index) -> tantivy::Result<Vec<(String, Vec<u8>)>> {
    let metas = index.load_metas()?;
    let directory = index.directory();
    let renames: Vec<String> = metas.segments.iter().map(|segment| segment.id().uuid_string()).collect();
    // Files use the plain form of the id, meta.json the hyphenated one: replace both.
    let rename = |text: &str| {
        renames.iter().fold(text.to_string(), |text, original| {
            text.replace(original, SEGMENT_NAME).replace(&hyphenated(original), &hyphenated(SEGMENT_NAME))
        })
    };
    let mut files = Vec::new();
    for path in directory.list_managed_files() {
        let name = path.to_string_lossy().into_owned();
        let live = renames.iter().any(|original| name.starts_with(original.as_str()));
        if !live || !directory.exists(&path)? {
            continue;
        }
        let bytes = directory.atomic_read(&path)?;
        files.push((rename(&name), bytes));
    }
    let mut meta = String::from_utf8_lossy(&directory.atomic_read(std::path::Path::new("meta.json"))?).into_owned();
    meta = rename(&meta);
    files.push(("meta.json".to_string(), meta.into_bytes()));
    files.sort();
    Ok(files)
}
