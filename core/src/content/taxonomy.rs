//! Tags and categories of the published site (docs/content.md#listings-tags-and-categories):
//! `/tags` and `/categories` list every term with how many records carry it, `/tags/<slug>` and
//! `/categories/<slug>` the records themselves.
//!
//! A term's slug is its text lower-cased, with every run of characters that are not letters or
//! digits turned into one `-` (and none at either end). Letters and digits of every script are
//! kept (`Santé` -> `santé`, `مياه نظيفة` -> `مياه-نظيفة`), so terms in Kiswahili, French or
//! Arabic keep readable addresses; terms that slug the same (`Clean water`, `clean-water`) are one
//! term, shown with their most used spelling.

/// The two kinds of terms, with the path of their listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Taxonomy {
    /// Front matter `tags` (a list).
    Tags,
    /// Front matter `category` (one string).
    Categories,
}

impl Taxonomy {
    /// Both, in the order pages list them.
    pub const ALL: [Taxonomy; 2] = [Taxonomy::Tags, Taxonomy::Categories];

    /// `tags` or `categories`: the first path segment of its pages.
    pub fn name(self) -> &'static str {
        match self {
            Taxonomy::Tags => "tags",
            Taxonomy::Categories => "categories",
        }
    }

    /// The URL of the listing of every term (`/tags`).
    pub fn index_url(self) -> String {
        format!("/{}", self.name())
    }

    /// The URL of one term's page (`/tags/<slug>`).
    pub fn term_url(self, slug: &str) -> String {
        format!("/{}/{slug}", self.name())
    }
}

/// The slug of a term; empty when it has no letter or digit at all (such a term gets no page).
pub fn slug(term: &str) -> String {
    let mut out = String::with_capacity(term.len());
    let mut pending_dash = false;
    for c in term.chars() {
        if is_mark(c) && !out.is_empty() && !pending_dash {
            out.push(c);
        } else if c.is_alphanumeric() {
            if pending_dash && !out.is_empty() {
                out.push('-');
            }
            pending_dash = false;
            out.extend(c.to_lowercase());
        } else {
            pending_dash = true;
        }
    }
    out
}

/// Combining marks (accents, Arabic and Hebrew vowel signs, Indic vowel signs) and the zero-width
/// joiners: they belong to the letter before them, so they never split a word.
fn is_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}' | '\u{0483}'..='\u{0489}' | '\u{0591}'..='\u{05C7}' | '\u{0610}'..='\u{061A}'
        | '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{06D6}'..='\u{06ED}' | '\u{0900}'..='\u{0DFF}'
        | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{200C}' | '\u{200D}' | '\u{20D0}'..='\u{20FF}'
        | '\u{FE20}'..='\u{FE2F}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_of_other_characters_become_one_dash() {
        assert_eq!(slug("Clean Water"), "clean-water");
        assert_eq!(slug("  clean -- water!! "), "clean-water");
        assert_eq!(slug("COVID-19"), "covid-19");
        assert_eq!(slug("a_b.c/d"), "a-b-c-d");
        assert_eq!(slug("!!!"), "");
    }

    #[test]
    fn letters_of_every_script_are_kept_lower_cased() {
        assert_eq!(slug("Santé"), "santé");
        assert_eq!(slug("ÉCOLE"), "école");
        assert_eq!(slug("مياه نظيفة"), "مياه-نظيفة");
        assert_eq!(slug("Maji safi"), "maji-safi");
        assert_eq!(slug("مِياه"), "مِياه", "a vowel sign stays with its letter");
        assert_eq!(slug("cafe\u{301} bar"), "cafe\u{301}-bar");
    }

    #[test]
    fn urls_name_the_taxonomy() {
        assert_eq!(Taxonomy::Tags.index_url(), "/tags");
        assert_eq!(Taxonomy::Categories.term_url("health"), "/categories/health");
    }
}
