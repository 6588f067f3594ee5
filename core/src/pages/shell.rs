//! HTML that core writes per request (search results, forms, their confirmations and errors), into
//! the page shell the build rendered from the theme, so these pages wear the site's header,
//! navigation, language and footer like every built page.
//!
//! The shell is `templates/dynamic.html` rendered once at build time with two markers, written to
//! [`SHELL_FILE`]; its links stay root-relative (these pages exist only on a live server, at any
//! depth). Everything core puts into it is escaped here.

/// Where the build writes the shell.
pub const SHELL_FILE: &str = "_portal/page.html";

/// Where a page's title goes in the shell (inside `<title>` and nowhere else).
pub const TITLE_MARKER: &str = "<!--portal:title-->";

/// Where a page's content goes in the shell (inside `<main>`).
pub const MAIN_MARKER: &str = "<!--portal:main-->";

/// Where a page's description goes in the shell (the `description` meta element's content).
pub const DESCRIPTION_MARKER: &str = "<!--portal:description-->";

pub use crate::http::media::HTML;

use crate::content::text::escape;

/// What a page rendered per request puts into the shell.
pub struct Filling<'a> {
    /// Its title (text, escaped here).
    pub title: &'a str,
    /// Its description (text, escaped here).
    pub description: &'a str,
    /// Its content (HTML).
    pub main: &'a str,
}

impl Filling<'_> {
    /// The shell with the page in place. A shell without the markers (an old build, a theme
    /// override that dropped them) still gives a whole page.
    pub fn fill(&self, shell: &str) -> String {
        let (title, main) = (self.title, self.main);
        if !shell.contains(MAIN_MARKER) {
            return format!(
                "<!doctype html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n</head>\n<body>\n<main id=\"content\">\n{main}\n</main>\n</body>\n</html>\n",
                escape(title)
            );
        }
        shell
            .replacen(TITLE_MARKER, &escape(title), 1)
            .replacen(DESCRIPTION_MARKER, &escape(self.description), 1)
            .replacen(MAIN_MARKER, main, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_and_markers_are_filled_once() {
        assert_eq!(
            escape(r#"<a href="x">Tom & 'Jerry'</a>"#),
            "&lt;a href=&quot;x&quot;&gt;Tom &amp; &#39;Jerry&#39;&lt;/a&gt;"
        );
        let shell = format!(
            "<title>{TITLE_MARKER} · Site</title><meta content=\"{DESCRIPTION_MARKER}\"><main>{MAIN_MARKER}</main>"
        );
        let page = Filling { title: "A < B", description: "\"d\"", main: "<p>hi</p>" };
        assert_eq!(
            page.fill(&shell),
            "<title>A &lt; B · Site</title><meta content=\"&quot;d&quot;\"><main><p>hi</p></main>"
        );
        assert!(Filling { title: "T", description: "", main: "<p>x</p>" }
            .fill("<html></html>")
            .contains("<main id=\"content\">\n<p>x</p>"));
    }

    #[test]
    fn escaped_text_carries_no_control_character() {
        assert_eq!(escape("a\u{0B}b\u{0}c\u{1B}\u{9B}d\te"), "a bcd\te");
    }
}
