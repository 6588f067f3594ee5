//! Reading a `wrangler d1 export` dump as data (docs/cli.md#portal-submissions). SQLite itself
//! reads each statement, in a scratch in-memory database whose authorizer confines a statement to
//! what a dump of rows does: create a table, insert values (literals, and the `replace` and `char`
//! a dump writes). A statement is prepared first, which runs nothing, and run only when it
//! creates a table or fills `submissions` or `outbox`, the two tables portal keeps; every other
//! statement (an `ATTACH DATABASE`, which would write a file anywhere, an `UPDATE`, a read of a
//! table, another function) is refused or skipped with a warning naming its line, and so is a
//! statement or row that cannot be read, while every other row is still taken. The rows are then
//! copied, value by value, into an in-memory store of portal's own schema.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use anyhow::{Context, Result};
use portal_core::content::ContentError;
use portal_core::forms::outbox;
use rusqlite::config::DbConfig;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::types::Value as Sql;
use rusqlite::{params_from_iter, Connection};

/// The tables whose rows are read.
const TABLES: [&str; 2] = ["submissions", "outbox"];

/// Tables a dump fills that hold no submissions, passed over without a word: the Worker's
/// idempotency keys (`portal_core::forms::idempotency`) and AUTOINCREMENT's counters.
const PASSED_OVER: [&str; 2] = ["idempotency", "sqlite_sequence"];

/// The functions a dump's values are written with (`.dump` writes a line break as
/// `replace(..., '\n', char(10))`).
const FUNCTIONS: [&str; 2] = ["replace", "char"];

/// The rows of `sql` in an in-memory database of portal's schema, and a warning (`file:line:
/// message`, `file` naming the dump) for every statement or row that was not taken.
pub fn import(sql: &str, file: &str) -> Result<(Connection, Vec<ContentError>)> {
    let store = Connection::open_in_memory()?;
    store.execute_batch(outbox::SCHEMA).context("creating the tables")?;
    for migration in outbox::MIGRATIONS {
        if let Err(e) = store.execute_batch(migration) {
            if !outbox::already_migrated(&e.to_string()) {
                return Err(e).context("creating the tables");
            }
        }
    }
    // A dump lists its tables in its own order (`outbox` before `submissions`): rows are read as
    // they come, so references between them are not checked while reading.
    store.execute_batch("PRAGMA foreign_keys = OFF").context("reading rows in any order")?;
    let scratch = Scratch::open().context("opening a scratch database for the dump")?;
    let known = TABLES.iter().map(|&table| Ok((table, known_columns(&store, table)?))).collect::<Result<_>>()?;
    let mut reader = Reader { file, store: &store, known, warnings: Vec::new(), sql: 0 };
    let statements = statements(sql);
    for (number, (line, text)) in statements.iter().enumerate() {
        reader.statement(&scratch, number + 1, *line, text);
    }
    if reader.sql == 0 && !statements.is_empty() {
        anyhow::bail!("{file} is not an SQL dump of `wrangler d1 export`: no statement of it is SQL");
    }
    let warnings = reader.warnings;
    Ok((store, warnings))
}

/// What the authorizer saw of the dump's statement being prepared.
#[derive(Default)]
struct Seen {
    /// Portal's own statement is running (`Scratch::trusted`); every other statement is checked,
    /// also when SQLite prepares a statement of the dump again while running it.
    trusted: bool,
    /// The authorizer was asked anything (a statement of only comments asks nothing).
    asked: bool,
    /// The table a `CREATE TABLE` makes.
    created: Option<String>,
    /// The table an `INSERT` fills.
    inserted: Option<String>,
    /// The table an index is made on (by `CREATE INDEX`, or a key of `CREATE TABLE`).
    indexed: Option<String>,
    /// Values come from a `SELECT` (also how SQLite reads several rows of `VALUES`).
    selected: bool,
    /// Settings, indexes, transactions: nothing about the rows, so skipped without a word.
    housekeeping: bool,
    /// Why the statement was refused.
    refused: Option<String>,
}

/// The in-memory database the dump's statements are prepared in, with what its authorizer saw.
struct Scratch {
    conn: Connection,
    seen: Arc<Mutex<Seen>>,
}

