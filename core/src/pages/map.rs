//! The map of places (docs/content.md#places-and-the-map): the published features of `spatial/`
//! as places with page-safe ids, and drawn as an SVG at build time, no script and no tiles.
//!
//! Places are projected equirectangularly within their bounding box, longitudes scaled by the
//! cosine of the box's middle latitude so that shapes near the equator and away from it keep their
//! proportions (good enough for a settlement or a district; no map of a continent is drawn here).
//! Every category has a colour of the theme (`.map-c<n>` classes in `style.css`, which hold
//! contrast in the light and the dark scheme) and a marker shape or line pattern of its own, so no
//! reader needs to tell colours apart; the legend and the list under the map name them. Polygons
//! of zones (category `zone` or `boundary`) carry their zone's name.
//!
//! A feature that cannot be drawn (no geometry, coordinates out of range or not numbers, nesting
//! past [`MAX_DEPTH`]) still gets its page; only what cannot be drawn is left out, with a warning.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde_json::{Map, Value};

use crate::content::taxonomy::slug;
use crate::content::text::escape;
use crate::queries::spatial::representative_point;

/// How many colours (and marker shapes) the theme has for categories; further ones repeat them
/// with another line pattern.
pub const COLOURS: usize = 8;

/// How deep geometry collections may nest before the rest is left out.
pub const MAX_DEPTH: usize = 4;

/// The longest id slug a place's URL takes.
pub const MAX_ID_CHARS: usize = 80;

/// Categories whose polygons are zones: they are labelled with the zone's name.
pub const ZONE_CATEGORIES: [&str; 2] = ["zone", "boundary"];

/// A `(longitude, latitude)` in degrees.
pub type Position = (f64, f64);

/// What of a geometry is drawn.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    /// A marker.
    Point(Position),
    /// A line through the positions.
    Line(Vec<Position>),
    /// A polygon: its outer ring, then its holes.
    Polygon(Vec<Vec<Position>>),
}

/// One position of GeoJSON, checked: numbers, finite, within WGS 84's ranges.
fn position(value: &Value) -> Result<Position, String> {
    let lon = value.get(0).and_then(Value::as_f64);
    let lat = value.get(1).and_then(Value::as_f64);
    match (lon, lat) {
        (Some(lon), Some(lat)) if (-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat) => Ok((lon, lat)),
        _ => Err(format!("the position {} is not a longitude and latitude in range", short_json(value))),
    }
}

/// A list of positions.
fn positions(value: &Value) -> Result<Vec<Position>, String> {
    value.as_array().ok_or("positions must be a list")?.iter().map(position).collect()
}

/// A list of lists of positions (a polygon's rings, a multi-line's lines).
fn rings(value: &Value) -> Result<Vec<Vec<Position>>, String> {
    value.as_array().ok_or("rings must be a list")?.iter().map(positions).collect()
}

/// A JSON value in at most 40 characters, for warnings.
fn short_json(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// The parts of a GeoJSON geometry; an error says what cannot be drawn.
pub fn parts(geometry: &Value) -> Result<Vec<Part>, String> {
    parts_at(geometry, 0)
}

fn parts_at(geometry: &Value, depth: usize) -> Result<Vec<Part>, String> {
    if geometry.is_null() {
        return Err("it has no geometry".into());
    }
    let coordinates = &geometry["coordinates"];
    let kind = geometry["type"].as_str().unwrap_or_default();
    Ok(match kind {
        "Point" => vec![Part::Point(position(coordinates)?)],
        "MultiPoint" => positions(coordinates)?.into_iter().map(Part::Point).collect(),
        "LineString" => vec![Part::Line(positions(coordinates)?)],
        "MultiLineString" => rings(coordinates)?.into_iter().map(Part::Line).collect(),
        "Polygon" => vec![Part::Polygon(rings(coordinates)?)],
        "MultiPolygon" => {
            let polygons = coordinates.as_array().ok_or("polygons must be a list")?;
            polygons.iter().map(|p| rings(p).map(Part::Polygon)).collect::<Result<_, _>>()?
        }
        "GeometryCollection" if depth < MAX_DEPTH => {
            let members = geometry["geometries"].as_array().ok_or("`geometries` must be a list")?;
            let mut all = Vec::new();
            for member in members {
                all.extend(parts_at(member, depth + 1)?);
            }
            all
        }
        "GeometryCollection" => return Err(format!("geometry collections nest deeper than {MAX_DEPTH}")),
        other => {
            return Err(format!("`{}` is not a GeoJSON geometry type", other.chars().take(40).collect::<String>()))
        }
    })
}

/// A published place: a feature of `spatial/` as its page shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    /// Its page's last segment (`/places/<id>`): a slug of its id, unique among places.
    pub id: String,
    /// The id as the data gives it (text).
    pub source_id: String,
    /// Its name (the id when it has none).
    pub name: String,
    /// Its category as written, if any.
    pub category: Option<String>,
    /// Its zone as written, if any.
    pub zone: Option<String>,
    /// The register (file stem of `spatial/`) it comes from: its OGC collection.
    pub register: String,
    /// Every property, in the data's order, as the data gives it (its page says each in words).
    pub properties: Map<String, Value>,
    /// What of it can be drawn (empty when nothing can).
    pub parts: Vec<Part>,
    /// Where its markers, links to map apps and small map centre.
    pub point: Option<Position>,
}

