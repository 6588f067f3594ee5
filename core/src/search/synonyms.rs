//! Other words for the same thing, across the languages residents ask in (docs/spec/api-spec.md#search-page-ranking):
//! on the search page a word also matches the other words of its groups, ranked below the word as
//! written, so `عيادة`, `kliniki` and `dispensaire` find the English page that says *clinic*.
//!
//! The groups are a built-in vocabulary of what residents of a settlement ask about (health, water,
//! food, work, school, papers, rights...) in English, French, Kiswahili and Arabic, which a site
//! extends or replaces in `site.yaml` (`search: {synonyms, synonyms_replace}`,
//! docs/content.md#search-settings). Each entry is one word, folded as the index folds words
//! ([`super::schema::words`]); an entry of several words is left out (the page matches words, not
//! phrases). A query word is in a group when it is one of its words, or shares the Snowball stem of
//! one in English, French or Arabic (`emplois` is in the group of `emploi`).

use std::collections::{BTreeSet, HashMap};
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};

use super::schema::words;

/// The most other words one query word matches through its groups: each is looked up in every
/// field of every segment, so a word in many groups costs a bounded amount
/// (docs/spec/api-spec.md#query-limits).
pub const MAX_SYNONYMS: usize = 12;

/// The fewest characters a word needs to be matched to a group by its stem: shorter words are
/// matched as written only (their stems collide across languages).
const MIN_STEM_CHARS: usize = 4;

/// The stemmers a word is matched to a group with: the languages of the vocabulary that have one.
const STEMMED: [Algorithm; 3] = [Algorithm::English, Algorithm::French, Algorithm::Arabic];

