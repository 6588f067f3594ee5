//! `/admin/config.yml`: the configuration Sveltia CMS and Decap CMS read, made from the collection
//! model so it never drifts from what portal publishes (docs/editing.md#the-generated-configuration).
//!
//! Written with `serde_yaml` from a tree of mappings, never by joining text, so a hostile label
//! or key stays a YAML string.

use std::collections::BTreeSet;
use std::path::Path;

use portal_core::content::collections::{COLLECTIONS, ENCYCLOPEDIA};
use portal_core::content::i18n::Strings;
use portal_core::content::{Cms, CmsApp, CmsBackend, ContentError, SiteConfig, ENTRY_KEYS, KNOWN_KEYS};
use serde_yaml::{Mapping, Value};

use super::shape::{merge_keys, Shape};
use crate::build::model::{Card, Model};
use crate::build::pages::navigation::{collection_description, collection_label};

/// Where the CMS's sign-in starts, relative to `backend.base_url` (the site itself): the OAuth
/// routes of docs/editing.md#signing-in.
pub const AUTH_ENDPOINT: &str = "api/cms/auth";

/// The folder of `static/` uploads go to, and the URL path they are published at.
const MEDIA: &str = "media";

/// The configuration of `site`'s CMS over the cards of `model` (content folder `root`). Records
/// from `sources:` are not files the CMS can open: their keys make no fields, and each collection
/// fed by a source says where its rows are edited (docs/editing.md#records-from-sources).
pub fn config(site: &SiteConfig, cms: &Cms, strings: &Strings, model: &Model, root: &Path) -> Value {
    let rows = crate::load::sources::places(root, site);
    let written = |name: &str| -> Vec<Card> {
        model.cards(name).iter().filter(|c| !crate::load::sources::is_row(&c.file, &rows)).cloned().collect()
    };
    let languages = languages(site, model);
    let ctx = Ctx { strings, languages: &languages, site_language: &site.language };
    let dir = content_dir(cms);
    let mut collections: Vec<Value> = COLLECTIONS
        .iter()
        .map(|name| {
            let label = collection_label(strings, name);
            let description = with_sources(collection_description(strings, name), site, name);
            collection(name, &label, &description, &dir, &fields(name, &Seen::of(&written(name)), &ctx))
        })
        .collect();
    let encyclopedia = strings.lookup("encyclopedia.title").and_then(|v| v.as_str()).unwrap_or("Encyclopedia");
    let lead = strings.lookup("encyclopedia.lead").and_then(|v| v.as_str()).unwrap_or_default();
    let entry_fields = fields(ENCYCLOPEDIA, &Seen::of(&model.entries), &ctx);
    collections.push(collection("encyclopedia", encyclopedia, lead, &dir, &entry_fields));
    let mut root = Mapping::new();
    root.insert("backend".into(), backend(site, cms));
    // Decap CMS edits a checkout through its local proxy; Sveltia CMS opens the folder itself
    // ("Work with Local Repository") and warns of the key (docs/editing.md#editing-on-your-computer).
    if cms.local_backend && cms.app == CmsApp::Decap {
        root.insert("local_backend".into(), true.into());
    }
    if !site.base().is_empty() {
        root.insert("site_url".into(), site.base().into());
        root.insert("display_url".into(), site.base().into());
    }
    root.insert("media_folder".into(), join(&dir, &format!("static/{MEDIA}")).into());
    root.insert("public_folder".into(), format!("/{MEDIA}").into());
    root.insert("slug".into(), map([("encoding", "ascii".into()), ("clean_accents", true.into()), dash()]));
    root.insert("collections".into(), Value::Sequence(collections));
    Value::Mapping(root)
}

/// How a title becomes a file name: lower-case ASCII, other characters as `-` (portal's slug
/// rule, docs/content.md#front-matter).
fn dash() -> (&'static str, Value) {
    ("sanitize_replacement", "-".into())
}

/// `cms.content_dir` without slashes at its ends (`.` or empty: the repository's root).
fn content_dir(cms: &Cms) -> String {
    cms.content_dir.trim_matches('/').trim_start_matches("./").to_string()
}

fn join(dir: &str, path: &str) -> String {
    if dir.is_empty() || dir == "." {
        path.to_string()
    } else {
        format!("{dir}/{path}")
    }
}