/// Text of a property value for people: strings as they are, lists joined, objects as JSON.
pub fn text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        Value::String(s) => s.clone(),
        Value::Array(items) => items.iter().map(text).filter(|t| !t.is_empty()).collect::<Vec<_>>().join(", "),
        Value::Object(_) => value.to_string(),
        other => other.to_string(),
    }
}

/// A non-empty text property.
fn field(properties: &Value, key: &str) -> Option<String> {
    let value = text(&properties[key]);
    let value = value.trim();
    (!value.is_empty() && !properties[key].is_object()).then(|| value.to_string())
}

/// A feature left off the map: its file and what the warning says (naming the feature).
pub type Warning = (String, String);

/// The places of the registers' features (`(file, register, features)`), in order, and a warning
/// for each feature that cannot be drawn. Ids are slugs of the features' ids; a second place with
/// the same slug gets `-2`, a third `-3`.
pub fn places(registers: &[(&str, &str, &[Value])]) -> (Vec<Place>, Vec<Warning>) {
    let mut out: Vec<Place> = Vec::new();
    let mut warnings = Vec::new();
    let mut taken = BTreeSet::new();
    for (file, register, features) in registers {
        for (index, feature) in features.iter().enumerate() {
            let properties = if feature["properties"].is_object() { &feature["properties"] } else { &Value::Null };
            let source_id = field(properties, "id")
                .or_else(|| Some(text(&feature["id"])).filter(|t| !t.is_empty()))
                .unwrap_or_else(|| format!("{register}-{}", index + 1));
            let name = field(properties, "name").or_else(|| field(properties, "title")).unwrap_or(source_id.clone());
            let (parts, point) = match parts(&feature["geometry"]) {
                Ok(parts) => (parts, representative_point(&feature["geometry"]).filter(|p| in_range(*p))),
                Err(why) => {
                    let feature = format!("feature {} ({})", index + 1, short(&source_id));
                    warnings.push((file.to_string(), format!("{feature} is not on the map: {why}")));
                    (Vec::new(), None)
                }
            };
            let listed = properties.as_object().cloned().unwrap_or_default();
            out.push(Place {
                id: unique(&source_id, &mut taken),
                source_id,
                name,
                category: field(properties, "category"),
                zone: field(properties, "zone"),
                register: register.to_string(),
                properties: listed,
                parts,
                point,
            });
        }
    }
    (out, warnings)
}

/// A text in at most 40 characters, for warnings.
fn short(text: &str) -> String {
    short_json(&Value::String(text.to_string()))
}

fn in_range((lon, lat): Position) -> bool {
    (-180.0..=180.0).contains(&lon) && (-90.0..=90.0).contains(&lat)
}

