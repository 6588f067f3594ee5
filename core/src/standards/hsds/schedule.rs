//! Opening hours as front matter writes them, read into HSDS weekly schedules
//! (docs/standards.md#hsds): `Mon-Fri 09:00-16:00`, `Tue and Thu 9am-3pm`, `24 hours, every day`,
//! a list of such texts, or a map of days to hours (`{mon-fri: "09:00-16:00", sat: closed}`).
//!
//! Only what reads without doubt becomes a schedule: a part that names an ordinal day ("every
//! second Friday"), a date or any other number is left out, and hours that do not parse at all
//! give no schedule. Never an error: the page still shows the hours as written.

use serde_json::Value;

/// One weekly opening: the days (iCalendar `MO`..`SU`, in week order), the times (`HH:MM:SS`, as
/// the HSDS schema has them) and the text it was read from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// iCalendar day codes, in week order.
    pub days: Vec<&'static str>,
    /// When it opens, `HH:MM:SS`.
    pub opens_at: String,
    /// When it closes, `HH:MM:SS` (`23:59:59` for a day open around the clock or to midnight).
    pub closes_at: String,
    /// The part of the hours it was read from.
    pub description: String,
}

const DAYS: [&str; 7] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];

/// Words that make a part's days uncertain: it is left out.
const DOUBTFUL: &[&str] =
    &["first", "second", "third", "fourth", "last", "other", "alternate", "except", "holidays", "holiday", "closed"];

/// The weekly openings of an `hours` value of any shape.
pub fn openings(value: &Value) -> Vec<Opening> {
    match value {
        Value::String(text) => text.split(';').flat_map(|part| part_openings(part.trim())).collect(),
        Value::Array(items) => items.iter().flat_map(openings).collect(),
        Value::Object(map) => map
            .iter()
            .filter_map(|(days, hours)| Some(format!("{days} {}", hours.as_str()?)))
            .flat_map(|part| part_openings(&part))
            .collect(),
        _ => Vec::new(),
    }
}

/// A token of a part: some days, a time range, or something that makes the part doubtful.
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Days(Vec<usize>),
    Range(String, String),
    Doubt,
    Word,
}

/// The openings of one part (between semicolons); none when any of it is doubtful.
fn part_openings(part: &str) -> Vec<Opening> {
    let tokens: Vec<Token> = tokens(part).iter().map(|t| classify(t)).collect();
    if tokens.contains(&Token::Doubt) {
        return Vec::new();
    }
    let mut groups: Vec<(Vec<usize>, String, String)> = Vec::new();
    let mut pending: Vec<usize> = Vec::new();
    for token in tokens {
        match token {
            Token::Days(days) => pending.extend(days),
            // A second time range naming no days ("lunch 12:00-13:00") is doubtful.
            Token::Range(..) if pending.is_empty() && !groups.is_empty() => return Vec::new(),
            Token::Range(opens, closes) => groups.push((std::mem::take(&mut pending), opens, closes)),
            Token::Doubt | Token::Word => {}
        }
    }
    // Days after the hours ("24 hours, every day") belong to hours that named none.
    if let Some(last) = groups.last_mut().filter(|(days, ..)| days.is_empty()) {
        last.0 = pending;
    }
    groups
        .into_iter()
        .map(|(mut days, opens_at, closes_at)| {
            if days.is_empty() {
                days = (0..7).collect();
            }
            days.sort_unstable();
            days.dedup();
            Opening { days: days.iter().map(|d| DAYS[*d]).collect(), opens_at, closes_at, description: part.into() }
        })
        .collect()
}

