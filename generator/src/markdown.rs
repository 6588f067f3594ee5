//! Markdown to HTML with the extensions content authors expect (tables, footnotes, strikethrough,
//! task lists). Raw HTML in the source passes through here; the site's [`crate::sanitize`] policy
//! cleans it before anything is published. Table alignment becomes a class (`align-center`), since
//! pages allow no inline styles.

use pulldown_cmark::{html, Options, Parser};

/// The extensions every reader of the site's markdown uses (rendering, cleaning the twins).
pub fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS
}

/// Renders markdown to an HTML fragment.
pub fn to_html(markdown: &str) -> String {
    let mut out = String::with_capacity(markdown.len() * 3 / 2);
    html::push_html(&mut out, Parser::new_ext(markdown, options()));
    if out.contains(" style=\"text-align: ") {
        for side in ["left", "center", "right"] {
            out = out.replace(&format!(" style=\"text-align: {side}\""), &format!(" class=\"align-{side}\""));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_tables_and_headings() {
        let html = to_html("# Title\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
        assert!(html.contains("<h1>Title</h1>"));
        assert!(html.contains("<table>"));
    }
}