/// A slug of `id` no place took yet.
fn unique(id: &str, taken: &mut BTreeSet<String>) -> String {
    let mut base: String = slug(id).chars().take(MAX_ID_CHARS).collect();
    base = base.trim_end_matches('-').to_string();
    if base.is_empty() {
        base = "place".into();
    }
    let mut candidate = base.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{base}-{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

/// The categories of `places` (their slugs and names as written), in name order, each with its
/// style number; places without one are under `None`.
pub fn categories(places: &[Place]) -> BTreeMap<String, String> {
    by_slug(places, |place| place.category.as_ref())
}

/// The zones of `places` (slug to name as written).
pub fn zones(places: &[Place]) -> BTreeMap<String, String> {
    by_slug(places, |place| place.zone.as_ref())
}

/// The names `name` gives `places`, by slug (the first spelling of each; names with no slug left out).
fn by_slug<'a>(places: &'a [Place], name: impl Fn(&'a Place) -> Option<&'a String>) -> BTreeMap<String, String> {
    let mut all = BTreeMap::new();
    for written in places.iter().filter_map(name) {
        let key = slug(written);
        if !key.is_empty() {
            all.entry(key).or_insert_with(|| written.clone());
        }
    }
    all
}

/// A box of longitudes and latitudes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// West, south, east, north.
    pub west: f64,
    /// South.
    pub south: f64,
    /// East.
    pub east: f64,
    /// North.
    pub north: f64,
}

impl Bounds {
    /// The box around every position of `parts`, widened by `margin` of its size on each side
    /// and to at least `least` degrees, so a lone point sits in some surroundings.
    pub fn around<'a>(parts: impl Iterator<Item = &'a Part>, margin: f64, least: f64) -> Option<Bounds> {
        let mut bounds: Option<Bounds> = None;
        let mut add = |(lon, lat): Position| {
            let b = bounds.get_or_insert(Bounds { west: lon, south: lat, east: lon, north: lat });
            b.west = b.west.min(lon);
            b.east = b.east.max(lon);
            b.south = b.south.min(lat);
            b.north = b.north.max(lat);
        };
        for part in parts {
            match part {
                Part::Point(p) => add(*p),
                Part::Line(line) => line.iter().copied().for_each(&mut add),
                Part::Polygon(rings) => rings.iter().flatten().copied().for_each(&mut add),
            }
        }
        let b = bounds?;
        let widen = |low: f64, high: f64| {
            let pad = ((high - low) * margin).max((least - (high - low)).max(0.0) / 2.0);
            (low - pad, high + pad)
        };
        let (west, east) = widen(b.west, b.east);
        let (south, north) = widen(b.south, b.north);
        Some(Bounds { west, south: south.max(-90.0), east, north: north.min(90.0) })
    }
}

/// Longitude and latitude to the SVG's pixels: equirectangular within [`Bounds`], longitudes
/// scaled by the cosine of the middle latitude.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Projection {
    bounds: Bounds,
    scale: f64,
    cos: f64,
    /// The drawing's width.
    pub width: f64,
    /// Its height.
    pub height: f64,
}

impl Projection {
    /// The projection of `bounds` into `width` pixels, its height following the box's shape
    /// between a third of the width and the width.
    pub fn new(bounds: Bounds, width: f64) -> Projection {
        let cos = ((bounds.north + bounds.south) / 2.0).to_radians().cos().max(0.01);
        let span_x = ((bounds.east - bounds.west) * cos).max(1e-9);
        let span_y = (bounds.north - bounds.south).max(1e-9);
        let height = (width * span_y / span_x).clamp(width / 3.0, width);
        let scale = (width / span_x).min(height / span_y);
        Projection { bounds, scale, cos, width, height }
    }

    /// Where a position is drawn (centred in the drawing).
    pub fn project(&self, (lon, lat): Position) -> (f64, f64) {
        let span_x = (self.bounds.east - self.bounds.west) * self.cos * self.scale;
        let span_y = (self.bounds.north - self.bounds.south) * self.scale;
        let x = (lon - self.bounds.west) * self.cos * self.scale + (self.width - span_x) / 2.0;
        let y = (self.bounds.north - lat) * self.scale + (self.height - span_y) / 2.0;
        (x, y)
    }
}

/// The style number of each of `categories` (slugs, in order): a category people know by a sign
/// gets the shape of that sign (health the cross, never anything else), the others the shapes
/// left in order, so a water point is never drawn as a health cross.
pub fn style_numbers(categories: &[&str]) -> Vec<usize> {
    /// Words of a category's slug and the shape (index of [`SHAPES`]) it takes.
    const SIGNS: &[(&[&str], usize)] = &[
        (&["health", "medical", "clinic", "hospital", "pharmacy", "first-aid"], 4),
        (&["water", "borehole", "tap", "well", "wash", "spring"], 0),
        (&["school", "education", "learning"], 1),
        (&["market", "shop", "store", "trade"], 3),
    ];
    let sign = |slug: &str| {
        SIGNS.iter().find(|(words, _)| words.iter().any(|w| slug.split('-').any(|part| part == *w))).map(|(_, n)| *n)
    };
    let mut taken = BTreeSet::new();
    let mut numbers: Vec<Option<usize>> = categories.iter().map(|c| sign(c).filter(|n| taken.insert(*n))).collect();
    // The cross is health's alone, in every round of colours.
    let mut next = (0..).filter(|n: &usize| n % COLOURS != 4 && !(*n < COLOURS && taken.contains(n)));
    for number in numbers.iter_mut().filter(|n| n.is_none()) {
        *number = next.next();
    }
    numbers.into_iter().map(|n| n.unwrap_or(0)).collect()
}

/// The marker shapes, one per colour: the shape of category `n` is `SHAPES[n % COLOURS]`.
pub const SHAPES: [&str; COLOURS] = ["circle", "square", "triangle", "diamond", "plus", "down", "hexagon", "star"];

