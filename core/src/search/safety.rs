//! The search page's safety net (docs/spec/api-spec.md#search-page-help): a query about violence,
//! abuse, rape, an emergency, suicide or a lost child shows the site's help page first, whatever
//! else it finds.
//!
//! The words are a built-in vocabulary in English, French, Kiswahili and Arabic, which a site
//! extends or replaces in `site.yaml` (`search: {help_words, help_words_replace}`,
//! docs/content.md#search-settings). An entry is a word or a phrase; a word ending in `*` matches
//! every word that starts with it (at least [`MIN_STEM_CHARS`] characters before the `*`); a
//! phrase matches when each of its words is in the query, in any order. Entries and queries are
//! folded alike ([`super::schema::words`]: lower case, accents off), so `Violée` matches `violee`.

use std::sync::OnceLock;

use super::schema::words;

/// The shortest stem a `*` entry may have: shorter ones match too many unrelated words.
pub const MIN_STEM_CHARS: usize = 3;

/// The built-in vocabulary, per language (all are checked whatever the site's language: a visitor
/// asks for help in their own).
pub const BUILT_IN: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "violence",
            "violent",
            "beat*",
            "hit me",
            "hits me",
            "hitting me",
            "hurt*",
            "abuse*",
            "abusing",
            "rape*",
            "raping",
            "assault*",
            "molest*",
            "harass*",
            "trafficking",
            "kidnap*",
            "threaten*",
            "emergency",
            "emergencies",
            "ambulance",
            "urgent help",
            "suicid*",
            "kill myself",
            "killing myself",
            "end my life",
            "want to die",
            "lost child",
            "missing child",
            "child missing",
            "child lost",
            "child is missing",
            "gbv",
        ],
    ),
    (
        "fr",
        &[
            "violence*",
            "viol",
            "viols",
            "violee",
            "violees",
            "battu*",
            "frapp*",
            "agress*",
            "harcel*",
            "maltrait*",
            "abus",
            "urgence*",
            "ambulance",
            "aide urgente",
            "suicid*",
            "me tuer",
            "enfant perdu",
            "enfant disparu",
            "enfants perdus",
            "enfants disparus",
        ],
    ),
    (
        "sw",
        &[
            "ubakaji",
            "kubaka",
            "kubakwa",
            "amenibaka",
            "alinibaka",
            "kupigwa",
            "ananipiga",
            "alinipiga",
            "amenipiga",
            "wananipiga",
            "unyanyasaji",
            "kunyanyaswa",
            "ukatili",
            "dhuluma",
            "vurugu",
            "dharura",
            "msaada wa haraka",
            "kujiua",
            "kujitoa uhai",
            "mtoto amepotea",
            "mtoto aliyepotea",
            "mtoto hayupo",
            "gari la wagonjwa",
        ],
    ),
    (
        "ar",
        &[
            "عنف",
            "العنف",
            "اغتصاب",
            "الاغتصاب",
            "اغتصبني",
            "ضرب",
            "يضربني",
            "تضربني",
            "ضربني",
            "تحرش",
            "التحرش",
            "اعتداء",
            "الاعتداء",
            "إساءة",
            "طوارئ",
            "الطوارئ",
            "إسعاف",
            "الإسعاف",
            "مساعدة عاجلة",
            "انتحار",
            "الانتحار",
            "أقتل نفسي",
            "طفل مفقود",
            "طفلي مفقود",
            "طفل ضائع",
        ],
    ),
];

/// One entry, folded: its words, each with whether it is a stem (`*`).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry(Vec<(String, bool)>);

impl Entry {
    /// The entry of `text`, or `None` when it folds to nothing or has a stem too short.
    fn parse(text: &str) -> Option<Entry> {
        let mut parts = Vec::new();
        for part in text.split_whitespace() {
            let stem = part.ends_with('*');
            let folded = words(part.trim_end_matches('*')).join("");
            if folded.is_empty() || stem && folded.chars().count() < MIN_STEM_CHARS {
                return None;
            }
            parts.push((folded, stem));
        }
        (!parts.is_empty()).then_some(Entry(parts))
    }

    /// Whether every word of the entry is among `query` (folded words).
    fn matches(&self, query: &[String]) -> bool {
        self.0
            .iter()
            .all(|(word, stem)| query.iter().any(|q| if *stem { q.starts_with(word.as_str()) } else { q == word }))
    }
}

/// The help words of a site: the built-in vocabulary, extended or replaced by its own.
/// The built-in vocabulary is folded once per process (each request asks it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpWords {
    built_in: Option<&'static [Entry]>,
    own: Vec<Entry>,
}

impl HelpWords {
    /// The built-in vocabulary plus `own` (`replace`: `own` alone).
    pub fn new(own: &[String], replace: bool) -> Self {
        static BUILT: OnceLock<Vec<Entry>> = OnceLock::new();
        let built_in = (!replace).then(|| {
            BUILT
                .get_or_init(|| {
                    BUILT_IN.iter().flat_map(|(_, words)| words.iter().copied()).filter_map(Entry::parse).collect()
                })
                .as_slice()
        });
        HelpWords { built_in, own: own.iter().map(String::as_str).filter_map(Entry::parse).collect() }
    }

    /// Every entry, folded: its words, each with whether it is a stem (`*`), for the static
    /// search, which checks a query in the browser as [`HelpWords::asks_for_help`] does.
    pub fn entries(&self) -> Vec<Vec<(String, bool)>> {
        self.built_in.unwrap_or_default().iter().chain(&self.own).map(|entry| entry.0.clone()).collect()
    }

    /// Whether `query` (as typed) asks for help.
    pub fn asks_for_help(&self, query: &str) -> bool {
        let folded = words(query);
        let mut entries = self.built_in.unwrap_or_default().iter().chain(&self.own);
        !folded.is_empty() && entries.any(|entry| entry.matches(&folded))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crisis_queries_match_after_folding_in_every_language() {
        let help = HelpWords::new(&[], false);
        for query in [
            "husband beats me",
            "Beaten",
            "RAPE",
            "i want to kill myself",
            "my child is missing",
            "Mon mari me frappe",
            "violée",
            "Urgence",
            "mume wangu ananipiga",
            "mtoto amepotea",
            "زوجي يضربني",
            "طفل مفقود",
        ] {
            assert!(help.asks_for_help(query), "{query}");
        }
        for query in ["health centre", "beans", "violin lessons", "lost documents", "child school", "مدرسة"] {
            assert!(!help.asks_for_help(query), "{query}");
        }
    }

    #[test]
    fn a_site_extends_or_replaces_the_vocabulary() {
        let own = vec!["Gefahr".to_string(), "x*".to_string(), "hilfe sofort".to_string()];
        let extended = HelpWords::new(&own, false);
        assert!(extended.asks_for_help("GEFAHR") && extended.asks_for_help("sofort hilfe"));
        assert!(extended.asks_for_help("rape"));
        let replaced = HelpWords::new(&own, true);
        assert!(replaced.asks_for_help("gefahr") && !replaced.asks_for_help("rape"));
        // A stem shorter than MIN_STEM_CHARS is left out rather than matching everything.
        assert!(!replaced.asks_for_help("xylophone"));
    }
}