impl Scratch {
    fn open() -> rusqlite::Result<Self> {
        let conn = Connection::open_in_memory()?;
        // AUTOINCREMENT's counters, so that a dump's lines about them are prepared, then passed over
        // (made before the authorizer is set).
        conn.execute_batch("CREATE TABLE portal_counted (id INTEGER PRIMARY KEY AUTOINCREMENT)")?;
        // No write to the schema table, no shadow tables, no triggers or views that could run later.
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)?;
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)?;
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false)?;
        conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_VIEW, false)?;
        let seen = Arc::new(Mutex::new(Seen::default()));
        let watched = Arc::clone(&seen);
        conn.authorizer(Some(move |context: AuthContext<'_>| authorize(&mut lock(&watched), &context)));
        Ok(Scratch { conn, seen })
    }

    /// Prepares `text` as a statement of the dump (which runs nothing) and says what it would do.
    fn prepare(&self, text: &str) -> (rusqlite::Result<rusqlite::Statement<'_>>, Seen) {
        *lock(&self.seen) = Seen::default();
        let prepared = self.conn.prepare(text);
        let seen = std::mem::take(&mut *lock(&self.seen));
        (prepared, seen)
    }

    /// Runs portal's own statements on the scratch database, unchecked.
    fn trusted<T>(&self, run: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> rusqlite::Result<T> {
        lock(&self.seen).trusted = true;
        let result = run(&self.conn);
        lock(&self.seen).trusted = false;
        result
    }
}

fn lock(seen: &Mutex<Seen>) -> MutexGuard<'_, Seen> {
    seen.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The authorizer: while a statement of the dump is prepared, only what a dump of rows does is
/// allowed, and what the statement does is noted in `seen`.
fn authorize(seen: &mut Seen, context: &AuthContext<'_>) -> Authorization {
    if seen.trusted {
        return Authorization::Allow;
    }
    seen.asked = true;
    let main = context.database_name.is_none_or(|name| name == "main");
    let mut refuse = |why: String| {
        seen.refused.get_or_insert(why);
        Authorization::Deny
    };
    match context.action {
        AuthAction::Select => {
            seen.selected = true;
            Authorization::Allow
        }
        AuthAction::Function { function_name } if FUNCTIONS.iter().any(|f| f.eq_ignore_ascii_case(function_name)) => {
            Authorization::Allow
        }
        AuthAction::Function { function_name } => {
            refuse(format!("the function `{function_name}` is not one a dump writes"))
        }
        AuthAction::CreateTable { table_name } if main => {
            seen.created.get_or_insert_with(|| table_name.to_lowercase());
            Authorization::Allow
        }
        // Creating a table records it in the schema table.
        AuthAction::Insert { table_name } if main && is_schema_table(table_name) => Authorization::Allow,
        AuthAction::Insert { table_name } if main => {
            seen.inserted.get_or_insert_with(|| table_name.to_lowercase());
            Authorization::Allow
        }
        // A table's primary key and unique columns are indexes made with it, which read its
        // columns; a dump's own `CREATE INDEX` is only prepared, never run.
        AuthAction::CreateIndex { table_name, .. } if main => {
            seen.housekeeping = true;
            seen.indexed.get_or_insert_with(|| table_name.to_lowercase());
            Authorization::Allow
        }
        AuthAction::Read { table_name, .. }
            if seen.indexed.as_deref().is_some_and(|t| t.eq_ignore_ascii_case(table_name)) =>
        {
            Authorization::Allow
        }
        // Creating a table or an index writes its row of the schema table.
        AuthAction::Update { table_name, .. } | AuthAction::Read { table_name, .. }
            if main && (seen.created.is_some() || seen.indexed.is_some()) && is_schema_table(table_name) =>
        {
            Authorization::Allow
        }
        AuthAction::Reindex { .. } if seen.indexed.is_some() => Authorization::Allow,
        AuthAction::Pragma { .. } | AuthAction::Transaction { .. } | AuthAction::Savepoint { .. } => {
            seen.housekeeping = true;
            Authorization::Deny
        }
        AuthAction::Delete { table_name } if table_name.eq_ignore_ascii_case("sqlite_sequence") => {
            seen.housekeeping = true;
            Authorization::Deny
        }
        AuthAction::Read { table_name, .. } => refuse(format!("it reads the table `{table_name}`")),
        _ => refuse("it does more than create a table or insert values".into()),
    }
}

fn is_schema_table(name: &str) -> bool {
    ["sqlite_master", "sqlite_schema", "sqlite_temp_master", "sqlite_temp_schema"]
        .iter()
        .any(|t| t.eq_ignore_ascii_case(name))
}

/// Whether SQLite could not read `error`'s statement as SQL at all.
fn is_syntax_error(error: &rusqlite::Error) -> bool {
    let message = error.to_string();
    ["syntax error", "incomplete input", "unrecognized token"].iter().any(|m| message.contains(m))
}

/// What the reader knows while it goes through the dump.
struct Reader<'a> {
    file: &'a str,
    store: &'a Connection,
    /// The columns of each of `TABLES` in portal's schema.
    known: HashMap<&'static str, Vec<String>>,
    warnings: Vec<ContentError>,
    /// How many statements were SQL (a file with none is no dump at all).
    sql: usize,
}

