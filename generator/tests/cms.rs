//! The CMS's configuration and page (docs/editing.md): what `portal build` writes for a site with
//! a `cms:` block, from the records it has, and that a site without one gets neither.

use std::path::Path;
use std::process::{Command, Output};

use serde_yaml::Value;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn build(content: &Path, out: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_portal"))
        .args(["build", "--content"])
        .arg(content)
        .arg("--out")
        .arg(out)
        .env("SOURCE_DATE_EPOCH", "1790000000")
        .output()
        .expect("portal runs")
}

const SITE: &str = "title: T\nbase_url: https://t.example.org\n";
const CMS: &str = "cms:\n  backend: github\n  repo: amani/site\n  app: decap\n  content_dir: site/content\n";

/// A small site: `site.yaml` of `settings`, and each `(path, text)` of `records`.
fn site(dir: &Path, settings: &str, records: &[(&str, &str)]) -> std::path::PathBuf {
    let content = dir.join("content");
    write(&content.join("site.yaml"), settings);
    for (path, text) in records {
        write(&content.join(path), text);
    }
    content
}

/// The built configuration of a site with `records` and the CMS block.
fn config(records: &[(&str, &str)]) -> Value {
    let dir = tempfile::tempdir().expect("temp dir");
    let content = site(dir.path(), &format!("{SITE}{CMS}"), records);
    let out = dir.path().join("dist");
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let text = std::fs::read_to_string(out.join("admin/config.yml")).expect("config.yml is written");
    serde_yaml::from_str(&text).expect("config.yml is YAML")
}

fn collection<'a>(config: &'a Value, name: &str) -> &'a Value {
    let collections = config["collections"].as_sequence().expect("collections");
    collections.iter().find(|c| c["name"].as_str() == Some(name)).expect("the collection is configured")
}

fn field<'a>(collection: &'a Value, name: &str) -> Option<&'a Value> {
    collection["fields"].as_sequence().expect("fields").iter().find(|f| f["name"].as_str() == Some(name))
}

const EVENT: &str = "---\ntitle: Market day\ndate: 2026-11-20\ncategory: culture\nstart: 2026-12-23T08:00:00+03:00\n\
capacity: 40\nprice: 2.5\naccessible: true\ndeadline: 2026-12-01\ncontact: {phone: '+256 700 000 104', email: a@example.org}\n\
speakers: [Amina, Deng]\nsessions:\n  - {time: '09:00', room: Hall}\nodd: text\n---\nBody.\n";
const OTHER_EVENT: &str = "---\ntitle: Football\ncategory: sport\nodd: [a, list]\n---\n";

#[test]
fn each_collection_is_a_folder_of_markdown_with_the_known_fields() {
    let config = config(&[("news/a.md", "---\ntitle: A\ntags: [water]\n---\nBody.\n")]);
    assert_eq!(config["backend"]["name"].as_str(), Some("github"));
    assert_eq!(config["backend"]["repo"].as_str(), Some("amani/site"));
    assert_eq!(config["backend"]["base_url"].as_str(), Some("https://t.example.org"));
    assert_eq!(config["backend"]["auth_endpoint"].as_str(), Some("api/cms/auth"));
    assert_eq!(config["local_backend"].as_bool(), Some(true));
    assert_eq!(config["media_folder"].as_str(), Some("site/content/static/media"));
    assert_eq!(config["public_folder"].as_str(), Some("/media"));
    let names: Vec<&str> =
        config["collections"].as_sequence().expect("list").iter().filter_map(|c| c["name"].as_str()).collect();
    assert_eq!(names.len(), 20, "19 collections and the encyclopedia: {names:?}");
    assert!(names.contains(&"encyclopedia") && names.contains(&"community-voices"));
    let news = collection(&config, "news");
    assert_eq!(news["folder"].as_str(), Some("site/content/news"));
    assert_eq!(news["label"].as_str(), Some("News"));
    assert_eq!((news["create"].as_bool(), news["extension"].as_str()), (Some(true), Some("md")));
    assert_eq!(news["format"].as_str(), Some("frontmatter"));
    let title = field(news, "title").expect("title");
    assert!(title.get("required").is_none(), "the title is required (the CMS's default)");
    assert_eq!(field(news, "date").and_then(|f| f["format"].as_str()), Some("YYYY-MM-DD"));
    assert_eq!(field(news, "updated").and_then(|f| f["widget"].as_str()), Some("datetime"));
    assert_eq!(field(news, "tags").and_then(|f| f["widget"].as_str()), Some("list"));
    assert_eq!(field(news, "draft").and_then(|f| f["widget"].as_str()), Some("boolean"));
    let image = field(news, "image").expect("image");
    let image_fields: Vec<&str> =
        image["fields"].as_sequence().expect("src, alt").iter().filter_map(|f| f["name"].as_str()).collect();
    assert_eq!(image_fields, ["src", "alt"]);
    let last = news["fields"].as_sequence().and_then(|f| f.last()).expect("fields");
    assert_eq!((last["name"].as_str(), last["widget"].as_str()), (Some("body"), Some("markdown")));
    assert!(field(news, "start").is_none(), "only events have start and end");
    let entries = collection(&config, "encyclopedia");
    assert_eq!(field(entries, "sources").and_then(|f| f["min"].as_u64()), Some(1));
}

