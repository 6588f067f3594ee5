//! Phone numbers as front matter writes them (docs/content.md#facts): the one parser the pages'
//! `tel:` links and the HSDS API's phones (docs/standards.md#hsds) share.

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
}
