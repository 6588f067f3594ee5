//! Reading a `wrangler d1 export` dump as data (docs/cli.md#portal-submissions): its `CREATE
//! TABLE` and `INSERT` statements are parsed with `sqlparser`, and only the rows of the two
//! tables portal keeps (`submissions`, `outbox`) are taken, value by value, into an in-memory
//! store of portal's own schema. Nothing of the dump is ever run: a statement that could act
//! (`ATTACH DATABASE`, which writes a file anywhere, an `UPDATE`, a rows of another table) is
//! skipped with a warning, and so is a statement or row that cannot be read, while every other
//! row is still taken.

use std::collections::HashMap;

use anyhow::{Context, Result};
use portal_core::content::ContentError;
use portal_core::forms::outbox;
use rusqlite::types::Value as Sql;
use rusqlite::{params_from_iter, Connection};
use sqlparser::ast::{
    Expr, FunctionArg, FunctionArgExpr, FunctionArguments, ObjectName, ObjectNamePart, SetExpr, Statement, TableObject,
    UnaryOperator, Value,
};
use sqlparser::dialect::SQLiteDialect;
use sqlparser::parser::Parser;

/// The tables whose rows are read.
const TABLES: [&str; 2] = ["submissions", "outbox"];

/// Statements a dump holds that say nothing about the rows: skipped without a word.
fn is_housekeeping(statement: &Statement) -> bool {
    match statement {
        Statement::Pragma { .. }
        | Statement::CreateTable(_)
        | Statement::CreateIndex(_)
        | Statement::StartTransaction { .. }
        | Statement::Commit { .. } => true,
        // The Worker's idempotency keys (`portal_core::forms::idempotency`) are no submissions.
        Statement::Insert(insert) => matches!(insert_table(insert).as_deref(), Some("sqlite_sequence" | "idempotency")),
        Statement::Delete(delete) => delete.to_string().to_lowercase().contains("sqlite_sequence"),
        _ => false,
    }
}

/// The rows of `sql` in an in-memory database of portal's schema, and a warning (`file:line:
/// message`, `file` naming the dump) for every statement or row that was not taken.
pub fn import(sql: &str, file: &str) -> Result<(Connection, Vec<ContentError>)> {
    let conn = Connection::open_in_memory()?;
    conn.execute_batch(outbox::SCHEMA).context("creating the tables")?;
    for migration in outbox::MIGRATIONS {
        if let Err(e) = conn.execute_batch(migration) {
            if !outbox::already_migrated(&e.to_string()) {
                return Err(e).context("creating the tables");
            }
        }
    }
    // A dump lists its tables in its own order (`outbox` before `submissions`): rows are read as
    // they come, so references between them are not checked while reading.
    conn.execute_batch("PRAGMA foreign_keys = OFF").context("reading rows in any order")?;
    let mut reader = Reader { file, conn: &conn, columns: HashMap::new(), warnings: Vec::new(), parsed: 0 };
    let statements = statements(sql);
    for (number, (line, text)) in statements.iter().enumerate() {
        reader.statement(number + 1, *line, text);
    }
    if reader.parsed == 0 && !statements.is_empty() {
        anyhow::bail!("{file} is not an SQL dump of `wrangler d1 export`: no statement of it is SQL");
    }
    let warnings = reader.warnings;
    Ok((conn, warnings))
}

/// What the reader knows while it goes through the dump.
struct Reader<'a> {
    file: &'a str,
    conn: &'a Connection,
    /// The columns of each table read, in the order the dump's `CREATE TABLE` gives them (its
    /// `INSERT`s name no columns).
    columns: HashMap<String, Vec<String>>,
    warnings: Vec<ContentError>,
    /// How many statements were SQL (a file with none is no dump at all).
    parsed: usize,
}