impl Reader<'_> {
    fn warn(&mut self, line: usize, message: String) {
        self.warnings.push(ContentError::new(self.file, line, message));
    }

    fn statement(&mut self, scratch: &Scratch, number: usize, line: usize, text: &str) {
        let (prepared, seen) = scratch.prepare(text);
        let what: String = text.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
        let not_run = |why: &dyn std::fmt::Display| format!("statement {number} (`{what}`) skipped, not run: {why}");
        let ours = seen.inserted.as_deref().filter(|t| TABLES.contains(t)).map(str::to_owned);
        if let Some(e) = prepared.as_ref().err().filter(|e| is_syntax_error(e)) {
            return self.warn(line, format!("statement {number} is not SQL portal can read, skipped ({e})"));
        }
        self.sql += 1;
        let prepared = match (prepared, ours) {
            (Err(e), Some(table)) => {
                let why = seen.refused.unwrap_or_else(|| e.to_string());
                return self.warn(line, format!("statement {number}: a row of `{table}` not read: {why}"));
            }
            (Err(e), None) => {
                return match seen.refused {
                    None if seen.housekeeping => {}
                    Some(why) => self.warn(line, not_run(&why)),
                    None => self.warn(line, not_run(&e)),
                };
            }
            (Ok(prepared), Some(table)) => {
                let ran = run(prepared);
                return self.take_rows(scratch, number, line, &table, ran);
            }
            (Ok(prepared), None) => prepared,
        };
        match (seen.inserted, seen.created) {
            (Some(table), _) if PASSED_OVER.contains(&table.as_str()) => {}
            // A table is made in the scratch database so that the rows after it can be prepared,
            // unless rows would come with it (`CREATE TABLE ... AS SELECT`).
            (None, Some(table)) if !seen.selected => {
                if let Err(e) = run(prepared).and_then(|()| scratch.plain(&table)) {
                    self.warn(line, not_run(&e));
                }
            }
            // Only comments, or an index.
            (None, None) if !seen.asked || (seen.housekeeping && !seen.selected) => {}
            _ => self.warn(
                line,
                format!("statement {number} (`{what}`) is not a row of {}: skipped, not run", TABLES.join(" or ")),
            ),
        }
    }

    /// After an `INSERT` into `table` of the scratch database ran, takes its rows one by one.
    fn take_rows(&mut self, scratch: &Scratch, number: usize, line: usize, table: &str, ran: rusqlite::Result<()>) {
        if let Err(e) = ran {
            return self.warn(line, format!("statement {number}: a row of `{table}` not read: {e}"));
        }
        let rows = match scratch.rows(table) {
            Ok(rows) => rows,
            Err(e) => return self.warn(line, format!("statement {number}: the rows of `{table}` not read: {e}")),
        };
        let count = rows.values.len();
        for (index, values) in rows.values.into_iter().enumerate() {
            let at = if count > 1 {
                format!("statement {number}, row {}", index + 1)
            } else {
                format!("statement {number}")
            };
            if let Err(why) = self.row(table, &rows.columns, values) {
                self.warn(line, format!("{at}: a row of `{table}` not read: {why}"));
            }
        }
    }

    /// Takes one row, each value bound to a column of portal's schema by name.
    fn row(&self, table: &str, columns: &[String], row: Vec<Sql>) -> Result<(), String> {
        let known = self.known.get(table).map_or(&[][..], Vec::as_slice);
        let mut names = Vec::new();
        let mut values = Vec::new();
        for (column, value) in columns.iter().zip(row) {
            if matches!(value, Sql::Blob(_)) {
                return Err(format!("its `{column}` is a blob, not text or a number"));
            }
            if known.contains(column) {
                names.push(column.as_str());
                values.push(value);
            }
        }
        if table == "submissions" {
            let data = names.iter().position(|n| *n == "data").and_then(|i| match &values[i] {
                Sql::Text(text) => Some(text.as_str()),
                _ => None,
            });
            if data.is_none_or(|d| serde_json::from_str::<serde_json::Value>(d).is_err()) {
                return Err("its `data` is not JSON".into());
            }
        }
        // Names and table come from portal's own schema (`known`), never from the dump.
        let marks = vec!["?"; names.len()].join(", ");
        let sql = format!("INSERT INTO {table} ({}) VALUES ({marks})", names.join(", "));
        self.store.execute(&sql, params_from_iter(values)).map(|_| ()).map_err(|e| e.to_string())
    }
}