/// The built-in groups: one topic each, in English, French, Kiswahili and Arabic.
pub const BUILT_IN: &[&[&str]] = &[
    &[
        "clinic",
        "clinics",
        "dispensary",
        "clinique",
        "cliniques",
        "dispensaire",
        "dispensaires",
        "kliniki",
        "zahanati",
        "عيادة",
        "عيادات",
        "مستوصف",
    ],
    &["hospital", "hospitals", "hôpital", "hôpitaux", "hospitali", "مستشفى", "مستشفيات"],
    &[
        "health",
        "healthcare",
        "medical",
        "santé",
        "médical",
        "médicale",
        "afya",
        "matibabu",
        "صحة",
        "صحي",
        "صحية",
        "طبي",
    ],
    &[
        "doctor",
        "doctors",
        "nurse",
        "nurses",
        "médecin",
        "médecins",
        "infirmier",
        "infirmière",
        "daktari",
        "madaktari",
        "muuguzi",
        "wauguzi",
        "طبيب",
        "أطباء",
        "ممرض",
        "ممرضة",
    ],
    &["water", "eau", "maji", "ماء", "مياه"],
    &["food", "nourriture", "alimentaire", "alimentation", "vivres", "chakula", "طعام", "غذاء", "غذائية"],
    &["distribution", "distributions", "usambazaji", "ugawaji", "توزيع"],
    &[
        "job",
        "jobs",
        "work",
        "employment",
        "vacancy",
        "vacancies",
        "emploi",
        "emplois",
        "travail",
        "kazi",
        "ajira",
        "عمل",
        "وظيفة",
        "وظائف",
    ],
    &["school", "schools", "école", "écoles", "shule", "مدرسة", "مدارس"],
    &["education", "éducation", "enseignement", "elimu", "تعليم"],
    &["registration", "register", "enregistrement", "inscription", "usajili", "kujiandikisha", "kusajili", "تسجيل"],
    &["legal", "law", "lawyer", "juridique", "avocat", "kisheria", "sheria", "wakili", "قانوني", "قانونية", "محامي"],
    &["aid", "assistance", "aide", "msaada", "usaidizi", "مساعدة"],
    &["centre", "center", "centres", "centers", "kituo", "vituo", "مركز", "مراكز"],
    &["shelter", "housing", "abri", "logement", "makazi", "مأوى", "سكن"],
    &["cash", "money", "argent", "espèces", "pesa", "fedha", "نقود", "مال"],
    &["vaccination", "vaccinations", "vaccine", "vaccines", "vaccin", "vaccins", "chanjo", "تطعيم", "لقاح", "لقاحات"],
    &["child", "children", "enfant", "enfants", "mtoto", "watoto", "طفل", "أطفال"],
    &["woman", "women", "femme", "femmes", "mwanamke", "wanawake", "امرأة", "نساء"],
    &[
        "course",
        "courses",
        "class",
        "classes",
        "training",
        "formation",
        "cours",
        "darasa",
        "mafunzo",
        "kozi",
        "دورة",
        "دورات",
        "تدريب",
    ],
    &["language", "languages", "langue", "langues", "lugha", "لغة", "لغات"],
    &["english", "anglais", "kiingereza", "الإنجليزية"],
    &["french", "français", "kifaransa", "الفرنسية"],
    &["swahili", "kiswahili", "السواحيلية"],
    &["phone", "telephone", "téléphone", "simu", "هاتف"],
    &[
        "document",
        "documents",
        "papers",
        "identity",
        "papiers",
        "identité",
        "kitambulisho",
        "hati",
        "وثيقة",
        "وثائق",
        "هوية",
    ],
    &["rights", "droits", "haki", "حقوق"],
    &["refugee", "refugees", "réfugié", "réfugiés", "mkimbizi", "wakimbizi", "لاجئ", "لاجئين"],
    &["market", "marché", "soko", "سوق"],
    &["toilet", "toilets", "latrine", "latrines", "sanitation", "toilettes", "choo", "vyoo", "مرحاض", "مراحيض"],
    &["electricity", "solar", "électricité", "solaire", "umeme", "كهرباء"],
    &["rain", "pluie", "mvua", "مطر", "أمطار"],
    &["event", "events", "événement", "événements", "tukio", "matukio", "فعالية", "فعاليات"],
    &["news", "nouvelles", "actualités", "habari", "أخبار"],
    &["map", "ramani", "خريطة"],
    &[
        "maternity",
        "pregnancy",
        "pregnant",
        "maternité",
        "grossesse",
        "enceinte",
        "uzazi",
        "ujauzito",
        "mjamzito",
        "حمل",
        "حامل",
    ],
    &["teacher", "teachers", "enseignant", "enseignants", "professeur", "mwalimu", "walimu", "معلم", "معلمين", "مدرس"],
    &["interpreter", "interpreters", "interprète", "interprètes", "mkalimani", "wakalimani", "مترجم"],
    &["counselling", "counseling", "psychosocial", "ushauri", "استشارة"],
    &["internet", "wifi", "mtandao", "إنترنت"],
    &["police", "polisi", "شرطة"],
    &["birth", "naissance", "kuzaliwa", "ولادة", "ميلاد"],
];

/// Groups of folded words, and which groups each word (or stem) is in.
#[derive(Debug, Default)]
struct Table {
    groups: Vec<Vec<String>>,
    /// A word as folded, or `<stemmer>:<stem>`, to the groups it is in.
    by_key: HashMap<String, BTreeSet<usize>>,
}

impl Table {
    fn new<'a>(groups: impl IntoIterator<Item = impl IntoIterator<Item = &'a str>>) -> Self {
        let stemmers: Vec<Stemmer> = STEMMED.iter().map(|a| Stemmer::create(*a)).collect();
        let mut table = Table::default();
        for group in groups {
            let folded: Vec<String> = group.into_iter().filter_map(one_word).collect();
            if folded.len() < 2 {
                continue;
            }
            let at = table.groups.len();
            for word in &folded {
                for key in keys(word, &stemmers) {
                    table.by_key.entry(key).or_default().insert(at);
                }
            }
            table.groups.push(folded);
        }
        table
    }

    /// The groups `word` (folded) is in, through any of its keys.
    fn groups_of(&self, word: &str, stemmers: &[Stemmer]) -> BTreeSet<usize> {
        keys(word, stemmers).iter().filter_map(|key| self.by_key.get(key)).flatten().copied().collect()
    }
}

/// `entry` folded, when it is one word.
fn one_word(entry: &str) -> Option<String> {
    let mut folded = words(entry);
    (folded.len() == 1).then(|| folded.remove(0))
}

