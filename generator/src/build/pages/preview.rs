//! What a link to a page shows where it is shared (a messaging app, a social network): Open Graph
//! and Twitter card tags from the page's own title and description, its image (else the site's),
//! its address and language; and the site's icon. Added to every built page after its template
//! rendered, so a theme of the site's own gets them too.

use portal_core::content::text::escape;

use crate::load::Content;

/// Where the build writes the icon it draws when the site names none: the site's initial.
pub const ICON: &str = "/favicon.svg";

/// `html` with the preview tags after its description (or before `</head>`), for the page at `url`
/// showing `image` (a path or address, if it has one).
pub fn add(html: String, content: &Content, url: &str, image: Option<&str>) -> String {
    let site = &content.site;
    let Some(head_end) = html.find("</head>") else { return html };
    let title = between(&html, "<title>", "</title>").unwrap_or_default();
    let title = title.rsplit_once(" · ").map_or(title, |(page, _)| page);
    let description = between(&html, "<meta name=\"description\" content=\"", "\"").unwrap_or_default();
    let base = site.base();
    let absolute = |path: &str| if path.starts_with("http") { path.to_string() } else { format!("{base}{path}") };
    let image = image.map(str::to_string).or_else(|| site.image.clone()).map(|i| absolute(&i));
    let mut tags = format!(
        "<meta property=\"og:type\" content=\"{}\">\n<meta property=\"og:site_name\" content=\"{}\">\n\
         <meta property=\"og:title\" content=\"{title}\">\n<meta property=\"og:description\" content=\"{description}\">\n\
         <meta property=\"og:url\" content=\"{}\">\n<meta property=\"og:locale\" content=\"{}\">\n\
         <meta name=\"twitter:card\" content=\"{}\">\n<meta name=\"twitter:title\" content=\"{title}\">\n\
         <meta name=\"twitter:description\" content=\"{description}\">\n",
        if url == "/" { "website" } else { "article" },
        escape(&site.title),
        escape(&absolute(url)),
        escape(&site.language.replace('-', "_")),
        if image.is_some() { "summary_large_image" } else { "summary" },
    );
    if let Some(image) = image {
        let image = escape(&image);
        tags.push_str(&format!(
            "<meta property=\"og:image\" content=\"{image}\">\n<meta name=\"twitter:image\" content=\"{image}\">\n"
        ));
    }
    let at = html.find("<meta name=\"description\"").and_then(|d| html[d..].find('>').map(|e| d + e + 2));
    let at = at.filter(|at| *at <= head_end && html.is_char_boundary(*at)).unwrap_or(head_end);
    let mut out = String::with_capacity(html.len() + tags.len());
    out.push_str(&html[..at]);
    out.push_str(&tags);
    out.push_str(&html[at..]);
    out
}

/// The site's icon: site.yaml `favicon`, else [`ICON`].
pub fn icon(content: &Content) -> String {
    content.site.favicon.clone().unwrap_or_else(|| ICON.to_string())
}

/// The icon drawn when the site names none: its title's first letter on the theme's colour.
pub fn initial_icon(content: &Content) -> String {
    let letter = content
        .site
        .title
        .chars()
        .find(|c| c.is_alphanumeric())
        .map_or("·".to_string(), |c| c.to_uppercase().to_string());
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 64 64\"><rect width=\"64\" height=\"64\" rx=\"12\" \
         fill=\"{}\"/><text x=\"32\" y=\"44\" font-family=\"system-ui,sans-serif\" font-size=\"36\" font-weight=\"700\" \
         text-anchor=\"middle\" fill=\"#ffffff\">{}</text></svg>\n",
        escape(&theme_colour(content)),
        escape(&letter)
    )
}

/// The colour browsers tint their bar with: site.yaml `theme_color`, else the theme's accent.
pub fn theme_colour(content: &Content) -> String {
    content.site.theme_color.clone().unwrap_or_else(|| "#0b5cad".to_string())
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(close)? + start;
    Some(&text[start..end])
}
