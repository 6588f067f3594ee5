//! Reading `site.yaml` into the core's [`SiteConfig`], with `file:line` errors.

use std::path::Path;

use portal_core::content::did_you_mean;
use portal_core::content::{ContentError, SiteConfig};

/// Parses the text of `site.yaml`; `file` is how errors name it.
pub fn parse(file: &str, text: &str) -> Result<SiteConfig, ContentError> {
    let site = parse_syntax(file, text)?;
    let line = |key: &str| super::i18n::dotted_key_lines(text).get(key).copied().unwrap_or(1);
    if site.pagination.page_size == 0 {
        return Err(ContentError::new(file, line("pagination.page_size"), "`pagination.page_size` must be at least 1"));
    }
    if let Some(n) = site.menu.iter().position(|item| item.title.trim().is_empty() || item.url.trim().is_empty()) {
        return Err(ContentError::new(
            file,
            line("menu"),
            format!("`menu` item {} needs a non-empty `title` and `url`", n + 1),
        ));
    }
    if let Some(message) = portal_core::content::language::name_instead_of_code("language", &site.language) {
        return Err(ContentError::new(file, line("language"), message));
    }
    if let Some(Err(message)) = site.timezone.as_deref().map(super::zone::Zone::parse) {
        return Err(ContentError::new(file, line("timezone"), message));
    }
    if let Some(cms) = &site.cms {
        let at = |key: &str| Some(line(&format!("cms.{key}"))).filter(|l| *l > 1).unwrap_or_else(|| line("cms"));
        check_cms(cms).map_err(|(key, message)| ContentError::new(file, at(key), message))?;
    }
    Ok(site)
}

/// What `cms:` must say for the CMS to find the content (docs/editing.md#settings): the key at
/// fault and why.
fn check_cms(cms: &portal_core::content::Cms) -> Result<(), (&'static str, String)> {
    let segment = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    let parts: Vec<&str> = cms.repo.split('/').collect();
    if parts.len() < 2 || !parts.iter().all(|p| segment(p)) || parts.iter().any(|p| *p == "." || *p == "..") {
        let written = if cms.repo.is_empty() { "missing".to_string() } else { format!("`{}`", cms.repo) };
        return Err(("repo", format!("`cms.repo` is {written}: write the repository as `owner/name`")));
    }
    if cms.branch.trim().is_empty() || cms.branch.contains(char::is_whitespace) {
        return Err(("branch", format!("`cms.branch: {}` is not a branch name", cms.branch)));
    }
    let dir = &cms.content_dir;
    if dir.starts_with('/') || dir.contains('\\') || dir.split('/').any(|p| p == "..") {
        return Err((
            "content_dir",
            format!(
                "`cms.content_dir: {dir}` must be the content folder's path inside the repository (like `content`)"
            ),
        ));
    }
    for (key, value) in [("api_root", &cms.api_root)] {
        if value.as_deref().is_some_and(|v| !v.starts_with("https://") && !v.starts_with("http://")) {
            return Err((key, format!("`cms.{key}` must be an http(s) address")));
        }
    }
    Ok(())
}

/// The settings, their strings without control characters (`portal_core::content::text`). Read
/// twice: once as written, for errors with their lines, then as a YAML value whose strings are
/// cleaned (a `"\v"` escape writes one however clean the file is) before it becomes settings.
fn parse_syntax(file: &str, text: &str) -> Result<SiteConfig, ContentError> {
    let as_written = parse_typed(file, text)?;
    let mut value: serde_yaml::Value = match serde_yaml::from_str(text) {
        Ok(value) => value,
        Err(_) => return Ok(as_written),
    };
    super::front_matter::clean_yaml(&mut value);
    Ok(serde_yaml::from_value(value).unwrap_or(as_written))
}

fn parse_typed(file: &str, text: &str) -> Result<SiteConfig, ContentError> {
    serde_yaml::from_str::<SiteConfig>(text).map_err(|e| {
        let line = e.location().map_or(1, |l| l.line());
        let message = e.to_string();
        let message = match message.find(" at line ") {
            Some(at) => message[..at].to_string(),
            None => message,
        };
        let column = e.location().map(|l| format!(" at column {}", l.column())).unwrap_or_default();
        let message = match super::front_matter::advice(&message) {
            // A syntax error: where, and what usually causes it, as for front matter.
            Some(advice) => format!("invalid YAML{column}: {advice} ({message})"),
            None => plain_words(&message),
        };
        ContentError::new(file, line, format!("site settings: {message}"))
    })
}