fn backend(site: &SiteConfig, cms: &Cms) -> Value {
    let mut backend = map([
        ("name", cms.backend.name().into()),
        ("repo", cms.repo.as_str().into()),
        ("branch", cms.branch.as_str().into()),
    ]);
    let Value::Mapping(members) = &mut backend else { return backend };
    if let Some(api_root) = &cms.api_root {
        members.insert("api_root".into(), api_root.as_str().into());
    }
    match (cms.backend, &cms.app_id) {
        // GitHub signs in through the site's own OAuth routes (docs/editing.md#signing-in).
        (CmsBackend::Github, _) if !site.base().is_empty() => {
            members.insert("base_url".into(), site.base().into());
            members.insert("auth_endpoint".into(), AUTH_ENDPOINT.into());
        }
        (CmsBackend::Gitlab | CmsBackend::Gitea, Some(app_id)) => {
            members.insert("auth_type".into(), "pkce".into());
            members.insert("app_id".into(), app_id.as_str().into());
        }
        _ => {}
    }
    backend
}

/// The site's language, then every other language a record is written in.
fn languages(site: &SiteConfig, model: &Model) -> Vec<String> {
    let others: BTreeSet<&str> =
        model.all().map(|c| c.language.as_str()).filter(|l| !l.is_empty() && *l != site.language).collect();
    std::iter::once(site.language.clone()).chain(others.into_iter().map(str::to_string)).collect()
}

/// A collection's description, with where the records of its sources are edited.
fn with_sources(description: String, site: &SiteConfig, name: &str) -> String {
    let from: Vec<&str> = site.sources.iter().filter(|s| s.collection == name).map(|s| s.from.as_str()).collect();
    if from.is_empty() {
        return description;
    }
    let note = format!(
        "Some records of this collection come from {} (sources in site.yaml) and are edited there; only records written as files are listed here.",
        from.join(", ")
    );
    if description.is_empty() {
        note
    } else {
        format!("{description} {note}")
    }
}

/// What the fields are made from.
struct Ctx<'a> {
    strings: &'a Strings,
    languages: &'a [String],
    site_language: &'a str,
}

/// What a collection's records say: each front-matter key's shape, and the categories in use.
struct Seen {
    shapes: Vec<(String, Shape)>,
    categories: BTreeSet<String>,
}

impl Seen {
    fn of(cards: &[Card]) -> Seen {
        let shapes = cards.iter().fold(Vec::new(), |acc, card| merge_keys(acc, card.shapes.to_vec()));
        let categories = cards.iter().filter_map(|c| c.category.clone()).filter(|c| !c.trim().is_empty()).collect();
        Seen { shapes, categories }
    }

    fn shape(&self, key: &str) -> Option<&Shape> {
        self.shapes.iter().find(|(k, _)| k == key).map(|(_, s)| s)
    }
}

fn collection(name: &str, label: &str, description: &str, dir: &str, fields: &[Value]) -> Value {
    let mut collection = map([
        ("name", name.into()),
        ("label", label.into()),
        ("folder", join(dir, name).into()),
        ("create", true.into()),
        ("slug", "{{slug}}".into()),
        ("extension", "md".into()),
        ("format", "frontmatter".into()),
        ("fields", Value::Sequence(fields.to_vec())),
    ]);
    if let (Value::Mapping(members), false) = (&mut collection, description.is_empty()) {
        members.insert("description".into(), description.into());
    }
    collection
}

/// The fields of collection `name` (`entries` for the encyclopedia): what portal knows, then the
/// other keys its records use, then the body.
fn fields(name: &str, seen: &Seen, ctx: &Ctx) -> Vec<Value> {
    let label = |key: &str| label_of(key, ctx.strings);
    let mut fields =
        vec![map([("name", "title".into()), ("label", label("title").into()), ("widget", "string".into())])];
    fields.push(optional("date", &label("date"), date_widget()));
    fields.push(optional("updated", &label("updated"), date_widget()));
    fields.push(optional("summary", &label("summary"), widget("text")));
    fields.push(optional("tags", &label("tags"), widget("list")));
    fields.push(category(seen, &label("category")));
    if name == "events" {
        fields.push(optional("start", &label("start"), datetime_widget()));
        fields.push(optional("end", &label("end"), datetime_widget()));
    }
    fields.push(image(seen, &label("image")));
    if name == ENCYCLOPEDIA {
        fields.extend(entry_fields(&label));
    }
    fields.extend(translation_fields(seen, ctx, &label));
    fields.push(optional("draft", &label("draft"), boolean_widget()));
    fields.extend(known_extras(seen, &label));
    let handled =
        |key: &str| KNOWN_KEYS.contains(&key) || key == "body" || (name == ENCYCLOPEDIA && ENTRY_KEYS.contains(&key));
    for (key, shape) in seen.shapes.iter().filter(|(key, _)| !handled(key) && is_field_name(key)) {
        if let Some(widget) = widget_of(shape, ctx.strings) {
            fields.push(optional(key, &label(key), widget));
        }
    }
    fields.push(optional("body", &label("body"), widget("markdown")));
    fields
}

