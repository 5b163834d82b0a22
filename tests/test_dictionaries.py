"""The built-in dictionaries: the words a player tries are in, names and abbreviations are out.

The lists were written as a player of each language would write them (common nouns, plurals, verb forms,
accented words as a board spells them), not picked from the dictionaries. Names that are also common words
of the language (French PIERRE "stone", Italian USA "uses", English JOHN) are not in the second list.
"""

import json
from pathlib import Path

import pytest

from ruzzle import Board, Lexicon, solve
from ruzzle.lexicon import DICTIONARY_DIR

from conftest import DEMO, LANGUAGE_CODES

ELZZUR = Path(__file__).parent / "data" / "elzzur"

PLAYER_WORDS = {
    "en": "HOUSE HOUSES DOG DOGS CAT WATER SEA SUN MOON LOVE HEART TIME YEAR YEARS MAN MEN WOMAN WOMEN CITY CAFE "
          "TREE TREES CHILD CHILDREN BE AM ARE WAS WERE DO DID DONE GO WENT GONE EAT ATE EATEN SPOKE RED GREEN BIG "
          "BOOK BOOKS NIGHT DAY COLOR COLOUR",
    "it": "CASA CASE CANE CANI GATTO GATTI PANE VINO ACQUA MARE SOLE LUNA AMORE CUORE TEMPO ANNO UOMO UOMINI DONNA "
          "DONNE CITTA CAFFE PERCHE PIU COSI ESSERE SONO SIAMO ERANO FARE FATTO ANDARE VADO ANDIAMO MANGIARE MANGIO "
          "PARLAVA BELLO BELLA BELLI GRANDI ROSSO VERDE TRENO STRADA AMICO AMICHE LIBRI NOTTE GIORNO",
    "es": "CASA CASAS PERRO PERROS GATO GATOS AGUA MAR SOL LUNA AMOR CORAZON TIEMPO ANO ANOS HOMBRE MUJER MUJERES "
          "CIUDAD CAFE ARBOL ARBOLES NINO NINA SER SOY SOMOS ERAN ESTOY FUIMOS HACER HECHO COMER COMIO HABLAR "
          "HABLABA TENGO TIENE CANCION CANCIONES PEZ PECES ROJO VERDE GRANDE LIBRO LIBROS NOCHE DIA",
    "fr": "MAISON MAISONS CHAT CHATS CHIEN EAU MER SOLEIL LUNE AMOUR COEUR OEUVRE ETE HIVER TEMPS HOMME FEMME "
          "FEMMES VILLE CAFE ARBRE ENFANT ENFANTS ETRE SUIS SOMMES ETAIT SERA AVOIR AVAIT FAIRE FAIT ALLER VAIS IRA "
          "MANGER MANGEONS PARLAIT ROUGE VERT GRAND GRANDE LIVRE LIVRES NUIT JOUR",
    "de": "STRASSE GROSSE HAUS HAUSER KATZE HUND HUNDE WASSER MEER SONNE MOND LIEBE HERZ ZEIT JAHR JAHRE MANN FRAU "
          "FRAUEN STADT KAFFEE BAUM BAUME KIND KINDER SEIN BIN SIND WAR HABEN HATTE MACHEN GEMACHT GEHEN GING ESSEN "
          "SPRECHEN ROT GRUN GROSS BUCH BUCHER NACHT TAG TAGE SCHON UBER FUSS",
    "nl": "HUIS HUIZEN KAT KATTEN HOND HONDEN WATER ZEE ZON MAAN LIEFDE HART TIJD JAAR JAREN MAN VROUW VROUWEN STAD "
          "KOFFIE CAFE BOOM BOMEN KIND KINDEREN ZIJN BEN WAS WAREN HEBBEN HAD MAKEN GEMAAKT GAAN GING ETEN AT PRATEN "
          "ROOD GROEN GROOT BOEK BOEKEN NACHT DAG DAGEN IDEE",
    "pt": "CASA CASAS CAO CAES GATO GATOS AGUA MAR SOL LUA AMOR CORACAO TEMPO ANO ANOS HOMEM HOMENS MULHER MULHERES "
          "CIDADE CAFE ARVORE ARVORES CRIANCA SER SOU SOMOS ERAM ESTOU FOMOS FAZER FEITO COMER COMEU FALAR FALAVA "
          "TENHO TEM CANCAO PEIXE VERMELHO VERDE GRANDE LIVRO LIVROS NOITE DIA",
}

