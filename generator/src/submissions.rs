//! `portal submissions`: the stored community voices and bookings as JSON or CSV, so editors can
//! follow up (decision D9). Reads the SQLite store of `portal serve --state`.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
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

/// Writes the submissions of `state` (optionally of one `kind`) to `out`.
pub fn export(state: &Path, kind: Option<&str>, format: Format, out: &mut impl Write) -> Result<()> {
    let store = Store::open_existing(state)?;
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
/// data field in order of first use.
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
    writeln!(out, "{}", header.iter().map(|h| csv_cell(h)).collect::<Vec<_>>().join(","))?;
    for s in list {
        let mut row = vec![
            s.kind.clone(),
            s.id.clone(),
            s.received_at.clone(),
            s.mails_sent.to_string(),
            s.mails_pending.to_string(),
            s.mails_undeliverable.to_string(),
            s.delivered_via.clone(),
        ];
        row.extend(fields.iter().map(|f| match s.data.get(f) {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(text)) => text.clone(),
            Some(other) => other.to_string(),
        }));
        writeln!(out, "{}", row.iter().map(|c| csv_cell(c)).collect::<Vec<_>>().join(","))?;
    }
    Ok(())
}

/// One CSV cell (RFC 4180 quoting). Text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`
/// first) gets a leading `'`, since these values come from the public.
pub fn csv_cell(value: &str) -> String {
    let value =
        if value.starts_with(['=', '+', '-', '@', '\t', '\r']) { format!("'{value}") } else { value.to_string() };
    if value.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", value.replace('"', "\"\""))
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_quoted_and_defused() {
        assert_eq!(csv_cell("plain"), "plain");
        assert_eq!(csv_cell("a,b"), "\"a,b\"");
        assert_eq!(csv_cell("say \"hi\"\nbye"), "\"say \"\"hi\"\"\nbye\"");
        assert_eq!(csv_cell("=HYPERLINK(1)"), "'=HYPERLINK(1)");
    }
}