/// The words of a part, with ranges written as one token (`mon-fri`, `09:00-16:00`, `9am-5pm`).
fn tokens(part: &str) -> Vec<String> {
    let mut text = part.to_lowercase().replace(['\u{2013}', '\u{2014}'], "-");
    for (from, to) in [
        (" to ", "-"),
        (" until ", "-"),
        ("24 hours", "24h"),
        ("24/7", "24h daily"),
        ("around the clock", "24h"),
        ("every day", "daily"),
        (" am", "am"),
        (" pm", "pm"),
        (" a.m.", "am"),
        (" p.m.", "pm"),
    ] {
        text = text.replace(from, to);
    }
    while text.contains(" -") || text.contains("- ") {
        text = text.replace(" -", "-").replace("- ", "-");
    }
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '&')
        .map(|t| t.trim_matches(|c: char| ".()".contains(c)).to_string())
        .filter(|t| !t.is_empty())
        .collect()
}

/// What one token is.
fn classify(token: &str) -> Token {
    if token == "24h" {
        return Token::Range("00:00:00".into(), LAST_SECOND.into());
    }
    if let Some(days) = day_set(token) {
        return Token::Days(days);
    }
    if let Some((from, to)) = token.split_once('-') {
        if let (Some(a), Some(b)) = (day(from), day(to)) {
            let days = if a <= b { (a..=b).collect() } else { (a..7).chain(0..=b).collect() };
            return Token::Days(days);
        }
        if let Some((opens, closes)) = clock_range(from, to) {
            return Token::Range(opens, closes);
        }
    }
    if DOUBTFUL.contains(&token) || token.chars().any(|c| c.is_ascii_digit()) {
        return Token::Doubt;
    }
    Token::Word
}

/// A word naming days: one day (`mon`, `mondays`), `daily`, `weekdays`, `weekends`.
fn day_set(token: &str) -> Option<Vec<usize>> {
    match token {
        "daily" => Some((0..7).collect()),
        "weekdays" => Some((0..5).collect()),
        "weekends" | "weekend" => Some(vec![5, 6]),
        _ => day(token).map(|d| vec![d]),
    }
}

/// The index (Monday 0) of a day name, abbreviated or not, singular or plural.
fn day(word: &str) -> Option<usize> {
    const NAMES: [&[&str]; 7] = [
        &["mon", "monday"],
        &["tue", "tues", "tuesday"],
        &["wed", "weds", "wednesday"],
        &["thu", "thur", "thurs", "thursday"],
        &["fri", "friday"],
        &["sat", "saturday"],
        &["sun", "sunday"],
    ];
    let word = word.trim_end_matches('.');
    let singular = word.strip_suffix('s').filter(|w| w.ends_with("day")).unwrap_or(word);
    NAMES.iter().position(|names| names.contains(&singular))
}

/// Two clock times as `HH:MM`: `09:00`, `9.30`, `9am`, `12:30pm`, `9h`; a bare hour takes the
/// second time's `am`/`pm` when that keeps it first (`9-5pm`), else `am` (`9-12pm`). A range
/// that does not close after it opens is not read.
fn clock_range(from: &str, to: &str) -> Option<(String, String)> {
    let closes = clock(to, None)?;
    let opens = match clock(from, None) {
        Some(opens) => opens,
        None => {
            let meridiem = ["am", "pm"].into_iter().find(|m| to.ends_with(m))?;
            clock(from, Some(meridiem)).filter(|o| *o < closes).or_else(|| clock(from, Some("am")))?
        }
    };
    let fmt = |minutes: u32| format!("{:02}:{:02}:00", minutes / 60, minutes % 60);
    let last = |minutes: u32| if minutes >= 24 * 60 { LAST_SECOND.to_string() } else { fmt(minutes) };
    (opens < closes).then(|| (fmt(opens), last(closes)))
}

/// The last second of a day: HSDS times are `HH:MM:SS` of one day, so midnight at the end of the
/// day (and "24 hours") closes at it.
const LAST_SECOND: &str = "23:59:59";