/// The SVG path of a marker `shape` centred at `(x, y)`, about 12 px across.
pub fn marker(shape: &str, x: f64, y: f64) -> String {
    let p = |dx: f64, dy: f64| format!("{:.1} {:.1}", x + dx, y + dy);
    match shape {
        "square" => format!("M{}H{:.1}V{:.1}H{:.1}Z", p(-5.0, -5.0), x + 5.0, y + 5.0, x - 5.0),
        "triangle" => format!("M{}L{}L{}Z", p(0.0, -6.5), p(6.0, 4.5), p(-6.0, 4.5)),
        "diamond" => format!("M{}L{}L{}L{}Z", p(0.0, -6.5), p(6.5, 0.0), p(0.0, 6.5), p(-6.5, 0.0)),
        "plus" => format!("M{}h4v-5h4v5h4v4h-4v5h-4v-5h-4Z", p(-6.0, -2.0)),
        "down" => format!("M{}L{}L{}Z", p(0.0, 6.5), p(6.0, -4.5), p(-6.0, -4.5)),
        "hexagon" => format!(
            "M{}L{}L{}L{}L{}L{}Z",
            p(-3.0, -5.5),
            p(3.0, -5.5),
            p(6.0, 0.0),
            p(3.0, 5.5),
            p(-3.0, 5.5),
            p(-6.0, 0.0)
        ),
        "star" => format!(
            "M{}L{}L{}L{}L{}L{}L{}L{}Z",
            p(0.0, -7.0),
            p(2.0, -2.0),
            p(7.0, 0.0),
            p(2.0, 2.0),
            p(0.0, 7.0),
            p(-2.0, 2.0),
            p(-7.0, 0.0),
            p(-2.0, -2.0)
        ),
        _ => format!("M{}a5 5 0 1 0 10 0a5 5 0 1 0 -10 0Z", p(-5.0, 0.0)),
    }
}

/// The line patterns of categories past the colours (the first round is solid).
const DASHES: [&str; 3] = ["", "8 4", "2 4"];

/// What one drawn place is given.
#[derive(Debug, Clone, Copy)]
pub struct Drawn<'a> {
    /// The place.
    pub place: &'a Place,
    /// Its category's style number (see [`COLOURS`]).
    pub style: usize,
    /// Drawn faintly: a neighbour on a place's own small map.
    pub faint: bool,
    /// How its zone is called, when it is a zone's polygon (else the zone as the data writes it).
    pub zone_label: Option<&'a str>,
}