impl Reader<'_> {
    fn warn(&mut self, line: usize, message: String) {
        self.warnings.push(ContentError::new(self.file, line, message));
    }

    fn statement(&mut self, number: usize, line: usize, text: &str) {
        // Settings of the dumping database, whatever syntax they take: never run, so nothing to say.
        if text.split_whitespace().next().is_some_and(|word| word.eq_ignore_ascii_case("pragma")) {
            self.parsed += 1;
            return;
        }
        let parsed = Parser::new(&SQLiteDialect {}).try_with_sql(text).and_then(|mut p| p.parse_statements());
        let statement = match parsed {
            Ok(mut list) if list.len() == 1 => list.remove(0),
            // Only comments.
            Ok(list) if list.is_empty() => {
                self.parsed += 1;
                return;
            }
            Ok(_) => return self.warn(line, format!("statement {number} is not SQL portal can read, skipped")),
            Err(e) => return self.warn(line, format!("statement {number} is not SQL portal can read, skipped ({e})")),
        };
        self.parsed += 1;
        if let Statement::CreateTable(create) = &statement {
            if let Some(table) = table_name(&create.name).filter(|t| TABLES.contains(&t.as_str())) {
                self.columns.insert(table, create.columns.iter().map(|c| c.name.value.to_lowercase()).collect());
            }
        }
        if let Statement::Insert(insert) = &statement {
            if let Some(table) = insert_table(insert).filter(|t| TABLES.contains(&t.as_str())) {
                return self.insert(number, line, &table, insert);
            }
        }
        if !is_housekeeping(&statement) {
            let what: String = text.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
            self.warn(
                line,
                format!("statement {number} (`{what}`) is not a row of {}: skipped, not run", TABLES.join(" or ")),
            );
        }
    }

    fn insert(&mut self, number: usize, line: usize, table: &str, insert: &sqlparser::ast::Insert) {
        let named: Vec<String> = insert.columns.iter().filter_map(table_name).collect();
        let columns = if named.is_empty() { self.columns.get(table).cloned().unwrap_or_default() } else { named };
        let rows = match insert.source.as_deref().map(|q| q.body.as_ref()) {
            Some(SetExpr::Values(values)) => &values.rows,
            _ => {
                return self.warn(line, format!("statement {number}: an INSERT into `{table}` without VALUES, skipped"))
            }
        };
        for (index, row) in rows.iter().enumerate() {
            let at = if rows.len() > 1 {
                format!("statement {number}, row {}", index + 1)
            } else {
                format!("statement {number}")
            };
            if let Err(why) = self.row(table, &columns, &row.content) {
                self.warn(line, format!("{at}: a row of `{table}` not read: {why}"));
            }
        }
    }

    /// Takes one row: its values evaluated (literals and the functions dumps write), each bound to
    /// a column of portal's schema by name.
    fn row(&self, table: &str, columns: &[String], exprs: &[Expr]) -> Result<(), String> {
        if columns.len() != exprs.len() {
            return Err(format!("{} values for the {} columns of the table", exprs.len(), columns.len()));
        }
        let known = known_columns(self.conn, table).map_err(|e| e.to_string())?;
        let mut names = Vec::new();
        let mut values = Vec::new();
        for (column, expr) in columns.iter().zip(exprs) {
            let value = evaluate(expr)?;
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
        self.conn.execute(&sql, params_from_iter(values)).map(|_| ()).map_err(|e| e.to_string())
    }
}

/// The columns `table` has in portal's schema.
fn known_columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut statement = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
    let names = statement.query_map([table], |row| row.get::<_, String>(0))?;
    names.collect()
}

/// The last part of a name (`"main"."submissions"` is `submissions`), lower-cased; `None` for a
/// name made by a function.
fn table_name(name: &ObjectName) -> Option<String> {
    match name.0.last()? {
        ObjectNamePart::Identifier(ident) if name.0.len() == 1 || is_main(name) => Some(ident.value.to_lowercase()),
        _ => None,
    }
}

/// Whether a two-part name is in the `main` schema (a table of another, attached, database is not read).
fn is_main(name: &ObjectName) -> bool {
    name.0.len() == 2 && matches!(&name.0[0], ObjectNamePart::Identifier(s) if s.value.eq_ignore_ascii_case("main"))
}

fn insert_table(insert: &sqlparser::ast::Insert) -> Option<String> {
    match &insert.table {
        TableObject::TableName(name) => table_name(name),
        _ => None,
    }
}