/// Minutes after midnight of one clock time; `meridiem` stands in for a missing `am`/`pm`. A
/// bare number is no time without one (`3` could be anything).
fn clock(text: &str, meridiem: Option<&str>) -> Option<u32> {
    let (digits, suffix) = match (text.strip_suffix("am"), text.strip_suffix("pm"), text.strip_suffix('h')) {
        (Some(d), ..) => (d, Some("am")),
        (_, Some(d), _) => (d, Some("pm")),
        (.., Some(d)) => (d, Some("h")),
        _ => (text, meridiem),
    };
    let (hours, minutes) = match digits.split_once([':', '.', 'h']) {
        Some((h, m)) => (h, m),
        None if suffix.is_some() => (digits, "0"),
        None => return None,
    };
    let (hours, minutes): (u32, u32) = (hours.parse().ok()?, minutes.parse().ok()?);
    let twelve = matches!(suffix, Some("am" | "pm"));
    if minutes > 59 || hours > 24 || (twelve && !(1..=12).contains(&hours)) {
        return None;
    }
    Some(
        match suffix {
            Some("am") => hours % 12,
            Some("pm") => hours % 12 + 12,
            _ => hours,
        } * 60
            + minutes,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(value: Value) -> Vec<(String, String, String)> {
        openings(&value).into_iter().map(|o| (o.days.join(","), o.opens_at, o.closes_at)).collect()
    }

    fn one(days: &str, opens: &str, closes: &str) -> (String, String, String) {
        (days.into(), opens.into(), closes.into())
    }

    #[test]
    fn day_ranges_with_clock_ranges_are_weekly_schedules() {
        assert_eq!(read(json!("Mon-Fri 09:00-16:00")), [one("MO,TU,WE,TH,FR", "09:00:00", "16:00:00")]);
        assert_eq!(read(json!("Tue and Thu 09:00-15:00")), [one("TU,TH", "09:00:00", "15:00:00")]);
        assert_eq!(read(json!("Wednesdays 17:30 – 19:30")), [one("WE", "17:30:00", "19:30:00")]);
        assert_eq!(
            read(json!("Mon-Fri 08:00-16:00, Sat 09:00-13:00")),
            [one("MO,TU,WE,TH,FR", "08:00:00", "16:00:00"), one("SA", "09:00:00", "13:00:00")]
        );
        assert_eq!(read(json!("Fri-Mon 10:00-12:00")), [one("MO,FR,SA,SU", "10:00:00", "12:00:00")]);
    }

    #[test]
    fn around_the_clock_and_am_pm_are_read() {
        assert_eq!(read(json!("24 hours, every day")), [one("MO,TU,WE,TH,FR,SA,SU", "00:00:00", "23:59:59")]);
        assert_eq!(read(json!("Mon-Sat 9am-5:30pm")), [one("MO,TU,WE,TH,FR,SA", "09:00:00", "17:30:00")]);
        assert_eq!(read(json!("Sat 9 to 12 pm")), [one("SA", "09:00:00", "12:00:00")]);
        assert_eq!(read(json!("weekdays 7.30-17.30")), [one("MO,TU,WE,TH,FR", "07:30:00", "17:30:00")]);
    }

    #[test]
    fn lists_and_maps_of_days_are_read() {
        assert_eq!(read(json!(["Mon 09:00-12:00", "Fri 14:00-16:00"])).len(), 2);
        let map = json!({"mon-fri": "09:00-17:00", "sat": "closed", "sun": 3});
        assert_eq!(read(map), [one("MO,TU,WE,TH,FR", "09:00:00", "17:00:00")]);
    }

    #[test]
    fn doubtful_or_unreadable_hours_give_no_schedule() {
        assert!(read(json!("mobile clinic in Zone C every second Friday 09:00-12:00")).is_empty());
        assert!(read(json!("Distribution days: Zone A 3rd, Zone B 10th, 08:00-16:00")).is_empty());
        assert!(read(json!("women's group Tuesday 14:00")).is_empty());
        assert!(read(json!("by appointment")).is_empty());
        assert!(read(json!("Mon 25:00-26:00")).is_empty());
        assert!(read(json!(42)).is_empty());
        assert_eq!(
            read(json!("Tue and Thu 09:00-15:00; mobile clinic in Zone C every second Friday")),
            [one("TU,TH", "09:00:00", "15:00:00")]
        );
    }
}
