//! The cleaner of markdown twins (`portal::sanitize::markdown`): any text as a record body, and as
//! a metadata value written into a line. Never panics; what comes out has no raw HTML and no link
//! or image to a URL outside the site's policy (`javascript:`, `data:`...), read back by the same
//! parser, and an escaped value stays on one line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use portal::sanitize::markdown::{clean, escape, is_clean, link};

fuzz_target!(|text: &str| {
    let cleaned = clean(text);
    assert!(is_clean(&cleaned), "{text:?} cleaned to {cleaned:?}");
    let escaped = escape(text);
    assert!(is_clean(&escaped) && !escaped.contains(['\n', '\r']), "{text:?} escaped to {escaped:?}");
    let (label, url) = text.split_once('|').unwrap_or((text, text));
    let line = format!("- {}", link(label, url));
    assert!(is_clean(&line), "{text:?} linked as {line:?}");
});