/// The value of an expression a dump writes: a literal (text, number, NULL), a negative number,
/// or `replace(...)`/`char(...)` of those (how SQLite's `.dump` writes line breaks). Anything else
/// is refused, never computed.
fn evaluate(expr: &Expr) -> Result<Sql, String> {
    match expr {
        Expr::Value(value) => literal(&value.value),
        Expr::UnaryOp { op: UnaryOperator::Minus, expr } => match evaluate(expr)? {
            Sql::Integer(n) => Ok(Sql::Integer(-n)),
            Sql::Real(x) => Ok(Sql::Real(-x)),
            _ => Err("`-` before something that is not a number".into()),
        },
        Expr::Nested(inner) => evaluate(inner),
        Expr::Function(function) => {
            let name = function.name.to_string().to_lowercase();
            let args = match &function.args {
                FunctionArguments::List(list) => list.args.iter().map(argument).collect::<Result<Vec<_>, _>>()?,
                _ => return Err(format!("`{name}` without arguments")),
            };
            call(&name, &args)
        }
        other => Err(format!("`{other}` is not a value")),
    }
}

fn argument(arg: &FunctionArg) -> Result<Sql, String> {
    match arg {
        FunctionArg::Unnamed(FunctionArgExpr::Expr(expr)) => evaluate(expr),
        other => Err(format!("`{other}` is not a value")),
    }
}

fn literal(value: &Value) -> Result<Sql, String> {
    match value {
        Value::Null => Ok(Sql::Null),
        Value::SingleQuotedString(text) => Ok(Sql::Text(text.clone())),
        Value::Number(text, _) => text
            .parse::<i64>()
            .map(Sql::Integer)
            .or_else(|_| text.parse::<f64>().map(Sql::Real))
            .map_err(|_| format!("`{text}` is not a number")),
        Value::Boolean(b) => Ok(Sql::Integer(i64::from(*b))),
        other => Err(format!("`{other}` is not a value portal stores")),
    }
}

/// The two functions dumps write, computed as SQLite would.
fn call(name: &str, args: &[Sql]) -> Result<Sql, String> {
    let text = |value: &Sql| match value {
        Sql::Text(t) => Ok(t.clone()),
        Sql::Integer(n) => Ok(n.to_string()),
        _ => Err(format!("`{name}` of something that is not text")),
    };
    match (name, args) {
        ("replace", [haystack, from, to]) => {
            let (haystack, from, to) = (text(haystack)?, text(from)?, text(to)?);
            Ok(Sql::Text(if from.is_empty() { haystack } else { haystack.replace(&from, &to) }))
        }
        ("char", codes) => codes
            .iter()
            .map(|code| match code {
                Sql::Integer(n) => u32::try_from(*n).ok().and_then(char::from_u32).ok_or(()),
                _ => Err(()),
            })
            .collect::<Result<String, ()>>()
            .map(Sql::Text)
            .map_err(|()| "`char` of something that is not a character code".into()),
        _ => Err(format!("the function `{name}` is not one a dump writes")),
    }
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
        let lines: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        assert_eq!(lines.len(), 4, "{lines:#?}");
        assert!(lines[0].starts_with("dump.sql:1: statement 1 (`ATTACH DATABASE '"), "{lines:#?}");
        assert!(lines[1].starts_with("dump.sql:3: statement 3 (`INSERT INTO x.t"), "{lines:#?}");
        assert!(lines[2].starts_with("dump.sql:6: statement 6: an INSERT into `submissions` without VALUES"));
        assert!(lines[3].starts_with("dump.sql:7: statement 7 (`UPDATE submissions SET`)"), "{lines:#?}");
        let kind: String = conn.query_row("SELECT kind FROM submissions", [], |row| row.get(0)).expect("row");
        assert_eq!(kind, "voice");
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
        let lines: Vec<String> = warnings.iter().map(ToString::to_string).collect();
        let starts = [
            "dump.sql:3: statement 3: a row of `submissions` not read: 2 values for the 4 columns",
            "dump.sql:4: statement 4: a row of `submissions` not read: its `data` is not JSON",
            "dump.sql:5: statement 5: a row of `submissions` not read: the function `load_extension`",
            "dump.sql:6: statement 6 is not SQL portal can read, skipped",
            "dump.sql:7: statement 7, row 2: a row of `submissions` not read: UNIQUE constraint failed",
        ];
        assert_eq!(lines.len(), starts.len(), "{lines:#?}");
        for (line, start) in lines.iter().zip(starts) {
            assert!(line.starts_with(start), "{line}\n  should start with\n{start}");
        }
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