#[test]
fn the_other_keys_records_use_get_the_widget_of_their_values() {
    let config = config(&[("events/market.md", EVENT), ("events/football.md", OTHER_EVENT)]);
    let events = collection(&config, "events");
    let widget = |name: &str| field(events, name).and_then(|f| f["widget"].as_str()).map(str::to_string);
    assert_eq!(field(events, "start").and_then(|f| f["format"].as_str()), Some("YYYY-MM-DDTHH:mm:ssZ"));
    assert_eq!(widget("end").as_deref(), Some("datetime"));
    assert_eq!(widget("capacity").as_deref(), Some("number"));
    assert_eq!(field(events, "capacity").and_then(|f| f["value_type"].as_str()), Some("int"));
    assert_eq!(field(events, "price").and_then(|f| f["value_type"].as_str()), Some("float"));
    assert_eq!(widget("accessible").as_deref(), Some("boolean"));
    assert_eq!(field(events, "deadline").and_then(|f| f["format"].as_str()), Some("YYYY-MM-DD"));
    assert_eq!(widget("contact").as_deref(), Some("object"));
    assert_eq!(widget("speakers").as_deref(), Some("list"));
    let sessions = field(events, "sessions").expect("sessions");
    assert_eq!(sessions["fields"][1]["name"].as_str(), Some("room"));
    assert!(field(events, "odd").is_none(), "a key of mixed kinds is left as written");
    let category = field(events, "category").expect("category");
    assert_eq!(category["widget"].as_str(), Some("select"));
    let options: Vec<&str> =
        category["options"].as_sequence().expect("options").iter().filter_map(Value::as_str).collect();
    assert_eq!(options, ["culture", "sport"], "the categories in use");
    let news = collection(&config, "news");
    assert_eq!(field(news, "category").and_then(|f| f["widget"].as_str()), Some("string"), "none in use yet");
    assert!(field(news, "capacity").is_none(), "each collection has its own keys");
}

#[test]
fn a_site_in_several_languages_links_translations_by_key() {
    let en = "---\ntitle: Water\ntranslation_key: water\n---\n";
    let fr = "---\ntitle: Eau\nlanguage: fr\ntranslation_key: water\n---\n";
    let config = config(&[("news/water.md", en), ("news/eau.md", fr)]);
    for name in ["news", "services", "encyclopedia"] {
        let language = field(collection(&config, name), "language").expect("a language choice");
        let options: Vec<&str> =
            language["options"].as_sequence().expect("options").iter().filter_map(Value::as_str).collect();
        assert_eq!(options, ["en", "fr"], "the site's language first");
        assert_eq!(language["default"].as_str(), Some("en"));
        assert!(field(collection(&config, name), "translation_key").is_some());
    }
    let single = self::config(&[("news/water.md", "---\ntitle: Water\n---\n")]);
    assert!(field(collection(&single, "news"), "language").is_none(), "one language: nothing to choose");
}

