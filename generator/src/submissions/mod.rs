//! `portal submissions`: the stored community voices and bookings as JSON or CSV, so editors can
//! follow up (docs/cli.md#portal-submissions), and a voice written into the content folder as a
//! draft ([`publish`]). Reads the SQLite store of `portal serve --state`, or the Worker's D1
//! database from a `wrangler d1 export` file, the same way.

pub mod d1_export;
pub mod publish;

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use portal_core::queries::csv_cells::{self, Cell};
use serde_json::{json, Value};

use crate::serve::store::{Store, StoredSubmission};

/// The output formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// A JSON array.
    Json,
    /// CSV with a header row.
    Csv,
}

/// Where the submissions are read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The state folder of `portal serve`.
    State(PathBuf),
    /// A `wrangler d1 export` SQL file of the Worker's database.
    D1Export(PathBuf),
}

impl Source {
    /// The store of this source (an error naming the folder or file when it cannot be read);
    /// what a D1 export held that was not taken is a warning on stderr.
    pub fn open(&self) -> Result<Store> {
        match self {
            Source::State(dir) => Store::open_existing(dir),
            Source::D1Export(file) => {
                let (store, warnings) = Store::from_d1_export(file)?;
                for warning in warnings {
                    eprintln!("warning: {warning}");
                }
                Ok(store)
            }
        }
    }
}

/// Writes the submissions of `source` (optionally of one `kind`) to `out`.
pub fn export(source: &Source, kind: Option<&str>, format: Format, out: &mut impl Write) -> Result<()> {
    let store = source.open()?;
    let list = store.list(kind)?;
    match format {
        Format::Json => {
            let items: Vec<Value> = list.iter().map(to_json).collect();
            serde_json::to_writer_pretty(&mut *out, &items)?;
            writeln!(out)?;
        }
        Format::Csv => write_csv(&list, out)?,
    }
    out.flush().context("writing the submissions")
}

fn to_json(s: &StoredSubmission) -> Value {
    json!({
        "kind": s.kind,
        "id": s.id,
        "receivedAt": s.received_at,
        "data": s.data,
        "mailsSent": s.mails_sent,
        "mailsPending": s.mails_pending,
        "mailsUndeliverable": s.mails_undeliverable,
        "deliveredVia": s.delivered_via,
    })
}

/// Columns `kind,id,receivedAt,mailsSent,mailsPending,mailsUndeliverable,deliveredVia`, then every
/// data field in order of first use. Cells follow `portal_core::queries::csv_cells`: what the public sent
/// cannot run as a spreadsheet formula.
fn write_csv(list: &[StoredSubmission], out: &mut impl Write) -> Result<()> {
    let mut fields: Vec<String> = Vec::new();
    for s in list {
        for key in s.data.as_object().into_iter().flat_map(|o| o.keys()) {
            if !fields.contains(key) {
                fields.push(key.clone());
            }
        }
    }
    let mut header =
        vec!["kind", "id", "receivedAt", "mailsSent", "mailsPending", "mailsUndeliverable", "deliveredVia"];
    header.extend(fields.iter().map(String::as_str));
    let header: Vec<Cell> = header.into_iter().map(Cell::from).collect();
    let rows = list.iter().map(|s| {
        let mut row = vec![
            Cell::Text(s.kind.clone()),
            Cell::Text(s.id.clone()),
            Cell::Text(s.received_at.clone()),
            Cell::Number(s.mails_sent.to_string()),
            Cell::Number(s.mails_pending.to_string()),
            Cell::Number(s.mails_undeliverable.to_string()),
            Cell::Text(s.delivered_via.clone()),
        ];
        row.extend(fields.iter().map(|f| Cell::of_json(s.data.get(f).unwrap_or(&Value::Null))));
        row
    });
    let text = csv_cells::write(std::iter::once(header).chain(rows)).map_err(anyhow::Error::msg)?;
    out.write_all(text.as_bytes()).context("writing the submissions")
}
