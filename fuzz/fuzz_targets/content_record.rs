//! Content loading: any text as a record file (markdown with YAML front matter, YAML, JSON), as an
//! encyclopedia entry and as `site.yaml`. Never panics; every error names a line of the file. Any
//! text as a markdown body, cleaned by the default HTML policy, publishes no script, no
//! event-handler attribute and no `javascript:` or `data:` link.
#![no_main]

use libfuzzer_sys::fuzz_target;
use portal::load::records::{parse, Format};
use portal::load::{encyclopedia, site};
use portal::markdown::to_html;
use portal::sanitize::Sanitizer;
use portal_core::content::Markdown;

/// The (name, value) of every attribute of every start tag, and the tag names, of HTML as
/// html5ever serializes it (attribute values in double quotes, `"` and `&` escaped inside them).
fn tags(html: &str) -> Vec<(String, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
        rest = &rest[name.len()..];
        let mut attributes = Vec::new();
        loop {
            rest = rest.trim_start();
            if rest.is_empty() || rest.starts_with('>') || rest.starts_with("/>") {
                break;
            }
            let end = rest.find(|c: char| c == '=' || c == '>' || c.is_whitespace()).unwrap_or(rest.len());
            let attribute = rest[..end].to_ascii_lowercase();
            rest = &rest[end..];
            let mut value = String::new();
            if let Some(after) = rest.strip_prefix("=\"") {
                let close = after.find('"').unwrap_or(after.len());
                value = after[..close].replace("&quot;", "\"").replace("&amp;", "&");
                rest = after.get(close + 1..).unwrap_or("");
            }
            if attribute.is_empty() {
                rest = rest.get(1..).unwrap_or("");
                continue;
            }
            attributes.push((attribute, value));
        }
        out.push((name.to_ascii_lowercase(), attributes));
    }
    out
}

/// Whether cleaned HTML is free of everything that runs script: no `script` element, no
/// event-handler attribute, no `javascript:` or `data:` URL in a URL attribute.
fn harmless(html: &str) -> bool {
    tags(html).iter().all(|(name, attributes)| {
        name != "script"
            && attributes.iter().all(|(attribute, value)| {
                let url: String = value.chars().filter(|c| !c.is_whitespace() && !c.is_control()).collect();
                let url = url.to_ascii_lowercase();
                !attribute.starts_with("on")
                    && !(["href", "src", "action", "formaction", "srcset", "poster", "xlink:href"].contains(&attribute.as_str())
                        && (url.starts_with("javascript:") || url.starts_with("data:") || url.starts_with("vbscript:")))
            })
    })
}

fuzz_target!(|text: &str| {
    for (format, file) in [(Format::Markdown, "news/x.md"), (Format::Yaml, "news/x.yaml"), (Format::Json, "news/x.json")] {
        if let Err(errors) = parse("news", "x", file, format, text, &[]) {
            assert!(!errors.is_empty());
            assert!(errors.iter().all(|e| e.line >= 1), "an error without a line: {errors:?}");
        }
    }
    if let Err(errors) = encyclopedia::parse("entry", "encyclopedia/entry.md", text, &[]) {
        assert!(errors.iter().all(|e| e.line >= 1));
    }
    let _ = site::parse("site.yaml", text);
    let cleaned = Sanitizer::new(&Markdown::default()).clean(&to_html(text));
    assert!(harmless(&cleaned), "the sanitizer let something through: {cleaned}");
});