#[test]
fn without_a_cms_block_there_is_no_admin() {
    let dir = tempfile::tempdir().expect("temp dir");
    let content = site(dir.path(), SITE, &[("news/a.md", "---\ntitle: A\n---\n")]);
    let out = dir.path().join("dist");
    assert!(build(&content, &out).status.success());
    assert!(!out.join("admin.html").exists() && !out.join("admin").exists());
    let headers = std::fs::read_to_string(out.join("_headers")).expect("_headers");
    assert!(!headers.contains("unpkg"), "{headers}");
}

#[test]
fn the_admin_page_loads_the_pinned_cms_under_a_policy_of_its_own() {
    let dir = tempfile::tempdir().expect("temp dir");
    let content = site(dir.path(), &format!("{SITE}{CMS}"), &[]);
    let out = dir.path().join("dist");
    assert!(build(&content, &out).status.success());
    let page = std::fs::read_to_string(out.join("admin.html")).expect("the admin page");
    assert!(page.contains("<link href=\"admin/config.yml\" type=\"text/yaml\" rel=\"cms-config-url\">"), "{page}");
    assert!(
        page.contains("src=\"https://unpkg.com/decap-cms@3.16.3/dist/decap-cms.js\" integrity=\"sha384-"),
        "{page}"
    );
    // When the script cannot load, the page says so in words (no script needed to show it).
    assert!(page.contains("the content manager's script could not be loaded from https://unpkg.com"), "{page}");
    assert!(page.contains("body:has(> script ~ :not(script, style, link)) > .cms-status { display: none }"), "{page}");
    let headers = std::fs::read_to_string(out.join("_headers")).expect("_headers");
    let rule = headers.split("\n/admin.html\n").nth(1).expect("a rule for the admin page");
    assert!(rule.contains("! content-security-policy\n  content-security-policy: default-src 'self'; script-src 'self' https://unpkg.com/decap-cms@3.16.3/ 'unsafe-eval';"), "{rule}");
    let nginx = std::fs::read_to_string(out.join("_portal/nginx.conf")).expect("nginx snippet");
    let location = nginx.lines().find(|l| l.starts_with("location = /admin ")).expect("a location for /admin");
    assert!(
        location.contains("https://unpkg.com/decap-cms@3.16.3/ ") && location.contains("api.github.com"),
        "{location}"
    );
    assert!(!location.contains("https://unpkg.com ") && !location.contains("https://unpkg.com;"), "{location}");
    let sveltia = "cms: {repo: amani/site}\n";
    std::fs::write(content.join("site.yaml"), format!("{SITE}{sveltia}")).expect("write");
    assert!(build(&content, &out).status.success());
    let page = std::fs::read_to_string(out.join("admin.html")).expect("the admin page");
    assert!(page.contains("src=\"https://unpkg.com/@sveltia/cms@0.221.1/dist/sveltia-cms.js\""), "{page}");
    let config = std::fs::read_to_string(out.join("admin/config.yml")).expect("config");
    assert!(config.contains("folder: content/news\n"), "the default content folder: {config}");
    assert!(!config.contains("local_backend"), "Sveltia CMS opens a local folder itself: {config}");
}

#[test]
fn bad_cms_settings_are_errors_naming_site_yaml_and_the_key() {
    let cases = [
        (
            "cms:\n  repo: amani/site\n  backend: bitbucket\n",
            4,
            "`cms.backend` cannot be `bitbucket`: write one of `github`",
        ),
        ("cms:\n  repo: just-a-name\n", 3, "`cms.repo` is `just-a-name`"),
        ("cms:\n  repo: a/b\n  content_dir: ../content\n", 4, "cms.content_dir"),
        ("cms:\n  repo: a/b\n  editor: sveltia\n", 4, "editor"),
        ("cms: {app: decap}\n", 2, "`cms.repo` is missing"),
    ];
    for (block, line, says) in cases {
        let dir = tempfile::tempdir().expect("temp dir");
        let content = site(dir.path(), &format!("title: T\n{block}"), &[]);
        let built = build(&content, &dir.path().join("dist"));
        let stderr = String::from_utf8_lossy(&built.stderr);
        assert!(!built.status.success(), "{block}");
        assert!(stderr.contains(&format!("site.yaml:{line}")) && stderr.contains(says), "{block}: {stderr}");
    }
}

