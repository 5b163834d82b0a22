"""The built-in dictionaries: the words a player tries are in, names and abbreviations are out.

The lists were written as a player of each language would write them (common nouns, plurals, verb forms,
accented words as a board spells them), not picked from the dictionaries. Names that are also common words
of the language (French PIERRE "stone", Italian USA "uses", English JOHN) are not in the second list.
"""

import json
import re
import tomllib
from pathlib import Path

import pytest
from conftest import DEMO, LANGUAGE_CODES

from ruzzle import Board, Lexicon, solve
from ruzzle.lexicon import DICTIONARY_DIR

ELZZUR = Path(__file__).parent / "data" / "elzzur"

# Written before looking at the dictionaries (issue 14): at least 60 words a player tries, at least 25 names,
# places, brands, abbreviations and symbols that are no words.
PLAYER_WORDS = tomllib.loads((Path(__file__).parent / "data" / "player_words.toml").read_text(encoding="utf-8"))
SHORT_DIR = Path(__file__).resolve().parent.parent / "dictionaries" / "short"


# Italian and Spanish verb forms with enclitic pronouns are left out (dictionaries/README.md); the tenses
# whose endings look like pronouns stay, and so do pronoun forms the dictionary lists as words of their own.
LANGUAGE_RULES = {
    "verb_forms_with_pronouns_are_out": [
        ("it", "AMARLO PENSARCI ANDARSENE DANDOGLIENE MANGIATELO", False),
        ("es", "COMERLO DICIENDOSELO HABLANDONOS HABLARNOS", False),  # ACABAME, an imperative, is in (issue 23)
    ],
    "tenses_that_end_like_pronouns_are_in": [
        ("it", "AMAVI AMASSI CREDEVI VINCI PONE FINISCI FATTI DORMIVI", True),
        ("es", "COMEMOS HABLAMOS VIMOS", True),
    ],
    "pronoun_forms_listed_as_words_are_in": [("it", "DAMMI DIMMI FALLO ECCOLO VATTENE", True)],
    "german_brands_with_a_capital_inside_are_out": [("de", "STAROFFICE", False)],
    "german_nouns_named_like_people_are_in": [
        ("de", "HAND STADT BACH KOHL FISCHER MULLER RICHTER WOLF LEHRERIN LEHRERINNEN", True)
    ],
    "sharp_s_is_spelled_ss": [("de", "STRASSE FUSS GROSSE SPASS", True)],
    "german_nouns_that_name_lists_have_are_in": [("de", "PUMA PUMAS PODCAST NACKEN MAGIE GIPS PEST", True)],
    "german_inhabitants_of_a_named_place_are_in": [("de", "LONDONER STUTTGARTER PRAGERN", True)],
    # issue 14: each defect the review found
    "spanish_words_in_lo_keep_their_forms": [
        ("es", "LA LAS LE LES LO LOS ELLA ELLAS ELLO ELLOS PUEBLOS MODELOS ESTILOS CICLOS VUELOS TRANQUILOS", True)
    ],
    # issue 23: imperatives with pronouns are in (a player types them); infinitives and gerunds with them stay out
    "spanish_imperatives_with_pronouns_are_in": [
        ("es", "ABANDONALO ABANDONAME OBCECALO PONLO HAZLO DAMELO ABANDONALA ABANDONELO", True)
    ],
    "spanish_forms_the_lo_rule_invents_are_out": [("es", "TRANQUILE TRANQUILES HIJUELE HIJUELES", False)],
    "italian_tenses_ending_like_a_pronoun_are_in": [
        ("it", "VIENE VENNE CONVIENE CREDETTI DOVETTI FECI FACEVI PONEVI VINCEVI AMAVI", True)
    ],
    "italian_participles_with_pronouns_are_out": [("it", "ZAPPATAVI AMATOLO FATTOGLIELO MANGIATOVI", False)],
    "italian_superlatives_of_participles_are_out": [
        ("it", "CAGATISSIMA ZAPPATISSIMO SEMPLICISTICISSIMAMENTE AMATISSIMI", False)
    ],
    "italian_real_superlatives_are_in": [("it", "BELLISSIMO BELLISSIMA GRANDISSIMI", True)],
    "italian_pronouns_and_sedere_are_in": [("it", "MI VI SIEDO SIEDE SIEDONO SEDUTO", True)],
    "french_units_and_symbols_are_out": [("fr", "AKAT NRAD KMOL MMOL KKAT OZ YD UA", False)],
    "german_interjections_are_in": [("de", "NA AH HA", True)],
    "dutch_place_names_and_abbreviations_are_out": [("nl", "RIJN ZEELAND SCHELDE IC ID OV UV WO LIFO", False)],
    # issue 23: the review of OpenTaal's untagged entries (review/nl-flagless.tsv, review/nl-rare-roots.tsv): the
    # junk goes with every form its root makes; what the review kept, and the other roots' forms, stay
    "dutch_untagged_junk_is_out_with_its_forms": [
        (
            "nl",
            "POCUS AEQUO BELG CEYLON KERKE BERDE SLOTTE HEAO DJAK DJAKT DJAKTE HERIGE GLOPEN DOBLE REGDEN ROWANS "
            "HANGELS SCHEE",
            False,
        )
    ],
    "dutch_words_the_untagged_review_kept_are_in": [
        (
            "nl",
            "ALLEEN OOIT AHOI GELACH MOGE LEVE NEME HARE ZIJNE SPRAKE ZOAL ZERE EPEN PAT EX TIJ BEIEREN BEIERT "
            "NOREN GEEP VEEM LANTERT IAAT",
            True,
        )
    ],
    "portuguese_abbreviations_are_out_and_interjections_in": [
        ("pt", "SRA SRAS DRA DRAS ETC PAG SECS", False),
        ("pt", "OI EI", True),
    ],
}


