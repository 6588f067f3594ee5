//! "Did you mean": the known name closest to a mistyped one, for every error that names a key,
//! a folder, a collection or a field (content errors, 404s, bad query parameters).

/// Levenshtein distance over Unicode scalar values.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// The candidate closest to `name` (ignoring case), if it is close enough to be a plausible typo:
/// at most a third of its length away (and at least two edits are always allowed), or a
/// candidate that `name` (three characters or more) begins.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let name = name.to_lowercase();
    candidates
        .into_iter()
        .map(|candidate| (edit_distance(&name, &candidate.to_lowercase()), candidate))
        .filter(|(distance, candidate)| {
            *distance <= (candidate.chars().count() / 3).max(2)
                || candidate.starts_with(name.as_str()) && name.len() >= 3
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// Optimal string alignment distance: Levenshtein with a swap of two neighbours as one edit
/// (`titel` is one edit from `title`).
pub fn transposition_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// The known name that `name` almost is, for catching typos of keys that have a meaning (`Draft`,
/// `sumary`, `titel`, `tgas`, `venu`) without flagging unrelated short keys or a site's own: the
/// same name in another case; for names of four characters, two neighbours swapped or one letter
/// missing or extra (never another letter: `data` is not `date`); from five characters one edit
/// away, two from seven. A plural or singular of a known key (`languages`, `addresses`) is a key
/// of its own.
pub fn near_miss<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let length = name.chars().count();
    let allowed = match length {
        0..=3 => 0,
        4..=6 => 1,
        _ => 2,
    };
    let lower = name.to_lowercase();
    let stem = |word: &str| word.to_lowercase().trim_end_matches('s').to_string();
    let plural = |a: &str, b: &str| a.strip_prefix(b).is_some_and(|rest| rest == "s" || rest == "es");
    let own_word = |k: &str| stem(k) == stem(name) || plural(&lower, k) || plural(k, &lower);
    // A short name is only a typo by a slip of the fingers, not by another letter.
    let slip = |k: &str| {
        let (mut a, mut b): (Vec<char>, Vec<char>) = (lower.chars().collect(), k.chars().collect());
        a.sort_unstable();
        b.sort_unstable();
        a == b || k.chars().count() != length
    };
    let known: Vec<&'a str> = known.into_iter().collect();
    if known.contains(&name) {
        return None;
    }
    known
        .into_iter()
        .filter(|k| k.eq_ignore_ascii_case(name) || !own_word(k))
        .map(|k| (if k.eq_ignore_ascii_case(name) { 0 } else { transposition_distance(&lower, k) }, k))
        .filter(|(distance, k)| {
            *distance == 0 && k.eq_ignore_ascii_case(name)
                || *distance > 0 && *distance <= allowed && (length > 4 || slip(k))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_count_edits() {
        assert_eq!(edit_distance("sumary", "summary"), 1);
        assert_eq!(edit_distance("catgory", "category"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("é", "e"), 1);
    }

    #[test]
    fn near_misses_are_typos_of_known_keys_and_nothing_else() {
        let known = ["title", "summary", "category", "draft", "date", "tags"];
        assert_eq!(near_miss("Draft", known), Some("draft"));
        assert_eq!(near_miss("sumary", known), Some("summary"));
        assert_eq!(near_miss("titel", known), Some("title"));
        assert_eq!(near_miss("catgory", known), Some("category"));
        assert_eq!(near_miss("TAGS", known), Some("tags"));
        for fine in ["data", "name", "title", "tag", "venue", "summaries-of-the-day", "titles", "categorys"] {
            assert_eq!(near_miss(fine, known), None, "{fine}");
        }
    }

    #[test]
    fn short_keys_are_typos_only_by_a_slip_of_the_fingers() {
        let known = ["tags", "venue", "date", "address", "zone", "organizer", "organiser"];
        assert_eq!(near_miss("tgas", known), Some("tags"));
        assert_eq!(near_miss("venu", known), Some("venue"));
        assert_eq!(near_miss("adress", known), Some("address"));
        for own in ["data", "done", "tag", "addresses", "venue_notes", "tags_extra", "organiser", "zones", "info"] {
            assert_eq!(near_miss(own, known), None, "{own}");
        }
    }

    #[test]
    fn the_nearest_candidate_is_suggested_and_unrelated_names_get_nothing() {
        let keys = ["title", "summary", "tags", "category"];
        assert_eq!(nearest("titel", keys), Some("title"));
        assert_eq!(nearest("Draft", ["draft"]), Some("draft"));
        assert_eq!(nearest("zzzzzz", keys), None);
    }
}