/// `category`: a choice of the categories in use, or a line while there are none.
fn category(seen: &Seen, label: &str) -> Value {
    if seen.categories.is_empty() {
        return optional("category", label, widget("string"));
    }
    let options: Vec<Value> = seen.categories.iter().map(|c| c.as_str().into()).collect();
    optional("category", label, map([("widget", "select".into()), ("options", Value::Sequence(options))]))
}

/// `image`: a picture with its alternative text (`{src, alt}`), or a picture alone where the
/// collection's records write only a path (their `image_alt` is then a field of its own).
fn image(seen: &Seen, label: &str) -> Value {
    if matches!(seen.shape("image"), Some(Shape::Line)) {
        return optional("image", label, widget("image"));
    }
    let src = optional("src", label, widget("image"));
    let alt = optional("alt", "Alt text", widget("string"));
    optional("image", label, map([("widget", "object".into()), ("fields", Value::Sequence(vec![src, alt]))]))
}

/// `language` and `translation_key` (docs/content.md#languages) on a site written in several
/// languages, or where the collection's records already say them.
fn translation_fields(seen: &Seen, ctx: &Ctx, label: &dyn Fn(&str) -> String) -> Vec<Value> {
    let mut fields = Vec::new();
    if ctx.languages.len() > 1 || seen.shape("language").is_some() {
        let options: Vec<Value> = ctx.languages.iter().map(|l| l.as_str().into()).collect();
        let select = map([
            ("widget", "select".into()),
            ("options", Value::Sequence(options)),
            ("default", ctx.site_language.into()),
        ]);
        fields.push(optional("language", &label("language"), select));
    }
    if ctx.languages.len() > 1 || seen.shape("translation_key").is_some() {
        let hint = "The same key on each translation links them (\"Also in\").";
        let line = map([("widget", "string".into()), ("hint", hint.into())]);
        fields.push(optional("translation_key", &label("translation_key"), line));
    }
    fields
}

/// Keys portal knows that only some records use: `weight`, `image_alt`, `id`, `slug`.
fn known_extras(seen: &Seen, label: &dyn Fn(&str) -> String) -> Vec<Value> {
    let mut fields = Vec::new();
    if seen.shape("weight").is_some() {
        let number = map([("widget", "number".into()), ("value_type", "int".into())]);
        fields.push(optional("weight", &label("weight"), number));
    }
    for key in ["image_alt", "id", "slug"].into_iter().filter(|k| seen.shape(k).is_some()) {
        fields.push(optional(key, &label(key), widget("string")));
    }
    fields
}

/// The encyclopedia's own keys (docs/content.md#encyclopedia-entries).
fn entry_fields(label: &dyn Fn(&str) -> String) -> Vec<Value> {
    let source = |key: &str, required: bool| {
        let mut field = optional(key, &label(key), widget("string"));
        if let Value::Mapping(m) = &mut field {
            m.insert("required".into(), required.into());
        }
        field
    };
    let source_fields =
        vec![source("title", true), source("url", true), source("publisher", false), source("date", false)];
    let sources = map([("widget", "list".into()), ("min", 1.into()), ("fields", Value::Sequence(source_fields))]);
    let mut sources = optional("sources", &label("sources"), sources);
    if let Value::Mapping(m) = &mut sources {
        m.insert("required".into(), true.into());
    }
    vec![
        optional("aliases", &label("aliases"), widget("list")),
        optional("related", &label("related"), widget("list")),
        sources,
    ]
}

/// The widget (and its options) that edits values of `shape`; `None` where no widget edits them
/// all (the key stays in the file as written).
fn widget_of(shape: &Shape, strings: &Strings) -> Option<Value> {
    Some(match shape {
        Shape::Line => widget("string"),
        Shape::Text => widget("text"),
        Shape::Date => date_widget(),
        Shape::DateTime => datetime_widget(),
        Shape::Int => map([("widget", "number".into()), ("value_type", "int".into())]),
        Shape::Float => map([("widget", "number".into()), ("value_type", "float".into())]),
        Shape::Bool => boolean_widget(),
        Shape::List(item) => match item.as_ref() {
            Shape::Null | Shape::Line | Shape::Text | Shape::Date | Shape::DateTime => widget("list"),
            Shape::Object(keys) => {
                map([("widget", "list".into()), ("fields", Value::Sequence(object_fields(keys, strings)?))])
            }
            other => map([("widget", "list".into()), ("field", optional("item", "Item", widget_of(other, strings)?))]),
        },
        Shape::Object(keys) => {
            map([("widget", "object".into()), ("fields", Value::Sequence(object_fields(keys, strings)?))])
        }
        Shape::Null | Shape::Mixed => return None,
    })
}

/// The fields of a mapping's keys; `None` when none can be edited (a CMS object needs a field).
fn object_fields(keys: &[(String, Shape)], strings: &Strings) -> Option<Vec<Value>> {
    let fields: Vec<Value> = keys
        .iter()
        .filter(|(key, _)| is_field_name(key))
        .filter_map(|(key, shape)| Some(optional(key, &label_of(key, strings), widget_of(shape, strings)?)))
        .collect();
    (!fields.is_empty()).then_some(fields)
}

