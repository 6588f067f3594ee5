//! Phone numbers as front matter writes them (docs/content.md#facts): the one parser the pages'
//! `tel:` links and the HSDS API's phones (docs/standards.md#hsds) share, and the one finder of
//! numbers inside running text (alerts, bodies, place properties).

use std::ops::Range;

/// The fewest digits a number found in running text has: fewer is more often a year, an amount
/// or a code than a number to call.
const TEXT_MIN_DIGITS: usize = 7;

/// A phone number as a `tel:` target: `+` and digits (`00` read as `+`), else the digits of a
/// local number; `None` for text with too few digits or other letters to be a number.
pub fn telephone(text: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_digit() || " +-().\u{a0}/".contains(c);
    let text = text.trim();
    if text.is_empty() || !text.chars().all(allowed) {
        return None;
    }
    let digits: String = text.chars().filter(char::is_ascii_digit).collect();
    if !(6..=15).contains(&digits.len()) {
        return None;
    }
    if text.starts_with('+') {
        Some(format!("+{digits}"))
    } else if let Some(rest) = digits.strip_prefix("00") {
        Some(format!("+{rest}"))
    } else {
        Some(digits)
    }
}

/// Whether a front-matter key names a phone number: `phone`, `mobile`, `sms`, `whatsapp`, or a key
/// ending in `_phone` or `_line` (`emergency_phone`, `complaints_line`).
pub fn is_phone_key(key: &str) -> bool {
    matches!(key, "phone" | "mobile" | "sms" | "whatsapp" | "tel" | "telephone")
        || key.ends_with("_phone")
        || key.ends_with("_line")
        || key.ends_with("_whatsapp")
}

/// The first phone number inside running `text`: its byte range and `tel:` target. Conservative,
/// since a wrong `tel:` link is worse than none: a number starts a word with `+`, `0`, `(+` or `(0`,
/// runs over digits and single separators (space, `-`, brackets, no-break space), holds 7 to 15
/// digits, is not followed by a letter or digit, and is not a date written with separators
/// (`01-02-2026`). Prices (`12,500,000`), years, times (`07:00`) and codes (`B-12`) never match.
pub fn find(text: &str) -> Option<(Range<usize>, String)> {
    let mut from = 0;
    while let Some(start) = next_start(text, from) {
        if let Some(found) = number_at(text, start) {
            return Some(found);
        }
        from = start + 1;
    }
    None
}

/// The next place at or after `from` where a number may start: `+`, `0` or `(` at the start of a
/// word (not after a letter, digit or a character that joins numbers), before a digit or `+0`.
fn next_start(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    (from..bytes.len()).find(|&i| {
        let opens = match bytes[i] {
            b'+' => bytes.get(i + 1).is_some_and(u8::is_ascii_digit),
            b'0' => true,
            b'(' => matches!(bytes.get(i + 1), Some(b'+' | b'0')),
            _ => false,
        };
        // Checked only where a number opens: an ASCII byte there is a character boundary.
        opens && !text[..i].chars().next_back().is_some_and(|c| c.is_alphanumeric() || "+-.,/:_#@&=".contains(c))
    })
}

/// The number starting at `start`, if the run there is one.
fn number_at(text: &str, start: usize) -> Option<(Range<usize>, String)> {
    let separator = |c: char| " -()\u{a0}".contains(c);
    let mut end = start;
    let mut last = None;
    for (i, c) in text[start..].char_indices() {
        let plus = c == '+' && (i == 0 || last == Some('('));
        // Two separators in a row end a number, except a bracket beside a space (`(0700) 000`).
        let spaced = separator(c) && last.is_none_or(|l| !separator(l) || l == ')' || c == '(');
        if !(c.is_ascii_digit() || plus || spaced) {
            break;
        }
        last = Some(c);
        end = start + i + c.len_utf8();
    }
    let number = text[start..end].trim_end_matches([' ', '-', '(', '\u{a0}']);
    let number =
        if number.matches('(').count() < number.matches(')').count() { number.trim_end_matches(')') } else { number };
    let end = start + number.len();
    let next = text[end..].chars().next();
    let digits = number.chars().filter(char::is_ascii_digit).count();
    if digits < TEXT_MIN_DIGITS || next.is_some_and(|c| c.is_alphanumeric()) || is_date(number) {
        return None;
    }
    telephone(number).map(|tel| (start..end, tel))
}

/// Whether `run` reads as a date: three groups of digits, one of four and two of one or two.
fn is_date(run: &str) -> bool {
    let groups: Vec<usize> = run.split(|c: char| !c.is_ascii_digit()).filter(|g| !g.is_empty()).map(str::len).collect();
    matches!(groups.as_slice(), [4, 1..=2, 1..=2] | [1..=2, 1..=2, 4])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phone_numbers_become_tel_targets_in_e164_where_they_parse() {
        assert_eq!(telephone("+256 700 000 104").as_deref(), Some("+256700000104"));
        assert_eq!(telephone("00256 (700) 000-104").as_deref(), Some("+256700000104"));
        assert_eq!(telephone("0700 000 104").as_deref(), Some("0700000104"));
        assert_eq!(telephone("call 0700"), None);
        assert_eq!(telephone("2026"), None);
    }

    #[test]
    fn phone_keys_are_known_by_name() {
        for key in ["phone", "sms", "whatsapp", "emergency_phone", "complaints_line"] {
            assert!(is_phone_key(key), "{key}");
        }
        assert!(!is_phone_key("email") && !is_phone_key("phones_note"));
    }

    fn found(text: &str) -> Option<(&str, String)> {
        find(text).map(|(range, tel)| (&text[range], tel))
    }

    #[test]
    fn numbers_in_running_text_are_found_with_their_targets() {
        let text = "Report it to +256 700 000 108.";
        assert_eq!(found(text), Some(("+256 700 000 108", "+256700000108".into())));
        assert_eq!(found("call 0800 100 200 (free)"), Some(("0800 100 200", "0800100200".into())));
        assert_eq!(found("desk (0700) 000-106, any hour"), Some(("(0700) 000-106", "0700000106".into())));
        assert_eq!(found("\u{200e}+256 700 000 100 مجاناً"), Some(("+256 700 000 100", "+256700000100".into())));
        assert_eq!(found("Room 12 0700 000 106"), Some(("0700 000 106", "0700000106".into())));
    }

    #[test]
    fn what_is_not_a_number_to_call_is_never_found() {
        for text in [
            "USD 12,500,000 in 2026",
            "open 07:00-17:00, blocks C-1 to C-6 and B-12",
            "from 01-02-2026 to 2026-02-28",
            "version 1.0.0.1234567",
            "ref ABC0700000106 and x+2567000001",
            "0700 00",
            "+256 700",
            "1234567890 without a leading zero",
            "0700000106abc",
        ] {
            assert_eq!(found(text), None, "{text}");
        }
        // Markup around a number is never part of it: the target is only `+` and digits.
        assert_eq!(found("<b onclick=x>+256 700 000 108</b>"), Some(("+256 700 000 108", "+256700000108".into())));
    }
}
