//! The CSV writer (`portal_core::queries::csv_cells`): any rows of text and number cells. Every written cell
//! parses back to what was given (or to it with a leading `'`), and no cell a spreadsheet would
//! read as a formula comes out, unless it is a plain number.
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use portal_core::queries::csv_cells::{self, Cell};

#[derive(Debug, Arbitrary)]
enum Input {
    Text(String),
    Number(String),
    Float(f64),
}

impl Input {
    fn cell(&self) -> Cell {
        match self {
            Input::Text(text) => Cell::Text(text.clone()),
            Input::Number(text) => Cell::Number(text.clone()),
            Input::Float(n) => Cell::Number(n.to_string()),
        }
    }
}

fuzz_target!(|rows: Vec<Vec<Input>>| {
    let rows: Vec<Vec<Cell>> =
        rows.iter().filter(|row| !row.is_empty()).map(|row| row.iter().map(Input::cell).collect()).collect();
    let text = csv_cells::write(rows.clone()).expect("writing to memory cannot fail");
    let mut reader = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
    let read: Vec<Vec<String>> =
        reader.records().map(|r| r.expect("the written CSV parses").iter().map(String::from).collect()).collect();
    assert_eq!(read.len(), rows.len(), "{text:?}");
    for (got, given) in read.iter().zip(&rows) {
        assert_eq!(got.len(), given.len(), "{text:?}");
        for (cell, source) in got.iter().zip(given) {
            let (Cell::Text(original) | Cell::Number(original)) = source;
            assert!(cell == original || *cell == format!("'{original}"), "{cell:?} from {original:?}");
            assert!(csv_cells::is_safe(cell), "{cell:?} would run as a formula");
        }
    }
});
