//! Language names people write where a code belongs (`language: swahili`), with the BCP 47 code
//! each stands for, so the error can say what to write (docs/content.md#no-silent-mistakes).
//!
//! A short table rather than a crate: the names here are the ones editors of community sites
//! write (English and own names of the languages of East and Central Africa, the Horn, the Middle
//! East and the large world languages); a code, or a name not in the table, passes unchanged.

/// (name as written, lower case; its BCP 47 code).
const NAMES: &[(&str, &str)] = &[
    ("english", "en"),
    ("french", "fr"),
    ("français", "fr"),
    ("francais", "fr"),
    ("arabic", "ar"),
    ("العربية", "ar"),
    ("swahili", "sw"),
    ("kiswahili", "sw"),
    ("spanish", "es"),
    ("español", "es"),
    ("portuguese", "pt"),
    ("português", "pt"),
    ("somali", "so"),
    ("soomaali", "so"),
    ("amharic", "am"),
    ("tigrinya", "ti"),
    ("oromo", "om"),
    ("afaan oromoo", "om"),
    ("kinyarwanda", "rw"),
    ("kirundi", "rn"),
    ("rundi", "rn"),
    ("luganda", "lg"),
    ("ganda", "lg"),
    ("lingala", "ln"),
    ("hausa", "ha"),
    ("yoruba", "yo"),
    ("igbo", "ig"),
    ("zulu", "zu"),
    ("xhosa", "xh"),
    ("shona", "sn"),
    ("chichewa", "ny"),
    ("nyanja", "ny"),
    ("dinka", "din"),
    ("nuer", "nus"),
    ("acholi", "ach"),
    ("lugbara", "lgg"),
    ("kakwa", "keo"),
    ("bari", "bfa"),
    ("zande", "zne"),
    ("alur", "alz"),
    ("runyankore", "nyn"),
    ("runyankole", "nyn"),
    ("madi", "mhi"),
    ("pashto", "ps"),
    ("dari", "prs"),
    ("persian", "fa"),
    ("farsi", "fa"),
    ("urdu", "ur"),
    ("hindi", "hi"),
    ("bengali", "bn"),
    ("bangla", "bn"),
    ("rohingya", "rhg"),
    ("burmese", "my"),
    ("kurdish", "ku"),
    ("turkish", "tr"),
    ("ukrainian", "uk"),
    ("russian", "ru"),
    ("german", "de"),
    ("deutsch", "de"),
    ("italian", "it"),
    ("dutch", "nl"),
    ("polish", "pl"),
    ("romanian", "ro"),
    ("greek", "el"),
    ("hebrew", "he"),
    ("chinese", "zh"),
    ("mandarin", "zh"),
    ("japanese", "ja"),
    ("korean", "ko"),
    ("vietnamese", "vi"),
    ("thai", "th"),
    ("indonesian", "id"),
    ("malay", "ms"),
    ("tagalog", "tl"),
    ("filipino", "fil"),
    ("tamil", "ta"),
    ("nepali", "ne"),
    ("tigre", "tig"),
    ("sango", "sg"),
    ("kikongo", "kg"),
    ("wolof", "wo"),
    ("fula", "ff"),
    ("fulani", "ff"),
    ("bambara", "bm"),
    ("twi", "tw"),
    ("ewe", "ee"),
    ("malagasy", "mg"),
];

/// The code of a language written by its name (`Swahili`, `kiswahili`), when the table has it.
pub fn code_of_name(written: &str) -> Option<&'static str> {
    let name = written.trim().to_lowercase();
    NAMES.iter().find(|(n, _)| *n == name).map(|(_, code)| *code)
}

/// Why `written` cannot be a language code, with the code to write, when it is a language's name.
pub fn name_instead_of_code(key: &str, written: &str) -> Option<String> {
    let code = code_of_name(written)?;
    Some(format!("`{key}: {written}` is the name of a language: write its code, `{key}: {code}`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_language_name_gets_its_code_and_a_code_nothing() {
        assert_eq!(code_of_name("swahili"), Some("sw"));
        assert_eq!(code_of_name(" Kiswahili "), Some("sw"));
        assert_eq!(code_of_name("العربية"), Some("ar"));
        for code in ["sw", "en", "ar", "sw-KE", "din", "fil"] {
            assert_eq!(code_of_name(code), None, "{code}");
        }
        let message = name_instead_of_code("language", "swahili").expect("a name");
        assert!(message.contains("`language: sw`"), "{message}");
    }
}
