//! The install icons of the web app manifest (docs/offline.md#installing): the site's favicon
//! drawn at each of `ICON_SIZES`, square and centred. An SVG favicon (the built-in initial's, or
//! the site's) is rasterised with resvg; a PNG or JPEG one is scaled. resvg is built without text,
//! so the built-in icon's letter is left out of the PNGs (the SVG keeps it).

use std::io::Cursor;

use anyhow::{anyhow, Context, Result};
use image::{imageops, DynamicImage, ImageFormat, RgbaImage};

/// The PNG of `favicon` (the bytes of an SVG, PNG or JPEG file) at `size` × `size` pixels.
pub fn png(favicon: &[u8], size: u32) -> Result<Vec<u8>> {
    let square = match svg(favicon, size) {
        Some(drawn) => drawn?,
        None => scaled(favicon, size)?,
    };
    let mut out = Cursor::new(Vec::new());
    DynamicImage::ImageRgba8(square).write_to(&mut out, ImageFormat::Png).context("encoding an install icon")?;
    Ok(out.into_inner())
}

/// `favicon` drawn at `size` if it is an SVG document (`None` if it is not one).
fn svg(favicon: &[u8], size: u32) -> Option<Result<RgbaImage>> {
    let head = String::from_utf8_lossy(&favicon[..favicon.len().min(512)]).to_ascii_lowercase();
    if !head.contains("<svg") {
        return None;
    }
    Some(draw(favicon, size))
}

fn draw(favicon: &[u8], size: u32) -> Result<RgbaImage> {
    let tree = resvg::usvg::Tree::from_data(favicon, &resvg::usvg::Options::default())
        .map_err(|e| anyhow!("reading the favicon as SVG: {e}"))?;
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size, size).context("an icon of no pixels")?;
    let (width, height) = (tree.size().width(), tree.size().height());
    let scale = size as f32 / width.max(height);
    let (dx, dy) = ((size as f32 - width * scale) / 2.0, (size as f32 - height * scale) / 2.0);
    let transform = resvg::tiny_skia::Transform::from_scale(scale, scale).post_translate(dx, dy);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    let pixels: Vec<u8> = pixmap
        .pixels()
        .iter()
        .flat_map(|p| {
            let c = p.demultiply();
            [c.red(), c.green(), c.blue(), c.alpha()]
        })
        .collect();
    RgbaImage::from_raw(size, size, pixels).context("an icon of the wrong size")
}

/// A raster favicon scaled to fit `size`, centred on a transparent square.
fn scaled(favicon: &[u8], size: u32) -> Result<RgbaImage> {
    let image = image::load_from_memory(favicon).context("reading the favicon (SVG, PNG or JPEG)")?;
    let fitted = image.resize(size, size, imageops::FilterType::Lanczos3).to_rgba8();
    let mut square = RgbaImage::new(size, size);
    let (x, y) = ((size - fitted.width()) / 2, (size - fitted.height()) / 2);
    imageops::overlay(&mut square, &fitted, x.into(), y.into());
    Ok(square)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(png: &[u8]) -> RgbaImage {
        image::load_from_memory(png).map(|i| i.to_rgba8()).unwrap_or_default()
    }

    #[test]
    fn an_svg_favicon_is_drawn_at_each_size() {
        let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#0b5cad"/></svg>"##;
        for size in portal_core::content::offline::ICON_SIZES {
            let icon = decoded(&png(svg, size).unwrap_or_default());
            assert_eq!(icon.dimensions(), (size, size));
            assert_eq!(icon.get_pixel(size / 2, size / 2).0, [0x0b, 0x5c, 0xad, 255]);
        }
    }

    #[test]
    fn a_png_favicon_is_scaled_and_centred() {
        let mut wide = Cursor::new(Vec::new());
        let image = RgbaImage::from_pixel(32, 16, image::Rgba([200, 0, 0, 255]));
        let written = DynamicImage::ImageRgba8(image).write_to(&mut wide, ImageFormat::Png);
        assert!(written.is_ok());
        let icon = decoded(&png(&wide.into_inner(), 192).unwrap_or_default());
        assert_eq!(icon.dimensions(), (192, 192));
        assert_eq!(icon.get_pixel(96, 96).0, [200, 0, 0, 255]);
        assert_eq!(icon.get_pixel(96, 2).0[3], 0, "transparent above the picture");
    }

    #[test]
    fn what_is_no_picture_is_an_error() {
        assert!(png(b"hello", 192).is_err());
    }
}