/// What `word` is looked up by: itself, and its stem in each language when it is long enough.
fn keys(word: &str, stemmers: &[Stemmer]) -> Vec<String> {
    let mut keys = vec![word.to_string()];
    if word.chars().count() >= MIN_STEM_CHARS {
        keys.extend(stemmers.iter().enumerate().map(|(i, s)| format!("{i}:{}", s.stem(word))));
    }
    keys
}

/// The groups the search page matches words through: the built-in ones (unless replaced) and the
/// site's.
#[derive(Debug, Default)]
pub struct Synonyms {
    built_in: Option<&'static Table>,
    own: Table,
}

impl Synonyms {
    /// The built-in groups plus `own` (`replace`: `own` alone).
    pub fn new(own: &[Vec<String>], replace: bool) -> Self {
        static BUILT: OnceLock<Table> = OnceLock::new();
        let built_in = (!replace).then(|| BUILT.get_or_init(|| Table::new(BUILT_IN.iter().map(|g| g.iter().copied()))));
        Synonyms { built_in, own: Table::new(own.iter().map(|g| g.iter().map(String::as_str))) }
    }

    /// The other words of `word`'s groups (folded), at most [`MAX_SYNONYMS`], in the groups' order.
    pub fn of(&self, word: &str) -> Vec<String> {
        if self.own.groups.is_empty() && self.built_in.is_none() {
            return Vec::new();
        }
        let stemmers: Vec<Stemmer> = STEMMED.iter().map(|a| Stemmer::create(*a)).collect();
        let mut others: Vec<String> = Vec::new();
        for table in self.built_in.into_iter().chain(std::iter::once(&self.own)) {
            for group in table.groups_of(word, &stemmers) {
                for other in &table.groups[group] {
                    if other != word && !others.contains(other) && others.len() < MAX_SYNONYMS {
                        others.push(other.clone());
                    }
                }
            }
        }
        others
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(synonyms: &Synonyms, word: &str) -> Vec<String> {
        synonyms.of(&words(word).join(" "))
    }

    #[test]
    fn a_word_matches_the_other_words_of_its_group_in_every_language() {
        let synonyms = Synonyms::new(&[], false);
        let clinic = of(&synonyms, "عيادة");
        assert!(clinic.contains(&"clinic".to_string()) && clinic.contains(&"kliniki".to_string()), "{clinic:?}");
        assert!(of(&synonyms, "maji").contains(&"water".to_string()));
        assert!(of(&synonyms, "Santé").contains(&"health".to_string()), "folded like the index");
        // By stem: the plural of a group's word.
        assert!(of(&synonyms, "emplois").contains(&"jobs".to_string()));
        assert!(of(&synonyms, "registrations").contains(&"usajili".to_string()));
        // The word itself is not repeated, and a word of no group has none.
        assert!(!of(&synonyms, "water").contains(&"water".to_string()));
        assert!(of(&synonyms, "zebra").is_empty());
        // Every group, folded, keeps at least two words (none lost to folding).
        let table = Table::new(BUILT_IN.iter().map(|g| g.iter().copied()));
        assert_eq!(table.groups.len(), BUILT_IN.len());
    }

    #[test]
    fn a_site_extends_or_replaces_the_groups_and_phrases_are_left_out() {
        let own = vec![vec!["borehole".to_string(), "puits".to_string(), "water point".to_string()]];
        let extended = Synonyms::new(&own, false);
        assert_eq!(of(&extended, "borehole"), ["puits"]);
        assert!(of(&extended, "maji").contains(&"water".to_string()));
        let replaced = Synonyms::new(&own, true);
        assert!(of(&replaced, "maji").is_empty());
        assert_eq!(of(&replaced, "puits"), ["borehole"]);
        assert!(Synonyms::new(&[], true).of("water").is_empty());
    }

    #[test]
    fn a_word_in_many_groups_gets_a_bounded_number_of_others() {
        let big: Vec<Vec<String>> =
            (0..5).map(|g| (0..10).map(|w| format!("w{g}x{w}")).chain(["shared".to_string()]).collect()).collect();
        assert_eq!(Synonyms::new(&big, true).of("shared").len(), MAX_SYNONYMS);
    }
}
