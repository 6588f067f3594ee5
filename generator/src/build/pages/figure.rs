//! A record's own image (front matter `image`) as the templates show it: `src`, `alt`, and for a
//! local image its pixel size and resized variants (`srcset`, `sizes`). A local path naming no
//! static file shows nothing (the build warned about it).

use portal_core::content::Record;
use serde_json::{json, Value};

use crate::images::{encode_path, srcset};
use crate::load::images::ImageRef;
use crate::load::statics::{Reference, StaticFiles};
use crate::sanitize::markdown::link;

/// How wide the image of a record page is drawn: the column, or the screen on a phone.
pub const PAGE_SIZES: &str = "(min-width: 62rem) 58rem, 100vw";

/// How wide the thumbnail of a listing item is drawn (see `.thumb` in the stylesheet).
pub const THUMB_SIZES: &str = "8rem";

/// The image of `record` for a template, drawn `sizes` wide; `None` without a usable one.
pub fn image(record: &Record, statics: &StaticFiles, sizes: &str) -> Option<Value> {
    let image = ImageRef::of(&record.fields).ok()??;
    let alt = image.alt_text(record);
    match statics.resolve(&image.src) {
        Reference::Remote => Some(json!({"src": image.src, "alt": alt})),
        Reference::Local(rel, file) => {
            let mut value = json!({"src": format!("/{}", encode_path(rel)), "alt": alt});
            if let Some(size) = file.size {
                value["width"] = json!(size.width);
                value["height"] = json!(size.height);
                if let Some(set) = srcset(rel, size) {
                    value["srcset"] = json!(set);
                    value["sizes"] = json!(sizes);
                }
            }
            Some(value)
        }
        Reference::Missing(_) => None,
    }
}

/// The markdown of a record's image, for the twins: `![alt](src)`, the alt text escaped and the
/// URL under the site's URL policy (crate::sanitize).
pub fn markdown(record: &Record, statics: &StaticFiles, base: &str) -> Option<String> {
    let value = image(record, statics, PAGE_SIZES)?;
    let src = value["src"].as_str().unwrap_or("");
    let src = if src.starts_with('/') && !src.starts_with("//") { format!("{base}{src}") } else { src.to_string() };
    Some(format!("!{}", link(value["alt"].as_str().unwrap_or(""), &src)))
}
