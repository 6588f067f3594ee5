#!/usr/bin/env python3
"""Writes core/data/words/<lang>.txt, the word lists the search page's never-rewrite rule reads
(core/src/search/known.rs): one folded word a line, sorted, each once.

    python3 -m venv /tmp/wf && /tmp/wf/bin/pip install wordfreq==3.1.1
    apt-get download hunspell-sw && dpkg-deb -x hunspell-sw_*.deb /tmp/sw
    /tmp/wf/bin/python scripts/wordlists.py /tmp/sw/usr/share/hunspell/sw_TZ.dic

English, French and Arabic: the most frequent TOP words of wordfreq 3.1.1 (data CC BY-SA 4.0);
Kiswahili, which wordfreq lacks: every word of Debian's hunspell-sw sw_TZ.dic (LGPL-2.1+).
Folding follows the search analyzer (lower case, accents and marks off); Arabic words are also
kept with their letter variants unified, whichever way the analyzer writes them.
"""
import sys
import unicodedata
from pathlib import Path

from wordfreq import top_n_list

TOP = 30000
OUT = Path(__file__).resolve().parents[1] / "core" / "data" / "words"


def fold(word):
    marks = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in marks if not unicodedata.combining(c))


def arabic_variants(word):
    unified = word.translate(str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ة": "ه", "ى": "ي"}))
    return {word.lower(), fold(word), unified, fold(unified)}


def tokens(word):
    """Only single words of letters (the analyzer splits the rest)."""
    return [w for w in [word] if w and all(c.isalpha() for c in w)]


def main():
    lists = {}
    for lang in ("en", "fr", "ar"):
        words = set()
        for word in top_n_list(lang, TOP):
            for w in tokens(word):
                words |= arabic_variants(w) if lang == "ar" else {fold(w)}
        lists[lang] = words
    dic = Path(sys.argv[1]).read_text(encoding="utf-8").splitlines()[1:]
    lists["sw"] = {fold(w) for line in dic for w in tokens(line.split("/")[0].strip())}
    for lang, words in lists.items():
        (OUT / f"{lang}.txt").write_text("".join(w + "\n" for w in sorted(words, key=lambda w: w.encode())))


if __name__ == "__main__":
    main()