/// The map of `drawn` places within `projection` as an SVG element named `title`, with
/// `description` for those who cannot see it (the list under the map has the same places).
pub fn svg(drawn: &[Drawn<'_>], projection: &Projection, title: &str, description: &str, id: &str) -> String {
    let (w, h) = (projection.width, projection.height);
    // Markers are links, which a drawing with the role of an image would hide from assistive
    // technology: a map with markers is a group of them.
    let has_markers = drawn.iter().any(|d| d.place.parts.iter().any(|p| matches!(p, Part::Point(_))));
    let role = if has_markers { "group" } else { "img" };
    let mut out = format!(
        "<svg class=\"map\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"{role}\" aria-labelledby=\"{id}-title {id}-desc\">\n\
         <title id=\"{id}-title\">{}</title>\n<desc id=\"{id}-desc\">{}</desc>\n\
         <rect class=\"map-ground\" width=\"{w:.0}\" height=\"{h:.0}\"/>\n",
        escape(title),
        escape(description)
    );
    // Areas under lines under the markers' touch targets under markers, so nothing hides a marker.
    for layer in 0..4 {
        for d in drawn {
            for part in &d.place.parts {
                out.push_str(&draw(part, layer, d, projection));
            }
        }
    }
    out.push_str(&zone_labels(drawn, projection));
    out.push_str("</svg>\n");
    out
}

/// The classes and line pattern of style `n`: the colour moves on by one each round of
/// [`COLOURS`], so colour and shape never pair twice (up to 64 categories); markers of odd rounds
/// are hollow and lines and areas of later rounds dashed, so two categories of one shape differ by
/// more than colour.
fn style(n: usize) -> (String, &'static str) {
    let round = n / COLOURS;
    let mut class = format!("map-c{}", (n % COLOURS + round) % COLOURS);
    if round % 2 == 1 {
        class.push_str(" map-hollow");
    }
    (class, DASHES[round % DASHES.len()])
}

/// A list of projected points as SVG path data, points that land on the same tenth of a pixel
/// as the one before dropped (a long line of a big file stays small).
fn path(points: &[Position], projection: &Projection, close: bool) -> String {
    let mut data = String::new();
    let mut last = String::new();
    for (i, p) in points.iter().enumerate() {
        let (x, y) = projection.project(*p);
        let here = format!("{x:.1} {y:.1}");
        if here != last {
            data.push(if i == 0 { 'M' } else { 'L' });
            data.push_str(&here);
            last = here;
        }
    }
    if close && !data.is_empty() {
        data.push('Z');
    }
    data
}

/// One part of a drawn place on `layer` (0 areas, 1 lines, 2 markers' touch targets, 3
/// markers); nothing when the part is on another.
fn draw(part: &Part, layer: usize, drawn: &Drawn<'_>, projection: &Projection) -> String {
    let n = drawn.style;
    let (class, dash) = style(n);
    let faint = if drawn.faint { " opacity=\".35\"" } else { "" };
    let extra = match dash {
        "" => faint.to_string(),
        dash => format!(" stroke-dasharray=\"{dash}\"{faint}"),
    };
    match (part, layer) {
        (Part::Polygon(rings), 0) => {
            let data: String = rings.iter().map(|r| path(r, projection, true)).collect();
            if data.is_empty() {
                return String::new();
            }
            format!("<path class=\"{class} map-area\" d=\"{data}\"{extra}/>\n")
        }
        (Part::Line(line), 1) if line.len() > 1 => {
            format!("<path class=\"{class} map-line\" d=\"{}\"{extra}/>\n", path(line, projection, false))
        }
        (Part::Point(p), 2) => {
            // A target larger than the marker for a finger, under every marker (so it never takes
            // a tap from a neighbour's marker), and out of the keyboard's and the reader's way: the
            // marker's own link is the one they reach.
            let (x, y) = projection.project(*p);
            format!(
                "<a href=\"/places/{}\" tabindex=\"-1\" aria-hidden=\"true\"><circle class=\"map-hit\" \
                 cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"11\"/></a>\n",
                escape(&drawn.place.id)
            )
        }
        (Part::Point(p), 3) => {
            // Each marker is a link to its place's page, named by the place.
            let (x, y) = projection.project(*p);
            let place = drawn.place;
            format!(
                "<a href=\"/places/{}\" aria-label=\"{}\"><path class=\"{class} map-marker\" d=\"{}\"{faint}/></a>\n",
                escape(&place.id),
                escape(&place.name),
                marker(SHAPES[n % COLOURS], x, y)
            )
        }
        _ => String::new(),
    }
}

/// The names of zones, written on their polygons where they cover no marker and no other name:
/// at the polygon's point, else moved up or down, left or right by steps; a name that finds no
/// free place is left off (the list under the map names every zone).
fn zone_labels(drawn: &[Drawn<'_>], projection: &Projection) -> String {
    let markers: Vec<(f64, f64)> = drawn
        .iter()
        .flat_map(|d| &d.place.parts)
        .filter_map(|p| match p {
            Part::Point(p) => Some(projection.project(*p)),
            _ => None,
        })
        .collect();
    let mut placed: Vec<[f64; 4]> = Vec::new();
    let mut out = String::new();
    for d in drawn {
        let place = d.place;
        let is_zone = place.category.as_deref().is_some_and(|c| ZONE_CATEGORIES.contains(&slug(c).as_str()));
        let has_area = place.parts.iter().any(|p| matches!(p, Part::Polygon(_)));
        let (Some(point), true) = (place.point, is_zone && has_area) else { continue };
        let name = d.zone_label.or(place.zone.as_deref()).unwrap_or(&place.name);
        let Some((x, y, bounds)) = label_spot(projection.project(point), name, &markers, &placed, projection) else {
            continue;
        };
        placed.push(bounds);
        let _ = writeln!(
            out,
            "<text class=\"map-label\" x=\"{x:.1}\" y=\"{y:.1}\" text-anchor=\"middle\">{}</text>",
            escape(name)
        );
    }
    out
}

/// Where a label `name` near `(x, y)` covers no marker (with room for its size) nor a placed
/// label and stays inside the drawing: its baseline's middle and its box.
fn label_spot(
    (x, y): (f64, f64),
    name: &str,
    markers: &[(f64, f64)],
    placed: &[[f64; 4]],
    projection: &Projection,
) -> Option<(f64, f64, [f64; 4])> {
    // The label's font is 16 px bold: about 9.5 px a character, 12 px above the baseline, 4 below.
    let half = name.chars().count() as f64 * 4.75 + 3.0;
    const CLEAR: f64 = 8.0;
    let steps = [0.0, -20.0, 20.0, -40.0, 40.0, -60.0, 60.0];
    let shifts = [0.0, -(half + CLEAR), half + CLEAR];
    for dy in steps {
        for dx in shifts {
            let (cx, cy) = (x + dx, y + dy);
            let bounds = [cx - half, cy - 13.0, cx + half, cy + 4.0];
            let inside =
                bounds[0] >= 0.0 && bounds[1] >= 0.0 && bounds[2] <= projection.width && bounds[3] <= projection.height;
            let covers = |(mx, my): &(f64, f64)| {
                *mx > bounds[0] - CLEAR && *mx < bounds[2] + CLEAR && *my > bounds[1] - CLEAR && *my < bounds[3] + CLEAR
            };
            let overlaps = |b: &[f64; 4]| b[0] < bounds[2] && bounds[0] < b[2] && b[1] < bounds[3] && bounds[1] < b[3];
            if inside && !markers.iter().any(covers) && !placed.iter().any(overlaps) {
                return Some((cx, cy, bounds));
            }
        }
    }
    None
}

/// A small legend swatch of style `n` as an inline SVG, drawn as the category is on the map: its
/// marker, its line or its area (of the first place that can be drawn among `places`).
pub fn swatch<'a>(n: usize, mut places: impl Iterator<Item = &'a Place>) -> String {
    let (class, dash) = style(n);
    let dash = if dash.is_empty() { String::new() } else { format!(" stroke-dasharray=\"{dash}\"") };
    let shape = match places.find_map(|p| p.parts.first()) {
        Some(Part::Line(_)) => format!("<path class=\"{class} map-line\" d=\"M1 12L6 5L10 10L15 3\"{dash}/>"),
        Some(Part::Polygon(_)) => format!("<path class=\"{class} map-area\" d=\"M2 3H14V13H2Z\"{dash}/>"),
        _ => format!("<path class=\"{class} map-marker\" d=\"{}\"/>", marker(SHAPES[n % COLOURS], 8.0, 8.0)),
    };
    format!("<svg class=\"swatch\" viewBox=\"0 0 16 16\" width=\"16\" height=\"16\" aria-hidden=\"true\">{shape}</svg>")
}

/// `geo:` URI of a position (RFC 5870), which phones open in their map app.
pub fn geo_uri((lon, lat): Position) -> String {
    format!("geo:{},{}", crate::queries::spatial::coordinate(lat), crate::queries::spatial::coordinate(lon))
}

/// The OpenStreetMap page of a position, zoomed in on it.
pub fn osm_url((lon, lat): Position) -> String {
    let (lat, lon) = (crate::queries::spatial::coordinate(lat), crate::queries::spatial::coordinate(lon));
    format!("https://www.openstreetmap.org/?mlat={lat}&mlon={lon}#map=17/{lat}/{lon}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn feature(properties: Value, geometry: Value) -> Value {
        json!({"type": "Feature", "properties": properties, "geometry": geometry})
    }

    #[test]
    fn the_projection_keeps_north_up_and_scales_longitudes_by_latitude() {
        let bounds = Bounds { west: 30.0, south: 59.0, east: 32.0, north: 61.0 };
        let projection = Projection::new(bounds, 600.0);
        // At 60°N a degree of longitude is half a degree of latitude: the box is twice as tall.
        assert!((projection.height - 600.0).abs() < 1e-6, "{projection:?}");
        let (x0, y0) = projection.project((30.0, 61.0));
        let (x1, y1) = projection.project((32.0, 59.0));
        assert!((y0 - 0.0).abs() < 1e-6 && (y1 - 600.0).abs() < 1e-6, "{y0} {y1}");
        assert!((x1 - x0 - 300.0).abs() < 1e-3 && (x0 - 150.0).abs() < 1e-3, "{x0} {x1}");
    }

    #[test]
    fn a_lone_point_gets_surroundings_and_sits_in_the_middle() {
        let part = Part::Point((30.8, -1.3));
        let bounds = Bounds::around(std::iter::once(&part), 0.1, 0.01).expect("bounds");
        assert!((bounds.east - bounds.west - 0.01).abs() < 1e-9);
        let projection = Projection::new(bounds, 300.0);
        let (x, y) = projection.project((30.8, -1.3));
        assert!((x - 150.0).abs() < 1e-6 && (y - projection.height / 2.0).abs() < 1e-6);
    }

    #[test]
    fn every_geometry_type_is_drawn_and_odd_ones_are_refused_with_a_reason() {
        let multi = json!({"type": "MultiPolygon", "coordinates": [[[[30, 1], [31, 1], [31, 2], [30, 1]]], [[[32, 1], [33, 1], [33, 2], [32, 1]]]]});
        assert_eq!(parts(&multi).map(|p| p.len()), Ok(2));
        let collection = json!({"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [30, 1]}, {"type": "LineString", "coordinates": [[30, 1], [31, 2]]}]});
        assert_eq!(parts(&collection).map(|p| p.len()), Ok(2));
        assert!(parts(&json!(null)).expect_err("null").contains("no geometry"));
        assert!(parts(&json!({"type": "Point", "coordinates": [1e300, 5]}))
            .expect_err("huge")
            .contains("not a longitude"));
        assert!(parts(&json!({"type": "Point", "coordinates": ["a", 5]})).is_err());
        assert!(parts(&json!({"type": "Blob"})).expect_err("type").contains("Blob"));
        let mut deep = json!({"type": "Point", "coordinates": [0, 0]});
        for _ in 0..10 {
            deep = json!({"type": "GeometryCollection", "geometries": [deep]});
        }
        assert!(parts(&deep).expect_err("deep").contains("nest"));
    }

    #[test]
    fn places_get_unique_safe_ids_and_hostile_features_only_warn() {
        let features = vec![
            feature(
                json!({"id": "Bh 1", "name": "<script>alert(1)</script>", "category": "Water"}),
                json!({"type": "Point", "coordinates": [30, 1]}),
            ),
            feature(json!({"id": "bh-1"}), json!(null)),
            feature(json!(null), json!({"type": "Point", "coordinates": [30, 1]})),
            feature(json!({"id": "../../etc"}), json!({"type": "Point", "coordinates": [400, 1]})),
            feature(json!({"id": "!!!"}), json!({"type": "Point", "coordinates": [30, 1]})),
        ];
        let (places, warnings) = places(&[("spatial/p.geojson", "p", &features)]);
        let ids: Vec<&str> = places.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["bh-1", "bh-1-2", "p-3", "etc", "place"]);
        assert_eq!(warnings.len(), 2, "{warnings:?}");
        assert_eq!(warnings[0].0, "spatial/p.geojson");
        assert!(
            warnings[0].1.starts_with("feature 2 (\"bh-1\") is not on the map: it has no geometry"),
            "{warnings:?}"
        );
        assert!(places[1].parts.is_empty() && places[1].point.is_none());
        assert_eq!(places[0].category.as_deref(), Some("Water"));
        let projection = Projection::new(Bounds { west: 29.0, south: 0.0, east: 31.0, north: 2.0 }, 200.0);
        let drawn: Vec<Drawn> =
            places.iter().map(|place| Drawn { place, style: 0, faint: false, zone_label: None }).collect();
        let svg = svg(&drawn, &projection, "Map <of> places", "d", "m");
        assert!(!svg.contains("<script") && svg.contains("Map &lt;of&gt; places"), "{svg}");
        assert_eq!(svg.matches("map-marker").count(), 3, "{svg}");
    }

    #[test]
    fn zones_are_labelled_and_categories_differ_by_shape_and_pattern() {
        let zone = feature(
            json!({"name": "Zone A boundary", "category": "boundary", "zone": "Zone <A>"}),
            json!({"type": "Polygon", "coordinates": [[[30, 1], [31, 1], [31, 2], [30, 2], [30, 1]]]}),
        );
        let road =
            feature(json!({"category": "road"}), json!({"type": "LineString", "coordinates": [[30, 1], [31, 2]]}));
        let features = [zone, road];
        let (places, _) = places(&[("f", "r", &features)]);
        let projection = Projection::new(Bounds { west: 29.0, south: 0.0, east: 32.0, north: 3.0 }, 300.0);
        let drawn = [
            Drawn { place: &places[0], style: 0, faint: true, zone_label: None },
            Drawn { place: &places[1], style: COLOURS + 1, faint: false, zone_label: None },
        ];
        let svg = svg(&drawn, &projection, "t", "d", "m");
        assert!(svg.contains(">Zone &lt;A&gt;</text>"), "{svg}");
        assert!(
            svg.contains("class=\"map-c2 map-hollow map-line\"") && svg.contains("stroke-dasharray=\"8 4\""),
            "{svg}"
        );
        assert!(svg.contains("class=\"map-c0 map-area\" d=\"M") && svg.contains("opacity=\".35\"/>"), "{svg}");
        assert_ne!(marker(SHAPES[0], 0.0, 0.0), marker(SHAPES[1], 0.0, 0.0));
        assert_eq!(categories(&places).keys().collect::<Vec<_>>(), ["boundary", "road"]);
        assert!(swatch(1, places[1..].iter()).contains("map-line"), "a line's category has a line in the legend");
        assert!(swatch(0, places[..1].iter()).contains("map-area"));
        assert!(swatch(2, std::iter::empty()).contains("map-marker"));
    }

    #[test]
    fn health_alone_is_a_cross_and_signs_come_before_the_order_of_names() {
        let shape = |cats: &[&str]| -> Vec<&str> { style_numbers(cats).iter().map(|n| SHAPES[n % COLOURS]).collect() };
        assert_eq!(shape(&["clinic", "water-point"]), ["plus", "circle"]);
        let many = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "water"];
        let shapes = shape(&many);
        assert!(!shapes.contains(&"plus"), "no health category, no cross: {shapes:?}");
        assert_eq!(shapes.last(), Some(&"circle"));
        let numbers = style_numbers(&many);
        let distinct: BTreeSet<&usize> = numbers.iter().collect();
        assert_eq!(distinct.len(), numbers.len(), "every category a style of its own: {numbers:?}");
    }

    #[test]
    fn markers_are_named_links_and_labels_leave_them_uncovered() {
        let zone = feature(
            json!({"name": "Zone A boundary", "category": "boundary", "zone": "Zone A"}),
            json!({"type": "Polygon", "coordinates": [[[30, 1], [31, 1], [31, 2], [30, 2], [30, 1]]]}),
        );
        // A marker exactly where the zone's name would go.
        let well = feature(
            json!({"id": "w-1", "name": "Well <1>", "category": "water"}),
            json!({"type": "Point", "coordinates": [30.5, 1.5]}),
        );
        let features = [zone, well];
        let (places, _) = places(&[("f", "r", &features)]);
        let projection = Projection::new(Bounds { west: 29.0, south: 0.0, east: 32.0, north: 3.0 }, 300.0);
        let drawn: Vec<Drawn> =
            places.iter().map(|p| Drawn { place: p, style: 0, faint: false, zone_label: None }).collect();
        let svg = svg(&drawn, &projection, "t", "d", "m");
        assert!(svg.contains("role=\"group\""), "{svg}");
        assert!(
            svg.contains("<a href=\"/places/w-1\" aria-label=\"Well &lt;1&gt;\"><path class=\"map-c0 map-marker\""),
            "{svg}"
        );
        let (mx, my) = projection.project(places[1].point.expect("a point"));
        let label_y: f64 = svg
            .split("class=\"map-label\" x=\"")
            .nth(1)
            .and_then(|t| t.split("y=\"").nth(1))
            .and_then(|t| t.split('"').next())
            .and_then(|t| t.parse().ok())
            .expect("a label");
        let label_x: f64 = svg
            .split("class=\"map-label\" x=\"")
            .nth(1)
            .and_then(|t| t.split('"').next())
            .and_then(|t| t.parse().ok())
            .expect("a label");
        let (half, clear) = ("Zone A".len() as f64 * 4.75 + 3.0, 7.0);
        let covered = mx > label_x - half - clear
            && mx < label_x + half + clear
            && my > label_y - 13.0 - clear
            && my < label_y + 4.0 + clear;
        assert!(!covered, "the label at {label_x},{label_y} covers the marker at {mx},{my}");
    }

    #[test]
    fn touch_targets_lie_under_every_marker() {
        let features: Vec<Value> = (0..2)
            .map(|i| {
                feature(
                    json!({"id": format!("p{i}")}),
                    json!({"type": "Point", "coordinates": [30.0 + f64::from(i) * 0.001, 1.0]}),
                )
            })
            .collect();
        let (places, _) = places(&[("f", "r", &features)]);
        let projection = Projection::new(Bounds { west: 29.9, south: 0.9, east: 30.1, north: 1.1 }, 300.0);
        let drawn: Vec<Drawn> =
            places.iter().map(|p| Drawn { place: p, style: 0, faint: false, zone_label: None }).collect();
        let svg = svg(&drawn, &projection, "t", "d", "m");
        let last_hit = svg.rfind("map-hit").unwrap_or(usize::MAX);
        let first_marker = svg.find("map-marker").unwrap_or(0);
        assert!(last_hit < first_marker, "{svg}");
        assert_eq!(svg.matches("tabindex=\"-1\" aria-hidden=\"true\"").count(), 2, "{svg}");
    }

    #[test]
    fn phones_and_openstreetmap_get_the_point() {
        assert_eq!(geo_uri((30.81, -1.31)), "geo:-1.31,30.81");
        assert_eq!(osm_url((30.81, -1.31)), "https://www.openstreetmap.org/?mlat=-1.31&mlon=30.81#map=17/-1.31/30.81");
    }
}
