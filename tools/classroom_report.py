"""What a class sees of the words issue 33 named, measured on today's data: the tables of its acceptance list.

    python3 tools/classroom_report.py [--section NAME ...]

Prints Markdown tables: the meanings a classroom-safe board shows for the issue's words (through the app's own
`/define` answer, in class and with the filter off), the Wiktionary links of words without a meaning, each word's
fate on a classroom-safe board (playable or blocked, and the reviewed reason), the nickname rules' rates over the
test lists, the senses hidden in class per language, the native reviews' verdicts, and the interface sentences the
issue named. Nothing here is an answer kept in advance: every figure is read from the data and the app as shipped.
"""

from __future__ import annotations

import argparse
import csv
import functools
import re
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask.testing import FlaskClient  # noqa: E402

from app import create_app  # noqa: E402
from ruzzle import Lexicon, blocked_words, normalize_word  # noqa: E402
from ruzzle.meanings import MEANINGS_DIR, MeaningsLibrary  # noqa: E402
from ruzzle.nicknames import refused_part  # noqa: E402

# The words issue 33 names, as its reviewer wrote them.
MEANING_WORDS = {
    "fr": "METTRE MIS MIT METTAIT METTRA METTENT MIRENT VIE VIT GRAINE PIEU TRIQUE MORUE TETE",
    "de": "VOGELN BUBEN SCHWANZ RANGE",
    "en": "PUSS PETER HE AT IN ME OR US IT AN MEAD",
    "it": "SCOPARE",
    "pt": "ERRADA ERRADAS",
}
LINK_WORDS = {"es": "AÑO ÁRBOL NIÑO CAMIÓN", "de": "MÄDCHEN"}
PLAYABLE_WORDS = {"nl": "NIKKER", "en": "GOOK WOP", "fr": "ZOB CHINETOQUE", "pt": "TESÃO"}
NICKNAME_LISTS = ROOT / "tests" / "data" / "nicknames"
BLOCKLIST_REVIEW = ROOT / "ruzzle" / "data" / "blocklist" / "review"
CATALOGUES = ROOT / "translations"