/// The rows a statement put in a table of the scratch database, with its columns' names.
struct Rows {
    columns: Vec<String>,
    values: Vec<Vec<Sql>>,
}

impl Scratch {
    /// Makes `table`, just created by the dump, again as a plain table of the same columns: no
    /// types, keys, defaults, checks or references, so a row's values go in as written and nothing
    /// else is read or computed (each row is checked where it is copied to).
    fn plain(&self, table: &str) -> rusqlite::Result<()> {
        let quoted = |name: &str| format!("\"{}\"", name.replace('"', "\"\""));
        self.trusted(|conn| {
            let columns: Vec<String> = known_columns(conn, table)?.iter().map(|name| quoted(name)).collect();
            let table = quoted(table);
            conn.execute_batch(&format!("DROP TABLE main.{table}; CREATE TABLE main.{table} ({})", columns.join(", ")))
        })
    }

    /// Takes the rows out of `table` (one of `TABLES`), in the order they were inserted.
    fn rows(&self, table: &str) -> rusqlite::Result<Rows> {
        self.trusted(|conn| {
            let mut statement = conn.prepare(&format!("SELECT * FROM main.{table}"))?;
            let columns: Vec<String> = statement.column_names().iter().map(|c| c.to_lowercase()).collect();
            let width = columns.len();
            let values = statement
                .query_map([], |row| (0..width).map(|i| row.get::<_, Sql>(i)).collect::<rusqlite::Result<Vec<_>>>())?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            drop(statement);
            conn.execute(&format!("DELETE FROM main.{table}"), [])?;
            Ok(Rows { columns, values })
        })
    }
}

/// Runs a prepared statement of the dump (its authorizer allowed it when it was prepared, and
/// checks it again if SQLite prepares it anew).
fn run(mut statement: rusqlite::Statement<'_>) -> rusqlite::Result<()> {
    statement.raw_execute().map(|_| ())
}

/// The columns `table` has in `conn` (portal's schema, or a table the dump created).
fn known_columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = statement.query_map([table], |row| row.get::<_, String>(0))?;
    names.collect()
}

/// The statements of a dump, each with the line it starts on: split at every `;` that is not in
/// a quoted string, a quoted name or a comment, so one broken statement leaves the others whole.
fn statements(sql: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let (mut start, mut line, mut start_line) = (0, 1, 1);
    let mut quote: Option<char> = None;
    let mut chars = sql.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\n' {
            line += 1;
        }
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '[') => quote = Some(']'),
            (None, '-') if chars.peek().is_some_and(|(_, n)| *n == '-') => {
                while chars.peek().is_some_and(|(_, n)| *n != '\n') {
                    chars.next();
                }
            }
            (None, '/') if chars.peek().is_some_and(|(_, n)| *n == '*') => {
                chars.next();
                let mut last = ' ';
                for (_, n) in chars.by_ref() {
                    line += usize::from(n == '\n');
                    if last == '*' && n == '/' {
                        break;
                    }
                    last = n;
                }
            }
            (None, ';') => {
                push(&sql[start..i], start_line, &mut out);
                start = i + 1;
                start_line = line;
            }
            (None, _) => {}
        }
    }
    push(&sql[start..], start_line, &mut out);
    out
}

