//! Slugs made from text people wrote (a title, a row's id): ASCII letters and digits, Latin
//! accents folded, as content slugs are (docs/content.md#front-matter).

/// The longest slug made from a title (a file name, a URL segment).
pub const MAX_SLUG: usize = 60;

/// The slug of `text`: its letters and digits (Latin accents folded), lower-cased, runs of
/// anything else one `-`, at most [`MAX_SLUG`] characters; empty when it has none (a title in
/// Arabic script, say).
pub fn ascii_slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars().flat_map(fold) {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    if out.len() > MAX_SLUG {
        let cut = out[..MAX_SLUG].rfind('-').filter(|at| *at > MAX_SLUG / 2).unwrap_or(MAX_SLUG);
        out.truncate(cut);
    }
    out.trim_end_matches('-').to_string()
}

/// A Latin letter with a diacritic as its base letters (`é` as `e`, `ß` as `ss`); any other
/// character as it is.
fn fold(c: char) -> Vec<char> {
    let base = match c.to_lowercase().next().unwrap_or(c) {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'ç' | 'ć' | 'č' => "c",
        'ď' | 'đ' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => "e",
        'ğ' => "g",
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' | 'ı' => "i",
        'ł' => "l",
        'ñ' | 'ń' | 'ň' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => "o",
        'ř' => "r",
        'ś' | 'š' | 'ş' => "s",
        'ť' | 'ţ' => "t",
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' => "u",
        'ý' | 'ÿ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        'ß' => "ss",
        'æ' => "ae",
        'œ' => "oe",
        _ => return vec![c],
    };
    base.chars().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accents_fold_and_runs_become_one_dash() {
        assert_eq!(ascii_slug("  Café Amani: Clinic #3 "), "cafe-amani-clinic-3");
        assert_eq!(ascii_slug("مدرسة"), "");
    }
}