# Names, places, brands and abbreviations a player might trace; none of them is a word of the language.
NOT_WORDS = {
    "en": "COHEN VENICE THC LONDON PARIS DAVID MARY NASA USA BBC",
    "it": "ROMA MILANO ITALIA MARIO GIUSEPPE VENEZIA TEVERE RAI IRAN TRUMAN CINZIA NAPOLI TORINO ONU FBI",
    "es": "MADRID ESPANA JUAN MARIA PEDRO SEVILLA BARCELONA MEXICO ONU EEUU AMON NOE PABLO",
    "fr": "NANTES FRANCE DUPONT TOULOUSE LYON ERIC SNCF ONU TGV MARSEILLE NICOLAS RENAULT MICHEL",
    "de": "BERLIN HAMBURG MUNCHEN WIEN DEUTSCHLAND MOZART GOETHE THOMAS MERKEL KUBA USA CDU CSU BMW EUROPA RHEIN "
          "LONDON PETER",
    "nl": "AMSTERDAM NEDERLAND ROTTERDAM PIETER UTRECHT HENK AJAX KLM ANWB NOS EU",
    "pt": "LISBOA PORTUGAL BRASIL JOAO MARIA PEDRO AMERICA EVORA CAIRO RAMIREZ IRC",
}


# Italian and Spanish verb forms with enclitic pronouns are left out (dictionaries/README.md); the tenses
# whose endings look like pronouns stay, and so do pronoun forms the dictionary lists as words of their own.
LANGUAGE_RULES = {
    "verb_forms_with_pronouns_are_out": [
        ("it", "AMARLO PENSARCI ANDARSENE DANDOGLIENE MANGIATELO", False),
        ("es", "ACABAME COMERLO DICIENDOSELO HABLANDONOS", False),
    ],
    "tenses_that_end_like_pronouns_are_in": [
        ("it", "AMAVI AMASSI CREDEVI VINCI PONE FINISCI FATTI DORMIVI", True),
        ("es", "COMEMOS HABLAMOS VIMOS", True),
    ],
    "pronoun_forms_listed_as_words_are_in": [("it", "DAMMI DIMMI FALLO ECCOLO VATTENE", True)],
    "german_brands_with_a_capital_inside_are_out": [("de", "STAROFFICE", False)],
    "german_nouns_named_like_people_are_in": [
        ("de", "HAND STADT BACH KOHL FISCHER MULLER RICHTER WOLF LEHRERIN LEHRERINNEN", True)],
    "sharp_s_is_spelled_ss": [("de", "STRASSE FUSS GROSSE SPASS", True)],
    "german_nouns_that_name_lists_have_are_in": [("de", "PUMA PUMAS PODCAST NACKEN MAGIE GIPS PEST", True)],
    "german_inhabitants_of_a_named_place_are_in": [("de", "LONDONER STUTTGARTER PRAGERN", True)],
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
    words = PLAYER_WORDS[code].split()
    assert len(words) >= 30
    assert [word for word in words if word not in lexicon] == []


def test_names_and_abbreviations_are_not_words(dictionary):
    code, lexicon = dictionary
    assert [word for word in NOT_WORDS[code].split() if word in lexicon] == []


def test_every_entry_is_a_board_word(dictionary):
    _, lexicon = dictionary
    lengths = {len(word) for word in lexicon}
    assert min(lengths) >= 2
    assert all(word.isascii() and word.isalpha() and word.isupper() for word in lexicon)


# Where our demo board has fewer words than elzzur's, dictionaries/README.md explains the difference word
# by word (elzzur's lists hold names, abbreviations and, in Spanish, verb forms with pronouns); this is the
# count it explains, so that a rebuild may not lose more.
EXPLAINED_DEMO_COUNT = {"en": 235, "es": 308, "de": 137, "nl": 302, "pt": 309}


def test_the_demo_board_has_as_many_words_as_elzzur_finds_or_the_readme_explains(dictionary):
    code, lexicon = dictionary
    board = Board.parse((DEMO / f"{code}.board").read_text(encoding="utf-8"), language=code)
    ours = {found.word for found in solve(board, lexicon)}
    theirs = {entry["word"] for entry in json.loads((ELZZUR / f"{code}.elzzur.json").read_text())["words"]}
    assert len(ours) >= min(len(theirs), EXPLAINED_DEMO_COUNT.get(code, len(theirs)))