def table(header: list[str], rows: Iterator[list[str]] | list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def panel(answer: dict[str, object]) -> str:
    """What a panel shows, in a line: the form line, then the senses."""
    senses = answer.get("senses") or []
    assert isinstance(senses, list)
    said = [str(answer["form"] or answer["also"] or "")] if answer.get("form") or answer.get("also") else []
    said += [(f"{sense['pos']}: " if sense["pos"] else "") + sense["gloss"][:110] for sense in senses]
    return " · ".join(said) or "(no meaning)"


@functools.cache
def app_client() -> FlaskClient:
    """A client of the app as shipped (its built-in dictionaries and meanings), made once for the report."""
    return create_app({"TESTING": True}).test_client()


def meanings_section() -> str:
    """The issue's words as a classroom-safe board's panel shows them, beside what the filter off shows."""
    client = app_client()
    rows = []
    for language, words in MEANING_WORDS.items():
        for word in words.split():
            shown = [
                panel(client.get(f"/define/{language}/{word}{query}", headers={"Accept": "application/json"}).json)
                for query in ("", "?safe=0")
            ]
            rows.append([language, word, shown[0], shown[1]])
    return table(["lang", "word", "in class (shown now)", "filter off (safe=0)"], rows)


def links_section() -> str:
    """Words without a meaning and the Wiktionary page they link to."""
    client = app_client()
    rows = []
    for language, words in LINK_WORDS.items():
        for word in words.split():
            answer = client.get(f"/define/{language}/{word}", headers={"Accept": "application/json"})
            rows.append([language, word, str(answer.status_code), "yes" if answer.json["senses"] else "no",
                         str(answer.json["link"])])  # fmt: skip
    return table(["lang", "word", "status", "meaning", "link"], rows)


def reviewed_decisions(language: str) -> dict[str, tuple[str, str]]:
    """The filter's review of a language, as tools/build_blocklist.py writes it (`review/<lang>.tsv`): each word the
    review decided on, its rule and its reason."""
    with (BLOCKLIST_REVIEW / f"{language}.tsv").open(encoding="utf-8") as file:
        rows = csv.DictReader((line for line in file if not line.startswith("#")), delimiter="\t")
        return {row["word"]: (row["rule"], row["reason"]) for row in rows}


def fate(language: str, word: str, lexicon: Lexicon) -> list[str]:
    """A word's fate on a classroom-safe board: in the dictionary, playable, and the review's rule and reason."""
    board_word = normalize_word(word)
    known = board_word in lexicon
    verdict = "blocked" if board_word in blocked_words(language) else "playable" if known else "not a word of it"
    rule, reason = reviewed_decisions(language).get(board_word, ("", ""))
    return [language, board_word, "yes" if known else "no", verdict, f"{rule}: {reason}" if rule else ""]


def words_section() -> str:
    """The issue's words on a classroom-safe board."""
    rows = []
    for language, words in PLAYABLE_WORDS.items():
        lexicon = Lexicon.builtin(language)
        rows += [fate(language, word, lexicon) for word in words.split()]
    return table(["lang", "word", "in dictionary", "safe board", "why"], rows)


def nickname_lines(name: str) -> list[str]:
    """The lines of a nickname test list (comments and blanks left out, \\uXXXX read as the character, as the tests
    read them)."""
    lines = (NICKNAME_LISTS / name).read_text(encoding="utf-8").splitlines()
    return [
        re.sub(r"\\u([0-9a-fA-F]{4})", lambda match: chr(int(match.group(1), 16)), line.strip())
        for line in lines
        if line.strip() and not line.startswith("#")
    ]


def nicknames_section() -> str:
    """Refused and accepted rates of the nickname rules over the test lists, and every real name refused."""
    rows, refused_names = [], []
    for name, should_refuse in (("offensive.txt", True), ("given-names.txt", False), ("ordinary.txt", False)):
        names = sorted(set(nickname_lines(name)))
        refused = {nickname: refused_part(nickname) for nickname in names}
        count = sum(1 for part in refused.values() if part)
        rows.append([name, str(len(names)), f"{count} ({count / len(names):.1%})",
                     f"{len(names) - count} ({(len(names) - count) / len(names):.1%})"])  # fmt: skip
        if not should_refuse:
            refused_names += [[name, nickname, str(part)] for nickname, part in refused.items() if part]
    out = table(["list", "names", "refused", "accepted"], rows)
    return out + "\n\n" + (table(["list", "refused name", "refused word"], refused_names) if refused_names else
                           "No real name or ordinary word is refused.")  # fmt: skip


def hidden_section() -> str:
    """Senses the data marks hidden in class, per language, and the words left with no sense in class."""
    rows = []
    for path in sorted(MEANINGS_DIR.glob("*.marisa")):
        meanings = MeaningsLibrary(MEANINGS_DIR).of(path.stem)
        assert meanings is not None
        senses = hidden = empty = 0
        for _, record in meanings.records():
            senses += len(record.senses)
            hidden_here = sum(sense.hidden for sense in record.senses)
            hidden += hidden_here
            empty += bool(record.senses) and hidden_here == len(record.senses)
        rows.append(
            [path.stem, f"{len(meanings):,}", f"{senses:,}", f"{hidden:,} ({hidden / senses:.1%})", f"{empty:,}"]
        )
    return table(["lang", "words", "senses kept", "hidden in class", "words with no sense of their own in class"], rows)


def reviews_section() -> str:
    """The native reviews' verdicts over each sample of 100 common words' classroom panels."""
    rows = []
    for path in sorted((MEANINGS_DIR / "review").glob("*.tsv")):
        with path.open(encoding="utf-8") as file:
            verdicts = Counter(row["verdict"] or "unreviewed" for row in csv.DictReader(file, delimiter="\t"))
        total = sum(verdicts.values())
        wrong = verdicts["wrong"] + verdicts["unhelpful"]
        rows.append([path.name, str(total), str(verdicts["ok"]), str(wrong), str(verdicts["offensive"]),
                     f"{verdicts['offensive'] / total:.0%}", str(verdicts["unreviewed"])])  # fmt: skip
    return table(["sample", "words", "ok", "wrong or unhelpful", "offensive", "offensive rate", "unreviewed"], rows)


def catalogue_entries(language: str) -> Iterator[tuple[str, str]]:
    """(msgid, msgstr) of a language's catalogue, one line each (plural forms joined)."""
    text = (CATALOGUES / language / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    for block in text.split("\n\n"):
        msgid = "".join(re.findall(r'^msgid "(.*)"$', block, re.M))
        msgstr = " / ".join(re.findall(r'^msgstr(?:\[\d\])? "(.*)"$', block, re.M))
        if msgid:
            yield msgid, msgstr


def catalogue_section() -> str:
    """The interface sentences issue 33 named, counted in the catalogues."""
    rows = []
    french = list(catalogue_entries("fr"))
    rows.append(["fr", "a round of a match says 'manche'", f"{sum('manche' in s for _, s in french)} messages"])
    in_a_match = [m for m, s in french if "partie" in s and "round" in m and re.search(r"match|room", m)]
    rows.append(["fr", "'partie' for a round of a match or a room", str(len(in_a_match))])
    for language in ("fr", "de", "it"):
        english_left = [m for m, s in catalogue_entries(language) if "All rights reserved" in s or "(give-up)" in s]
        rows.append([language, "'All rights reserved.' or '(give-up)' left in English", str(len(english_left))])
    for language in ("es", "pt"):
        person = [s for m, s in catalogue_entries(language) if re.search(r"\b(a|)presentador", s)]
        rows.append([language, "the clicker called a person (presentador)", str(len(person))])
    return table(["lang", "what", "count"], rows)


SECTIONS = {
    "meanings": ("Meanings of the issue's words on a classroom-safe board", meanings_section),
    "links": ("Links out for words without a meaning", links_section),
    "words": ("The issue's words on a classroom-safe board", words_section),
    "nicknames": ("Nicknames: the test lists", nicknames_section),
    "hidden": ("Senses hidden in class", hidden_section),
    "reviews": ("Native reviews of 100 common words' classroom panels", reviews_section),
    "catalogue": ("Interface sentences", catalogue_section),
}


def main(argv: list[str] | None = None) -> None:
    """Print the sections asked for (all by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--section", action="append", choices=sorted(SECTIONS), help="only this section (repeatable)")
    args = parser.parse_args(argv)
    for name in args.section or SECTIONS:
        title, make = SECTIONS[name]
        print(f"## {title}\n\n{make()}\n")


if __name__ == "__main__":
    main()
