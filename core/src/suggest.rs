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
    fn the_nearest_candidate_is_suggested_and_unrelated_names_get_nothing() {
        let keys = ["title", "summary", "tags", "category"];
        assert_eq!(nearest("titel", keys), Some("title"));
        assert_eq!(nearest("Draft", ["draft"]), Some("draft"));
        assert_eq!(nearest("zzzzzz", keys), None);
    }
}
