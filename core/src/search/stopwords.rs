//! The words of a question that say nothing of what is asked (where, when, is, the...), in English,
//! French, Kiswahili and Arabic: the search page leaves them out (docs/spec/api-spec.md#search-page-ranking),
//! so that "where is the health centre" searches "health centre". All languages are left out
//! whatever the site's, as visitors ask in theirs; a query made only of them is searched as typed.
//!
//! The lists are short and closed-class (question words, articles, pronouns, auxiliaries,
//! prepositions): a word that can be what is searched for (`work`, `help`) is not one of them.

use super::schema::words;

const EN: &str = "a an the is are was were be been am do does did can could shall should will would may might \
    must i me my we our you your he she it its they them their his her what where when who whom which why how \
    to of in on at for from by with about into over under near and or but if then so there here this that these \
    those any some get find want need please tell show give much many";

const FR: &str = "le la les l un une des du de d a au aux et ou est sont etre ai as avons avez ont je j me m moi \
    tu te t vous nous il elle ils elles on ce c cet cette ces mon ma mes ton ta tes son sa ses notre nos votre vos \
    leur leurs qui que qu quoi ou quand comment pourquoi combien quel quelle quels quelles dans sur sous pour par \
    avec sans chez en y ne pas peut puis faire fait veux voudrais trouver";

const SW: &str = "wapi lini nini nani vipi gani kwa nini ni na ya wa za la cha vya kwenye katika kwa mimi wewe \
    yeye sisi ninyi wao iko yuko ziko kuna je au lakini hii hiyo huyu hawa ile pale hapa tafadhali naweza \
    ninawezaje nataka";

const AR: &str = "أين اين متى ماذا ما من هل كيف لماذا كم أي اي في على إلى الى عن مع هو هي هم أنا انا أنت انت نحن \
    هذا هذه ذلك تلك التي الذي و أو او ثم لا لم لن يوجد توجد";

/// Whether `word` (folded, as [`words`] gives it) is a stop word of one of the languages.
pub fn is_stop_word(word: &str) -> bool {
    static FOLDED: std::sync::OnceLock<std::collections::BTreeSet<String>> = std::sync::OnceLock::new();
    FOLDED.get_or_init(|| [EN, FR, SW, AR].iter().flat_map(|list| words(list)).collect()).contains(word)
}

/// Every stop word, folded, in byte order (the static search drops them in the browser alike).
pub fn stop_words() -> Vec<String> {
    let all: std::collections::BTreeSet<String> = [EN, FR, SW, AR].iter().flat_map(|list| words(list)).collect();
    all.into_iter().collect()
}

/// `query`'s words (folded) without its stop words; all of them when they are all stop words.
pub fn meaningful(query: &[String]) -> Vec<String> {
    let kept: Vec<String> = query.iter().filter(|w| !is_stop_word(w)).cloned().collect();
    if kept.is_empty() {
        query.to_vec()
    } else {
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn question_words_do_not_count_in_any_language() {
        assert_eq!(meaningful(&words("Where is the health centre?")), ["health", "centre"]);
        assert_eq!(meaningful(&words("Où est le centre de santé")), ["centre", "sante"]);
        assert_eq!(meaningful(&words("kliniki iko wapi")), ["kliniki"]);
        assert_eq!(meaningful(&words("أين المركز الصحي")), ["مركز", "صحي"], "the article split off too");
        assert_eq!(meaningful(&words("when is")), ["when", "is"]);
        assert!(!is_stop_word("work") && !is_stop_word("help") && !is_stop_word("water"));
    }
}