/// Adds `piece`, trimmed, with the line its first character is on (it begins on `first_line`).
fn push<'a>(piece: &'a str, first_line: usize, out: &mut Vec<(usize, &'a str)>) {
    let leading = &piece[..piece.len() - piece.trim_start().len()];
    if !piece.trim().is_empty() {
        out.push((first_line + leading.matches('\n').count(), piece.trim()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(conn: &Connection, table: &str) -> i64 {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |row| row.get(0)).expect("count")
    }

    /// Each warning, as printed, starts with its line of `starts`, and there are no others.
    fn assert_warnings(warnings: &[ContentError], starts: &[&str]) {
        let lines: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        assert_eq!(lines.len(), starts.len(), "{lines:#?}");
        for (line, start) in lines.iter().zip(starts) {
            assert!(line.starts_with(start), "{line}\n  should start with\n{start}");
        }
    }

    const CREATE: &str = "CREATE TABLE submissions (id TEXT PRIMARY KEY, kind TEXT NOT NULL, received_at TEXT NOT NULL, data TEXT NOT NULL);\n";

    #[test]
    fn statements_split_outside_quotes_and_comments_with_their_lines() {
        let sql = "A 'x;y' \"q;\" [b;];\n-- c;\nB /* d;\n; */ ;\n\nC 'it''s;'";
        assert_eq!(statements(sql), [(1, "A 'x;y' \"q;\" [b;]"), (2, "-- c;\nB /* d;\n; */"), (6, "C 'it''s;'")]);
    }

    #[test]
    fn values_are_literals_and_the_functions_a_dump_writes() {
        let sql = format!(
            "{CREATE}INSERT INTO \"submissions\" VALUES('v-1','voice','2026',replace(replace('{{\"a\":1,\\r\\n\"b\":2}}','\\r',char(13)),'\\n',char(10)));"
        );
        let (conn, warnings) = import(&sql, "dump.sql").expect("import");
        assert!(warnings.is_empty(), "{warnings:?}");
        let data: String = conn.query_row("SELECT data FROM submissions", [], |row| row.get(0)).expect("row");
        assert_eq!(data, "{\"a\":1,\r\n\"b\":2}");
    }

    #[test]
    fn the_workers_idempotency_keys_are_passed_over_without_a_warning() {
        let sql = format!(
            "{CREATE}CREATE TABLE idempotency (key TEXT PRIMARY KEY, fingerprint TEXT, owner TEXT, answer TEXT, until_ms INTEGER);\n\
             INSERT INTO \"idempotency\" VALUES('/visit k','f','o',NULL,1);\nINSERT INTO submissions VALUES('v-1','voice','2026','{{}}');"
        );
        let (conn, warnings) = import(&sql, "dump.sql").expect("import");
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(count(&conn, "submissions"), 1);
    }

    #[test]
    fn an_attach_never_runs_and_is_named_in_a_warning() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("x.sqlite");
        let sql = format!(
            "ATTACH DATABASE '{0}' AS x;\nCREATE TABLE x.t(a);\nINSERT INTO x.t VALUES(1);\n{CREATE}INSERT INTO submissions VALUES('v-1','voice','2026','{{}}');\nINSERT INTO submissions SELECT * FROM x.t;\nUPDATE submissions SET kind = 'x';",
            target.display()
        );
        let (conn, warnings) = import(&sql, "dump.sql").expect("import");
        assert!(!target.exists(), "the ATTACH wrote a file");
        assert_eq!(count(&conn, "submissions"), 1);
        let starts = [
            "dump.sql:1: statement 1 (`ATTACH DATABASE '",
            "dump.sql:2: statement 2 (`CREATE TABLE x.t(a)`) skipped, not run: unknown database x",
            "dump.sql:3: statement 3 (`INSERT INTO x.t`) skipped, not run: no such table: x.t",
            "dump.sql:6: statement 6",
            "dump.sql:7: statement 7 (`UPDATE submissions SET`) skipped, not run",
        ];
        assert_warnings(&warnings, &starts);
        assert!(warnings[3].to_string().contains("x.t"), "the INSERT ... SELECT names what it reads: {warnings:#?}");
        let kind: String = conn.query_row("SELECT kind FROM submissions", [], |row| row.get(0)).expect("row");
        assert_eq!(kind, "voice");
    }

    #[test]
    fn what_a_dump_could_do_beyond_its_rows_never_runs() {
        let sql = format!(
            "{CREATE}CREATE TRIGGER wipe AFTER INSERT ON submissions BEGIN DELETE FROM submissions; END;\n\
             INSERT INTO submissions VALUES('v-1','voice','2026',(SELECT sql FROM sqlite_master LIMIT 1));\n\
             INSERT INTO sqlite_master VALUES('table','u','u',0,'CREATE TABLE u(a)');\n\
             CREATE TABLE outbox AS SELECT 1 AS id;\n\
             INSERT INTO submissions VALUES('v-2','voice','2026',X'7b7d');\n\
             BEGIN TRANSACTION;\nINSERT INTO submissions VALUES('v-3','voice','2026','{{}}');\nCOMMIT;\n\
             DELETE FROM submissions;"
        );
        let (conn, warnings) = import(&sql, "dump.sql").expect("import");
        assert_eq!(count(&conn, "submissions"), 1, "only the plain row is taken, and nothing deletes it");
        let starts = [
            // Split at its inner `;`: the trigger's `END` reads as a transaction's, passed over.
            "dump.sql:2: statement 2 (`CREATE TRIGGER wipe`) skipped, not run: it does more than",
            "dump.sql:3: statement 4: a row of `submissions` not read: it reads the table `sqlite_master`",
            "dump.sql:4: statement 5 (`INSERT INTO sqlite_master`) skipped, not run: table sqlite_master may not be",
            "dump.sql:5: statement 6 (`CREATE TABLE outbox`) is not a row of submissions or outbox",
            "dump.sql:6: statement 7: a row of `submissions` not read: its `data` is a blob",
            "dump.sql:10: statement 11 (`DELETE FROM submissions`) skipped, not run",
        ];
        assert_warnings(&warnings, &starts);
    }

    #[test]
    fn an_export_of_the_workers_database_is_read_without_a_word() {
        let (conn, warnings) = import(include_str!("../../../fixtures/d1/export.sql"), "export.sql").expect("import");
        assert!(warnings.is_empty(), "{warnings:#?}");
        assert_eq!((count(&conn, "submissions"), count(&conn, "outbox")), (3, 3));
    }

    #[test]
    fn a_bad_row_is_reported_and_every_other_row_taken() {
        let sql = format!(
            "{CREATE}INSERT INTO submissions VALUES('v-1','voice','2026','{{}}');\n\
             INSERT INTO submissions VALUES('v-2','voice');\n\
             INSERT INTO submissions VALUES('v-3','voice','2026','not json');\n\
             INSERT INTO submissions VALUES('v-4','voice','2026',load_extension('x'));\n\
             INSERT INTO submissions VALUES('v-5',,);\n\
             INSERT INTO submissions VALUES('v-6','voice','2026','{{}}'),('v-1','voice','2026','{{}}');\n\
             INSERT INTO submissions VALUES('v-7','voice','2026','{{\"a\": \"x;y\"}}');"
        );
        let (conn, warnings) = import(&sql, "dump.sql").expect("import");
        let ids: Vec<String> = conn
            .prepare("SELECT id FROM submissions ORDER BY id")
            .and_then(|mut s| s.query_map([], |row| row.get(0))?.collect())
            .expect("ids");
        assert_eq!(ids, ["v-1", "v-6", "v-7"]);
        let starts = [
            "dump.sql:3: statement 3: a row of `submissions` not read: table submissions has 4 columns but 2 values",
            "dump.sql:4: statement 4: a row of `submissions` not read: its `data` is not JSON",
            "dump.sql:5: statement 5: a row of `submissions` not read: the function `load_extension`",
            "dump.sql:6: statement 6 is not SQL portal can read, skipped",
            "dump.sql:7: statement 7, row 2: a row of `submissions` not read: UNIQUE constraint failed",
        ];
        assert_warnings(&warnings, &starts);
    }

    #[test]
    fn a_file_without_one_statement_of_sql_is_no_dump() {
        let error = import("this is not SQL", "junk.sql").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(error.starts_with("junk.sql is not an SQL dump"), "{error}");
        assert!(import("-- nothing\n", "empty.sql").is_ok());
    }

    #[test]
    fn an_older_dump_without_a_column_is_read_by_its_own_columns() {
        let sql = format!(
            "{CREATE}CREATE TABLE outbox (id INTEGER PRIMARY KEY, submission_id TEXT, mail TEXT, status TEXT, attempts INTEGER, next_attempt_ms INTEGER, last_error TEXT, sent_at_ms INTEGER);\n\
             INSERT INTO outbox VALUES(1,'v-1','{{}}','sent',1,0,NULL,-5);"
        );
        let (conn, warnings) = import(&sql, "dump.sql").expect("import");
        assert!(warnings.is_empty(), "{warnings:?}");
        let sent: i64 = conn.query_row("SELECT sent_at_ms FROM outbox", [], |row| row.get(0)).expect("row");
        assert_eq!(sent, -5);
    }
}