#[test]
fn keys_that_are_no_plain_name_get_no_field_and_a_warning_naming_their_file() {
    let odd = "---\ntitle: Odd\n__proto__: {polluted: true}\nconstructor: x\n\"<img src=x onerror=alert(1)>\": y\n\
\"a b\": z\n\"it's\": w\ndotted.key: v\ncontact: {phone: '+256', \"<b>\": 1, toString: 2}\nvenue: Hall\n---\nBody.\n";
    let dir = tempfile::tempdir().expect("temp dir");
    let content = site(dir.path(), &format!("{SITE}{CMS}"), &[("news/odd.md", odd)]);
    let out = dir.path().join("dist");
    let built = build(&content, &out);
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "{stderr}");
    let text = std::fs::read_to_string(out.join("admin/config.yml")).expect("config.yml is written");
    let config: Value = serde_yaml::from_str(&text).expect("config.yml is YAML");
    let news = collection(&config, "news");
    assert_eq!(field(news, "venue").and_then(|f| f["widget"].as_str()), Some("string"));
    for bad in ["__proto__", "constructor", "<img src=x onerror=alert(1)>", "a b", "it's", "dotted.key"] {
        assert!(field(news, bad).is_none(), "{bad} became a field: {text}");
        assert!(stderr.contains("news/odd.md") && stderr.contains(&format!("{bad:?}")), "{bad}: {stderr}");
    }
    let contact = field(news, "contact").expect("contact");
    let names: Vec<&str> =
        contact["fields"].as_sequence().expect("fields").iter().filter_map(|f| f["name"].as_str()).collect();
    assert_eq!(names, ["phone"], "nested keys are held to the same rule");
    assert!(stderr.contains("\"contact.<b>\"") && stderr.contains("\"contact.toString\""), "{stderr}");
    assert!(!text.contains("<img") && !text.contains("__proto__"), "{text}");
}

#[test]
fn a_site_without_a_cms_is_not_warned_of_keys_the_cms_would_leave_out() {
    let dir = tempfile::tempdir().expect("temp dir");
    let content = site(dir.path(), SITE, &[("news/odd.md", "---\ntitle: Odd\n\"a b\": z\n---\n")]);
    let built = build(&content, &dir.path().join("dist"));
    assert!(built.status.success());
    assert!(!String::from_utf8_lossy(&built.stderr).contains("gets no field"));
}

#[test]
fn records_from_a_source_make_no_fields_and_the_collection_says_where_they_are_edited() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sources = "sources:\n  - {collection: services, from: sources/directory.csv, map: {title: Name}}\n";
    let records = [
        ("sources/directory.csv", "Name,Opening Hours\nAmani Clinic,Mon-Fri\n"),
        ("services/written.md", "---\ntitle: Written\nwheelchair: true\n---\nBody.\n"),
    ];
    let content = site(dir.path(), &format!("{SITE}{CMS}{sources}"), &records);
    let out = dir.path().join("dist");
    let built = build(&content, &out);
    assert!(built.status.success(), "{}", String::from_utf8_lossy(&built.stderr));
    let config: Value =
        serde_yaml::from_slice(&std::fs::read(out.join("admin/config.yml")).expect("config")).expect("YAML");
    let services = collection(&config, "services");
    assert!(field(services, "wheelchair").is_some(), "a written record's key is a field");
    assert!(field(services, "opening_hours").is_none(), "a source's column is edited in the source, not here");
    let description = services["description"].as_str().unwrap_or_default();
    assert!(description.contains("sources/directory.csv") && description.contains("edited there"), "{description}");
}
