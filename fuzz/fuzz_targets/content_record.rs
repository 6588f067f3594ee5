//! Content loading: any text as a record file (markdown with YAML front matter, YAML, JSON), as an
//! encyclopedia entry and as `site.yaml`. Never panics; every error names a line of the file.
#![no_main]

use libfuzzer_sys::fuzz_target;
use portal::load::records::{parse, Format};
use portal::load::{encyclopedia, site};

fuzz_target!(|text: &str| {
    for (format, file) in [(Format::Markdown, "news/x.md"), (Format::Yaml, "news/x.yaml"), (Format::Json, "news/x.json")] {
        if let Err(errors) = parse("news", "x", file, format, text) {
            assert!(!errors.is_empty());
            assert!(errors.iter().all(|e| e.line >= 1), "an error without a line: {errors:?}");
        }
    }
    if let Err(errors) = encyclopedia::parse("entry", "encyclopedia/entry.md", text) {
        assert!(errors.iter().all(|e| e.line >= 1));
    }
    let _ = site::parse("site.yaml", text);
});
