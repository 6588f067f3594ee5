//! The theme: tera templates compiled into the binary, each overridable by a file of
//! the same name in `--templates DIR`, so `portal build` needs no templates folder of the user's.

use std::path::Path;

use anyhow::{Context, Result};
use tera::Tera;

/// Built-in templates: (name, source).
pub const TEMPLATES: &[(&str, &str)] = &[
    ("base.html", include_str!("../../templates/base.html")),
    ("home.html", include_str!("../../templates/home.html")),
    ("collection.html", include_str!("../../templates/collection.html")),
    ("listing-items.html", include_str!("../../templates/listing-items.html")),
    ("intro.html", include_str!("../../templates/intro.html")),
    ("term.html", include_str!("../../templates/term.html")),
    ("terms.html", include_str!("../../templates/terms.html")),
    ("record.html", include_str!("../../templates/record.html")),
    ("entry.html", include_str!("../../templates/entry.html")),
    ("encyclopedia.html", include_str!("../../templates/encyclopedia.html")),
    ("map.html", include_str!("../../templates/map.html")),
    ("place.html", include_str!("../../templates/place.html")),
    ("api-docs.html", include_str!("../../templates/api-docs.html")),
    ("data.html", include_str!("../../templates/data.html")),
    ("snapshot.html", include_str!("../../templates/snapshot.html")),
    ("alerts.html", include_str!("../../templates/alerts.html")),
    ("404.html", include_str!("../../templates/404.html")),
    ("offline.html", include_str!("../../templates/offline.html")),
    ("dynamic.html", include_str!("../../templates/dynamic.html")),
    ("find.html", include_str!("../../templates/find.html")),
];

/// Static assets of the theme: (file under `assets/`, text); typed by their extension.
pub const ASSETS: &[(&str, &str)] = &[
    ("style.css", include_str!("../../templates/assets/style.css")),
    ("webmcp.js", include_str!("../../templates/assets/webmcp.js")),
    ("offline.js", include_str!("../../templates/assets/offline.js")),
    ("outbox-store.js", include_str!("../../templates/assets/outbox-store.js")),
    ("outbox.js", include_str!("../../templates/assets/outbox.js")),
    ("outbox-sw.js", include_str!("../../templates/assets/outbox-sw.js")),
    ("find.js", include_str!("../../templates/assets/find.js")),
];

/// The service worker's code (`assets/sw.js` of the theme; docs/offline.md). The build writes it at
/// the site's root with its precache list before it, not as an asset of its own.
pub const SERVICE_WORKER: &str = include_str!("../../templates/assets/sw.js");

/// The service worker's code, the override's where there is one.
pub fn service_worker(overrides: Option<&Path>) -> Result<String> {
    Ok(override_of(overrides, "assets/sw.js")?.unwrap_or_else(|| SERVICE_WORKER.to_string()))
}

/// The theme's interface text: (language, YAML table). English defines the keys; see `load::i18n`.
pub const I18N: &[(&str, &str)] = &[
    ("en", include_str!("../../templates/i18n/en.yaml")),
    ("sw", include_str!("../../templates/i18n/sw.yaml")),
    ("fr", include_str!("../../templates/i18n/fr.yaml")),
    ("ar", include_str!("../../templates/i18n/ar.yaml")),
];

/// The built-in table of `language` (a primary subtag such as `sw`), if the theme has one.
pub fn i18n_table(language: &str) -> Option<&'static str> {
    I18N.iter().find(|(l, _)| *l == language).map(|(_, table)| *table)
}

/// Reads `name` from the override folder if it has it.
fn override_of(dir: Option<&Path>, name: &str) -> Result<Option<String>> {
    let Some(path) = dir.map(|d| d.join(name)).filter(|p| p.is_file()) else { return Ok(None) };
    std::fs::read_to_string(&path).map(Some).with_context(|| format!("reading the template {}", path.display()))
}

/// The source of every template: the override's where there is one, else the built-in one.
pub fn sources(overrides: Option<&Path>) -> Result<Vec<(&'static str, String)>> {
    TEMPLATES
        .iter()
        .map(|(name, built_in)| Ok((*name, override_of(overrides, name)?.unwrap_or_else(|| built_in.to_string()))))
        .collect()
}

/// The templates, compiled once. A template that does not compile is a content error at its
/// file, line and column (see [`template_error`]).
pub fn templates(overrides: Option<&Path>) -> Result<Tera> {
    let sources = sources(overrides)?;
    let mut tera = Tera::default();
    // Escapes `&`, `<`, `>` and quotes but leaves `/` readable in URLs (tera's default escapes it).
    tera.set_escape_fn(portal_core::content::text::escape);
    tera.add_raw_templates(sources).map_err(|e| anyhow::Error::new(template_error(&e, overrides)))?;
    Ok(tera)
}

