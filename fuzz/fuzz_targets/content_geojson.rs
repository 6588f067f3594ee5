//! Content loading: any text as a spatial GeoJSON file. Never panics; errors carry a line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use portal::load::spatial;

fuzz_target!(|text: &str| {
    if let Err(errors) = spatial::parse("spatial/points.geojson", "points", text) {
        assert!(errors.iter().all(|e| e.line >= 1));
    }
});
