"""A word's meaning in Debian's Chromium: opened from the end of a round on a phone, and under the walk-through's
breakdown on a classroom projector, in English and French; screenshots for a person to look at."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from ruzzle import Lexicon, generate, solve
from ruzzle.meanings import MeaningsLibrary

from .browser import serious_violations
from .conftest import SCREENSHOTS

SEED = "MEANIN"
# Where this test leaves its screenshots: the run's screenshot folder, or RUZZLE_MEANINGS_SHOTS.
SHOTS = Path(os.environ.get("RUZZLE_MEANINGS_SHOTS") or SCREENSHOTS / "meanings")


def best_defined_word(language: str) -> tuple[str, str]:
    """The board's best word that has a meaning, and its lemma (the test's expectation, from the data itself)."""
    board = generate(language, SEED, 4, 4, version=2)
    library = MeaningsLibrary()
    for found in sorted(solve(board, Lexicon.builtin(language)), key=lambda found: (-found.score, found.word)):
        meaning = library.define(language, found.word)
        if meaning:
            return found.word, meaning.lemma
    raise AssertionError(f"no word of {language} board {SEED} has a meaning")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_meaning_opens_under_a_missed_word_on_a_phone(open_page, server, language):
    word, lemma = best_defined_word(language)
    page = open_page(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page.goto(f"{server}/play/{language}/{SEED}?gen=2&time=0")
    end = page.locator(".give-up-form button")
    end.click()
    end.click()  # it asks once
    expect(page.locator("#summary-title")).to_be_visible(timeout=15_000)
    page.locator(f'.summary a[href*="/words/{word}"]').first.tap()
    panel = page.locator(f'#result section.meaning[aria-label$="{word}"]')
    expect(panel).to_be_visible()
    expect(panel.locator(".meaning-senses li").first).to_be_visible()
    expect(panel).to_contain_text(lemma)
    panel.scroll_into_view_if_needed()
    box = panel.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, "the panel is wider than the phone"
    assert page.url.endswith(f"/play/{language}/{SEED}?gen=2&time=0"), "the page stayed"
    assert serious_violations(page) == []
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"phone-{language}.png")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_projector_shows_the_meaning_under_the_breakdown_large(open_page, server, language):
    page = open_page(viewport={"width": 1024, "height": 768})
    page.goto(f"{server}/play/{language}/{SEED}/projector?gen=2")
    page.keyboard.press("ArrowRight")  # the teacher reveals the first word
    walk_word = page.locator(".walk-word span[lang]")
    expect(walk_word).to_be_visible()
    panel = page.locator("#walk section.meaning-large")
    expect(panel).to_be_visible()
    # named in the interface's language ("Meaning of RAIN", "Définition de PLUIE"), the word last
    expect(panel).to_have_attribute("aria-label", re.compile(f" {walk_word.inner_text()}$"))
    breakdown = page.locator(".walk-breakdown").bounding_box()
    box = panel.bounding_box()
    assert box["y"] >= breakdown["y"] + breakdown["height"] - 1, "the meaning is under the breakdown"
    assert box["y"] + box["height"] <= 768, "the meaning is on the screen"
    next_button = page.locator("#walk-next").bounding_box()
    assert next_button["y"] + next_button["height"] <= 768, "the walk's Next button is pushed off the screen"
    assert serious_violations(page) == []
    size, letters = (
        float(page.locator(selector).first.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
        for selector in ("#walk .meaning-line", ".walk-breakdown .breakdown-line")
    )
    assert size >= letters, f"the meaning ({size}px) is smaller than the breakdown ({letters}px)"
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SHOTS / f"projector-{language}.png")