/// A settings error as an editor reads it: which setting, what is wrong with it and what to
/// write, from the YAML reader's message (`pagination.page_size: invalid type: string "ten",
/// expected usize`), which says it in Rust's types.
fn plain_words(message: &str) -> String {
    let (path, what) = split_path(message);
    let setting = if path.is_empty() { String::new() } else { format!("`{path}` ") };
    let quoted = |s: &str| s.split('`').skip(1).step_by(2).map(str::to_string).collect::<Vec<_>>();
    if let Some(rest) = what.strip_prefix("unknown field ") {
        let names = quoted(rest);
        let (unknown, allowed) = names.split_first().map_or(("", &[][..]), |(u, a)| (u.as_str(), a));
        let hint = did_you_mean::nearest(unknown, allowed.iter().map(String::as_str))
            .map(|meant| format!("did you mean `{meant}`? "))
            .unwrap_or_default();
        let place = if path.is_empty() { String::new() } else { format!(" under `{path}`") };
        return format!(
            "`{unknown}` is not a setting{place}: {hint}the settings here are {}",
            allowed.iter().map(|a| format!("`{a}`")).collect::<Vec<_>>().join(", ")
        );
    }
    if let Some(rest) = what.strip_prefix("unknown variant ") {
        let names = quoted(rest);
        let (written, allowed) = names.split_first().map_or(("", &[][..]), |(w, a)| (w.as_str(), a));
        let allowed: Vec<String> = allowed.iter().map(|a| format!("`{a}`")).collect();
        return format!("{setting}cannot be `{written}`: write one of {}", allowed.join(", "));
    }
    if let Some(rest) = what.strip_prefix("missing field ") {
        let missing = quoted(rest).into_iter().next().unwrap_or_default();
        let place = if path.is_empty() { "site.yaml".to_string() } else { format!("`{path}`") };
        return format!("{place} needs `{missing}:` (it is missing)");
    }
    let Some(rest) = what.strip_prefix("invalid type: ").or_else(|| what.strip_prefix("invalid value: ")) else {
        return message.to_string();
    };
    let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
    let wanted = match expected {
        e if ["u8", "u16", "u32", "u64", "usize", "i32", "i64"].contains(&e) || e.starts_with("an integer") => {
            "a whole number"
        }
        e if e.starts_with("f32") || e.starts_with("f64") => "a number",
        e if e.contains("bool") => "true or false",
        e if e.contains("sequence") => "a list (`[a, b]`, or one `- item` a line)",
        e if e.contains("map") || e.starts_with("struct") => "a group of `key: value` lines, indented under it",
        e if e.contains("string") => "a text",
        other => other,
    };
    let found = found.replace("string ", "the text ").replace("sequence", "a list").replace("map", "a group of keys");
    format!("{setting}must be {wanted}, not {found}")
}

/// `pagination.page_size: invalid type...` as the setting's path and the rest.
fn split_path(message: &str) -> (&str, &str) {
    match message.split_once(": ") {
        Some((path, rest))
            if !path.contains(' ') && path.chars().all(|c| c.is_alphanumeric() || "._[]-".contains(c)) =>
        {
            (path, rest)
        }
        _ => ("", message),
    }
}

/// Reads and parses `site.yaml` in `content`.
pub fn load(content: &Path) -> Result<SiteConfig, ContentError> {
    let path = content.join("site.yaml");
    let file = path.display().to_string();
    if let Err(e) = std::fs::metadata(&path) {
        let message = format!("cannot read the site settings ({e}); every content folder needs a site.yaml");
        return Err(ContentError::new(&file, 1, message));
    }
    let text = super::file::read_other(&path)?;
    parse(&file, &text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_are_errors_with_their_line() {
        let err = parse("site.yaml", "title: T\ncontact:\n  email: a@example.org\n  phnoe: 1\n").expect_err("typo");
        assert_eq!(err.line, 4);
        assert!(err.message.contains("phnoe"), "{}", err.message);
    }

    #[test]
    fn errors_say_in_plain_words_what_is_wrong_with_which_setting() {
        let err = parse("site.yaml", "title: T\npagination:\n  page_size: ten\n").expect_err("a word");
        assert_eq!(err.line, 3);
        assert!(err.message.contains("`pagination.page_size` must be a whole number, not the text"), "{}", err.message);
        let err = parse("site.yaml", "title: T\ncontact:\n  emial: a@example.org\n").expect_err("a typo");
        assert_eq!(err.line, 3);
        assert!(
            err.message.contains("`emial` is not a setting under `contact`: did you mean `email`?"),
            "{}",
            err.message
        );
        let err = parse("site.yaml", "description: D\n").expect_err("no title");
        assert!(err.message.contains("needs `title:`"), "{}", err.message);
        let err = parse("site.yaml", "title: T\nmenu: /news\n").expect_err("not a list");
        assert!(err.message.contains("`menu` must be a list"), "{}", err.message);
        let err = parse("site.yaml", "title: T\ndescription: Water: the facts\n").expect_err("a colon");
        assert_eq!(err.line, 2);
        assert!(err.message.contains("a `:` inside a value needs quotes"), "{}", err.message);
        let err = parse("site.yaml", "title: T\nlanguage: swahili\n").expect_err("a name");
        assert_eq!(err.line, 2);
        assert!(err.message.contains("`language: sw`"), "{}", err.message);
    }

    #[test]
    fn no_setting_keeps_a_control_character() {
        let site =
            parse("site.yaml", "title: \"Camp\\vnews\\x07\"\nmenu:\n  - {title: \"A\\0B\", url: /a}\n").expect("valid");
        assert_eq!((site.title.as_str(), site.menu[0].title.as_str()), ("Camp news", "AB"));
    }

    #[test]
    fn defaults_fill_what_is_absent() {
        let site = parse("site.yaml", "title: T\n").expect("valid");
        assert_eq!(site.rss.items, 20);
        assert_eq!(site.upstreams.timeout_ms, 3000);
        assert_eq!(site.upstreams.cache_seconds, 300);
        assert_eq!(site.language, "en");
        assert_eq!(site.pagination.page_size, 20);
        assert!(site.menu.is_empty());
    }

    #[test]
    fn a_menu_and_pagination_are_read_and_checked() {
        let site = parse("site.yaml", "title: T\nmenu:\n  - {title: News, url: /news}\npagination:\n  page_size: 5\n")
            .expect("valid");
        assert_eq!((site.menu[0].url.as_str(), site.pagination.page_size), ("/news", 5));
        let err = parse("site.yaml", "title: T\npagination:\n  page_size: 0\n").expect_err("zero");
        assert_eq!(err.line, 3);
        let err = parse("site.yaml", "title: T\nmenu:\n  - {title: News}\n").expect_err("no url");
        assert!(err.message.contains("url"), "{}", err.message);
    }
}