/// Names of the members every JavaScript object has: a field of that name would be read from the
/// CMS's objects (a `constructor` function where a value is expected), or write their prototype.
const OBJECT_MEMBERS: [&str; 8] = [
    "constructor",
    "prototype",
    "hasOwnProperty",
    "isPrototypeOf",
    "propertyIsEnumerable",
    "toLocaleString",
    "toString",
    "valueOf",
];

/// Whether front-matter key `key` may name a field of the CMS (docs/editing.md#the-generated-configuration):
/// a letter, then letters, digits, `_` or `-` (at most 64), and no member of every JavaScript
/// object. Any other key (`__proto__`, markup, quotes, spaces, dots, which the CMSs read as paths)
/// gets no field and stays in its file as written.
pub fn is_field_name(key: &str) -> bool {
    let mut chars = key.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && key.len() <= 64
        && !OBJECT_MEMBERS.contains(&key)
}

/// The warnings of a site with a CMS about the front-matter keys of `cards` that get no field
/// ([`is_field_name`]), one per file and key, nested keys by their path (`contact.<b>`).
pub fn key_warnings<'a>(site: &SiteConfig, root: &Path, cards: impl Iterator<Item = &'a Card>) -> Vec<ContentError> {
    if site.cms.is_none() {
        return Vec::new();
    }
    let rows = crate::load::sources::places(root, site);
    let mut warnings = Vec::new();
    for card in cards.filter(|card| !crate::load::sources::is_row(&card.file, &rows)) {
        let mut bad = Vec::new();
        unusable_keys(&card.shapes, "", &mut bad);
        warnings.extend(bad.into_iter().map(|key| {
            ContentError::new(
                &card.file,
                1,
                format!(
                    "the front-matter key {key:?} gets no field in the CMS (/admin): a field's name is a letter, \
                     then letters, digits, `_` or `-`, and no name every JavaScript object has; the CMS leaves the \
                     key as written"
                ),
            )
        }));
    }
    warnings
}

/// The keys among `keys` (and in their mappings, with `prefix`) that are no field name.
fn unusable_keys(keys: &[(String, Shape)], prefix: &str, found: &mut Vec<String>) {
    for (key, shape) in keys {
        let path = format!("{prefix}{key}");
        if !is_field_name(key) {
            found.push(path);
            continue;
        }
        let inner = match shape {
            Shape::Object(inner) => inner,
            Shape::List(item) => match item.as_ref() {
                Shape::Object(inner) => inner,
                _ => continue,
            },
            _ => continue,
        };
        unusable_keys(inner, &format!("{path}."), found);
    }
}

/// The label of field `key`: the interface text's in the site's language (`fields.<key>`, and the
/// record pages' words for tags, category, sources and related entries), else the key in words.
fn label_of(key: &str, strings: &Strings) -> String {
    let text_key = match key {
        "tags" | "category" => format!("record.{key}"),
        "sources" | "related" => format!("encyclopedia.{key}"),
        _ => format!("fields.{key}"),
    };
    strings.lookup(&text_key).and_then(|v| v.as_str()).map_or_else(|| words(key), str::to_string)
}

/// `start_date` as "Start date".
fn words(key: &str) -> String {
    let spaced = key.replace(['_', '-'], " ");
    let mut chars = spaced.trim().chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// A field editors may leave empty (every field but the title; the CMS's default is required).
fn optional(name: &str, label: &str, widget: Value) -> Value {
    let mut field = map([("name", name.into()), ("label", label.into())]);
    if let (Value::Mapping(field), Value::Mapping(widget)) = (&mut field, widget) {
        field.extend(widget);
        field.entry("required".into()).or_insert(false.into());
    }
    field
}

fn widget(name: &str) -> Value {
    map([("widget", name.into())])
}

fn boolean_widget() -> Value {
    map([("widget", "boolean".into()), ("default", false.into())])
}

/// A calendar date, stored as `YYYY-MM-DD`.
fn date_widget() -> Value {
    map([
        ("widget", "datetime".into()),
        ("format", "YYYY-MM-DD".into()),
        ("date_format", "YYYY-MM-DD".into()),
        ("time_format", false.into()),
    ])
}

/// A date and time, stored as RFC 3339 with the editor's offset (`2026-12-23T08:00:00+03:00`).
fn datetime_widget() -> Value {
    map([("widget", "datetime".into()), ("format", "YYYY-MM-DDTHH:mm:ssZ".into())])
}

fn map<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Mapping(pairs.into_iter().map(|(k, v)| (Value::from(k), v)).collect())
}
