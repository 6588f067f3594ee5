//! Images of the site: which local images get resized variants, where the variants live, how a
//! page offers them (`srcset`), and making them (decode once, resize, encode) at build time.
//!
//! A variant of `content/static/media/well.jpg` at 480 px wide is written to
//! `/_img/480/media/well.jpg`: the name is a pure function of the source path and the width, so
//! builds are reproducible and pages can name variants before they are made; `_img/` is reserved
//! (a static file may not live there), so a variant never clashes with a file of the site. Only
//! JPEG and PNG sources get variants (in their own format); other images are published as they
//! are. Images are never enlarged: a source at most 480 px wide has no variant.

use std::path::Path;

use anyhow::{anyhow, Context, Result};
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat};

/// The folder of the variants, the first segment of their URLs.
pub const VARIANTS_FOLDER: &str = "_img";

/// The widths variants are made at, narrowest first.
pub const VARIANT_WIDTHS: [u32; 2] = [480, 960];

/// The JPEG quality of variants: small files, no visible loss at these sizes.
const JPEG_QUALITY: u8 = 80;

/// Pixel size of a local image.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Size {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
}

/// The image format of a file name that variants can be made of.
fn resizable(path: &str) -> Option<ImageFormat> {
    let extension = path.rsplit_once('.')?.1.to_ascii_lowercase();
    match extension.as_str() {
        "jpg" | "jpeg" => Some(ImageFormat::Jpeg),
        "png" => Some(ImageFormat::Png),
        _ => None,
    }
}

/// The pixel size of an image file, read from its header only; `None` when it is not a JPEG or
/// PNG or cannot be read.
pub fn size_of(path: &Path) -> Option<Size> {
    resizable(&path.to_string_lossy())?;
    let (width, height) = image::image_dimensions(path).ok()?;
    Some(Size { width, height })
}

/// The widths of the variants of the static file `rel` (relative to `static/`) of `size`.
pub fn variant_widths(rel: &str, size: Option<Size>) -> Vec<u32> {
    match (resizable(rel), size) {
        (Some(_), Some(size)) => VARIANT_WIDTHS.into_iter().filter(|w| *w < size.width).collect(),
        _ => Vec::new(),
    }
}

/// The file (relative to the build folder) of the variant of `rel` at `width`.
pub fn variant_file(rel: &str, width: u32) -> String {
    format!("{VARIANTS_FOLDER}/{width}/{rel}")
}

/// The height of a variant `width` wide, keeping the source's proportions (at least 1 px).
pub fn variant_height(size: Size, width: u32) -> u32 {
    let height = (u64::from(size.height) * u64::from(width) + u64::from(size.width) / 2) / u64::from(size.width.max(1));
    u32::try_from(height).unwrap_or(u32::MAX).max(1)
}

/// The `srcset` of a local image: each variant and the source itself, by width.
pub fn srcset(rel: &str, size: Size) -> Option<String> {
    let widths = variant_widths(rel, Some(size));
    if widths.is_empty() {
        return None;
    }
    let mut candidates: Vec<String> =
        widths.iter().map(|w| format!("/{} {w}w", encode_path(&variant_file(rel, *w)))).collect();
    candidates.push(format!("/{} {}w", encode_path(rel), size.width));
    Some(candidates.join(", "))
}

/// A static file's path as a URL path (spaces and the like percent-encoded; `/` kept).
pub fn encode_path(rel: &str) -> String {
    const KEEP: &percent_encoding::AsciiSet =
        &percent_encoding::NON_ALPHANUMERIC.remove(b'/').remove(b'-').remove(b'_').remove(b'.').remove(b'~');
    percent_encoding::utf8_percent_encode(rel, KEEP).to_string()
}

/// Decodes `bytes` (a JPEG or PNG named `rel`) once and encodes every variant: (width, bytes).
pub fn make_variants(rel: &str, bytes: &[u8]) -> Result<Vec<(u32, Vec<u8>)>> {
    let format = resizable(rel).ok_or_else(|| anyhow!("{rel}: variants are made of JPEG and PNG images only"))?;
    let source = image::load_from_memory_with_format(bytes, format).with_context(|| format!("decoding {rel}"))?;
    let size = Size { width: source.width(), height: source.height() };
    variant_widths(rel, Some(size))
        .into_iter()
        .map(|width| {
            let resized = source.resize_exact(width, variant_height(size, width), FilterType::CatmullRom);
            encode(&resized, format)
                .map(|bytes| (width, bytes))
                .with_context(|| format!("encoding {rel} at {width} px"))
        })
        .collect()
}

fn encode(image: &DynamicImage, format: ImageFormat) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    match format {
        ImageFormat::Jpeg => {
            // JPEG has no alpha channel: flatten onto RGB first.
            let rgb = DynamicImage::ImageRgb8(image.to_rgb8());
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY).encode_image(&rgb)?;
        }
        _ => image.write_to(&mut std::io::Cursor::new(&mut out), ImageFormat::Png)?,
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([(x % 256) as u8, (y % 256) as u8, 90]));
        let mut out = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90)
            .encode_image(&DynamicImage::ImageRgb8(image))
            .expect("encode");
        out
    }

    #[test]
    fn variants_are_named_by_width_and_source_path() {
        assert_eq!(variant_file("media/well.jpg", 480), "_img/480/media/well.jpg");
        let size = Size { width: 1200, height: 800 };
        assert_eq!(variant_widths("media/well.jpg", Some(size)), [480, 960]);
        assert_eq!(
            srcset("media/well.jpg", size).as_deref(),
            Some("/_img/480/media/well.jpg 480w, /_img/960/media/well.jpg 960w, /media/well.jpg 1200w")
        );
        assert_eq!(variant_height(size, 480), 320);
    }

    #[test]
    fn images_are_never_enlarged_and_other_formats_get_no_variants() {
        assert_eq!(variant_widths("a.png", Some(Size { width: 700, height: 10 })), [480]);
        assert!(variant_widths("a.png", Some(Size { width: 480, height: 10 })).is_empty());
        assert!(variant_widths("a.gif", Some(Size { width: 2000, height: 10 })).is_empty());
        assert!(srcset("a.jpg", Size { width: 300, height: 200 }).is_none());
    }

    #[test]
    fn variants_have_the_right_size_and_the_same_bytes_every_time() {
        let source = jpeg(1000, 500);
        let first = make_variants("x.jpg", &source).expect("variants");
        assert_eq!(first.iter().map(|(w, _)| *w).collect::<Vec<_>>(), [480, 960]);
        let small = image::load_from_memory(&first[0].1).expect("decodes");
        assert_eq!((small.width(), small.height()), (480, 240));
        assert_eq!(make_variants("x.jpg", &source).expect("again"), first, "reproducible");
    }

    #[test]
    fn paths_with_spaces_are_encoded() {
        assert_eq!(encode_path("media/well photo.jpg"), "media/well%20photo.jpg");
    }
}