/// A template problem (compiling or rendering) as `file:line: message`, instead of tera's debug
/// dump: the template's file (the override's, or the built-in theme's), the line of a syntax error,
/// and every message of the error's chain.
pub fn template_error(error: &tera::Error, overrides: Option<&Path>) -> portal_core::content::ContentError {
    let mut messages = vec![error.to_string()];
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        messages.push(cause.to_string());
        source = cause.source();
    }
    let name = messages
        .iter()
        .find_map(|m| m.split('\'').nth(1).filter(|n| TEMPLATES.iter().any(|(t, _)| t == n)))
        .unwrap_or("the theme")
        .to_string();
    let file = match overrides.map(|d| d.join(&name)).filter(|p| p.is_file()) {
        Some(path) => path.display().to_string(),
        None => format!("templates/{name} (built in)"),
    };
    // A syntax error's position: "  --> 26:116" in the parser's report.
    let (line, column) = messages
        .iter()
        .find_map(|m| m.split("--> ").nth(1)?.split_whitespace().next()?.split_once(':'))
        .map_or((1, None), |(l, c)| (l.parse().unwrap_or(1), Some(c.to_string())));
    let detail: Vec<String> = messages
        .iter()
        .flat_map(|m| m.lines())
        .map(str::trim)
        .filter(|l| {
            l.starts_with("= ") || !(l.is_empty() || l.starts_with("-->") || l.starts_with('|') || l.contains(" | "))
        })
        .map(|l| l.trim_start_matches("= ").to_string())
        .collect();
    let at = column.map(|c| format!("column {c}: ")).unwrap_or_default();
    portal_core::content::ContentError::new(file, line, format!("{at}{}", detail.join(": ")))
}

/// The theme's assets, overridden from `<overrides>/assets/` where present.
pub fn assets(overrides: Option<&Path>) -> Result<Vec<(String, Vec<u8>)>> {
    ASSETS
        .iter()
        .map(|(name, built_in)| {
            let text = override_of(overrides, &format!("assets/{name}"))?.unwrap_or_else(|| built_in.to_string());
            Ok((name.to_string(), text.into_bytes()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_errors_name_the_file_and_line_without_a_debug_dump() {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(
            dir.path().join("record.html"),
            "{% extends \"base.html\" %}\n{% block main %}\n{{ record.title | }}\n{% endblock main %}\n",
        )
        .expect("write");
        let error = templates(Some(dir.path())).expect_err("a syntax error");
        let error = error.downcast_ref::<portal_core::content::ContentError>().expect("a content error");
        assert!(error.file.ends_with("record.html"), "{error}");
        assert_eq!(error.line, 3, "{error}");
        assert!(!error.message.contains("Error {"), "{error}");
    }

    /// The custom properties (`--name:#rrggbb`) of one part of the stylesheet.
    fn colours(css: &str) -> std::collections::HashMap<String, [f64; 3]> {
        css.split("--")
            .skip(1)
            .filter_map(|part| {
                let (name, rest) = part.split_once(':')?;
                let hex = rest.strip_prefix('#')?.get(..6)?;
                let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok().map(|v| f64::from(v) / 255.0);
                Some((name.to_string(), [channel(0)?, channel(2)?, channel(4)?]))
            })
            .collect()
    }

    /// WCAG 2 relative luminance and contrast ratio.
    fn contrast(a: [f64; 3], b: [f64; 3]) -> f64 {
        let luminance = |c: [f64; 3]| {
            let linear = |x: f64| if x <= 0.03928 { x / 12.92 } else { ((x + 0.055) / 1.055).powf(2.4) };
            0.2126 * linear(c[0]) + 0.7152 * linear(c[1]) + 0.0722 * linear(c[2])
        };
        let (x, y) = (luminance(a), luminance(b));
        (x.max(y) + 0.05) / (x.min(y) + 0.05)
    }

    #[test]
    fn text_colours_meet_wcag_aa_in_the_light_and_the_dark_scheme() {
        let css = ASSETS.iter().find(|(name, _)| *name == "style.css").map(|(_, css)| *css).unwrap_or("");
        let (light, dark) = css.split_once("@media (prefers-color-scheme:dark)").expect("a dark scheme");
        let pairs = [
            ("ink", "bg"),
            ("ink", "soft"),
            ("ink", "past"),
            ("muted", "bg"),
            ("muted", "soft"),
            ("muted", "past"),
            ("accent", "bg"),
            ("accent", "soft"),
            ("on-accent", "accent"),
            ("mark-ink", "mark"),
            ("error", "bg"),
            ("error", "soft"),
        ];
        for (scheme, text) in [("light", light), ("dark", dark)] {
            let colours = colours(text);
            for (fg, bg) in pairs {
                let ratio = contrast(colours[fg], colours[bg]);
                assert!(ratio >= 4.5, "{scheme}: --{fg} on --{bg} is {ratio:.2}:1, below 4.5:1");
            }
        }
    }

    /// The marks of the data pages' charts (docs/content.md#data-pages) are graphics: WCAG 1.4.11
    /// asks 3:1 against what they are drawn on, the page and the cards.
    #[test]
    fn chart_colours_stand_out_from_the_page_in_the_light_and_the_dark_scheme() {
        let css = ASSETS.iter().find(|(name, _)| *name == "style.css").map(|(_, css)| *css).unwrap_or("");
        let (light, dark) = css.split_once("@media (prefers-color-scheme:dark)").expect("a dark scheme");
        for (scheme, text) in [("light", light), ("dark", dark)] {
            let colours = colours(text);
            for mark in ["c0", "c1", "c2", "c3", "c4", "c5"] {
                for bg in ["bg", "soft"] {
                    let ratio = contrast(colours[mark], colours[bg]);
                    assert!(ratio >= 3.0, "{scheme}: --{mark} on --{bg} is {ratio:.2}:1, below 3:1");
                }
            }
        }
    }
}
