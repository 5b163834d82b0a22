"""Common and rare words (ruzzle.frequency, from wordfreq): every language has its list, made of its words."""

import pytest
from conftest import LANGUAGE_CODES

from ruzzle import Lexicon, common_words, is_common

# everyday words that must be common, and real but rare dictionary words that must not
COMMON = {
    "en": "HOUSE WATER GREEN",
    "de": "HAUS WASSER GRUN",
    "es": "CASA AGUA VERDE",
    "fr": "MAISON EAU VERT",
    "it": "CASA ACQUA VERDE",
    "nl": "HUIS WATER GROEN",
    "pt": "CASA AGUA VERDE",
}
RARE = {
    "en": "ICHOR TROCHE",
    "de": "ABDRIFTETEST ABFORDERNDEM",
    "es": "ABOCETAIS ABORRAJAREN",
    "fr": "ABACULE",
    "it": "ABBACCHIAMENTI",
    "nl": "AANRAAKRAND AAGTAPPEL",
    "pt": "ABESOIRAR ABJURASSES",
}


@pytest.mark.parametrize("code", LANGUAGE_CODES)
def test_common_words_are_dictionary_words_and_a_minority(code):
    lexicon = Lexicon.builtin(code)
    common = common_words(code)
    assert all(word in lexicon for word in common)
    assert 0.01 * len(lexicon) < len(common) < 0.5 * len(lexicon)


@pytest.mark.parametrize("code", LANGUAGE_CODES)
def test_everyday_words_are_common_and_obscure_ones_rare(code):
    lexicon = Lexicon.builtin(code)
    assert [w for w in COMMON[code].split() if not is_common(code, w)] == []
    rare = [w for w in RARE[code].split() if w in lexicon]
    assert rare and not any(is_common(code, w) for w in rare)
