//! A content page that introduces a page the site generates (see `routes::page_at`): what the
//! generated page shows of it above its own content.

use serde::{Deserialize, Serialize};

/// What a generated page shows of the content page at its URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Intro {
    /// The page's title: the generated page's heading and `<title>`.
    pub title: String,
    /// The page's summary: the generated page's description, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The page's body as HTML, rendered and cleaned like every page's.
    pub html: String,
    /// The page's body as markdown, for markdown twins.
    pub markdown: String,
}

impl Intro {
    /// `main` (a page's HTML content) introduced: its first heading replaced by the intro's
    /// title, followed by the intro's body, so what the page generates comes after.
    pub fn introduce(&self, main: &str) -> String {
        let own = format!(
            "<h1>{}</h1>\n<div class=\"intro\">\n{}</div>\n",
            crate::content::text::escape(&self.title),
            self.html
        );
        match heading_span(main) {
            Some((start, end)) => format!("{}{own}{}", &main[..start], &main[end..]),
            None => format!("{own}{main}"),
        }
    }

    /// A markdown twin introduced: its first `# ` heading replaced by the intro's title (`title`,
    /// escaped for markdown by the caller) and body.
    pub fn introduce_markdown(&self, title: &str, markdown: &str) -> String {
        let own = format!("# {title}\n\n{}\n", self.markdown.trim());
        match markdown.strip_prefix("# ") {
            Some(rest) => format!("{own}{}", rest.split_once('\n').map_or("", |(_, after)| after)),
            None => format!("{own}\n{markdown}"),
        }
    }
}

/// Where the first `<h1>...</h1>` of `html` is.
fn heading_span(html: &str) -> Option<(usize, usize)> {
    let start = html.find("<h1")?;
    let end = html[start..].find("</h1>")? + start + "</h1>".len();
    let end = if html[end..].starts_with('\n') { end + 1 } else { end };
    Some((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn intro() -> Intro {
        Intro {
            title: "Visit <us>".into(),
            summary: None,
            html: "<p>Book a tour.</p>\n".into(),
            markdown: "Book a tour.\n".into(),
        }
    }

    #[test]
    fn the_intro_takes_the_heading_and_comes_before_the_rest() {
        let html = intro().introduce("<p class=\"crumbs\">x</p>\n<h1>Book a visit</h1>\n<form></form>");
        assert_eq!(
            html,
            "<p class=\"crumbs\">x</p>\n<h1>Visit &lt;us&gt;</h1>\n<div class=\"intro\">\n<p>Book a tour.</p>\n</div>\n<form></form>"
        );
        let md = intro().introduce_markdown("Visit <us>", "# Book a visit\n\nFields: ...\n");
        assert_eq!(md, "# Visit <us>\n\nBook a tour.\n\nFields: ...\n");
        assert!(intro().introduce("<form></form>").ends_with("</div>\n<form></form>"));
    }
}