@pytest.mark.parametrize(
    "code, words, present",
    [case for cases in LANGUAGE_RULES.values() for case in cases],
    ids=[f"{rule}-{case[0]}" for rule, cases in LANGUAGE_RULES.items() for case in cases],
)
def test_language_rules(code, words, present):
    lexicon = Lexicon.builtin(code)
    assert [word for word in words.split() if (word in lexicon) != present] == []


@pytest.fixture(scope="module", params=LANGUAGE_CODES)
def dictionary(request) -> tuple[str, Lexicon]:
    """Each language with its built-in dictionary."""
    return request.param, Lexicon.builtin(request.param)


def test_every_language_has_a_built_in_dictionary():
    assert sorted(path.stem for path in DICTIONARY_DIR.glob("*.marisa")) == LANGUAGE_CODES


def test_the_words_a_player_tries_are_found(dictionary):
    code, lexicon = dictionary
    words = PLAYER_WORDS[code]["in"].split()
    assert len(set(words)) >= 60
    assert [word for word in words if word not in lexicon] == []


def test_names_abbreviations_and_symbols_are_not_words(dictionary):
    code, lexicon = dictionary
    words = PLAYER_WORDS[code]["out"].split()
    assert len(set(words)) >= 25
    assert [word for word in words if word in lexicon] == []


def short_review(code: str) -> tuple[set[str], dict[str, str]]:
    data = tomllib.loads((SHORT_DIR / f"{code}.toml").read_text(encoding="utf-8"))
    return {word for line in data["allow"] for word in line.split()}, data.get("deny", {})


def test_every_short_word_was_reviewed_and_allowed(dictionary):
    code, lexicon = dictionary
    allowed, denied = short_review(code)
    short = {word for word in lexicon if len(word) <= 3}
    assert sorted(short - allowed) == []
    assert sorted(short & set(denied)) == []
    assert sorted(allowed - short) == []  # the review matches the dictionary it was made for


def test_every_denied_short_word_has_a_reason(dictionary):
    code, _ = dictionary
    allowed, denied = short_review(code)
    assert [word for word, reason in denied.items() if len(reason) < 10] == []
    assert all(2 <= len(word) <= 3 for word in allowed | set(denied))


def test_every_entry_is_a_board_word(dictionary):
    """Two letters A-Z or more, each entry (one pass of a regular expression over them all, not one of Python's)."""
    _, lexicon = dictionary
    entries = "\n".join(lexicon)
    assert entries and BOARD_WORDS.fullmatch(entries), next(w for w in lexicon if not BOARD_WORDS.fullmatch(w))


BOARD_WORDS = re.compile(r"[A-Z]{2,}(?:\n[A-Z]{2,})*")


# Where our demo board has fewer words than elzzur's, dictionaries/README.md explains the difference word
# by word (elzzur's lists hold names, abbreviations and, in Spanish, verb forms with pronouns); this is the
# count it explains, so that a rebuild may not lose more.
EXPLAINED_DEMO_COUNT = {"en": 235, "es": 304, "de": 134, "nl": 263, "pt": 306}


def test_the_demo_board_has_as_many_words_as_elzzur_finds_or_the_readme_explains(dictionary):
    code, lexicon = dictionary
    board = Board.parse((DEMO / f"{code}.board").read_text(encoding="utf-8"), language=code)
    ours = {found.word for found in solve(board, lexicon)}
    theirs = {entry["word"] for entry in json.loads((ELZZUR / f"{code}.elzzur.json").read_text())["words"]}
    assert len(ours) >= min(len(theirs), EXPLAINED_DEMO_COUNT.get(code, len(theirs)))
