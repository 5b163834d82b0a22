"""Each rule of the web pages has one home (docs/ARCHITECTURE.md, "Where each rule lives"): the templates and the
scripts ask it instead of writing it again, so that changing a rule in its home changes every page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruzzle.match import ROUNDS_PER_MATCH
from ruzzle.nicknames import MAX_NICKNAME
from ruzzle.rules import MULTIPLIER_CODES
from views.pages import clock_text

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").glob("*.html"))
SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js"))


def sources_matching(files: list[Path], pattern: str) -> list[str]:
    """The files (and lines) where a pattern occurs."""
    found = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if re.search(pattern, line):
                found.append(f"{path.relative_to(ROOT)}:{number}")
    return found


# --- the m:ss clock ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "seconds, shown",
    [
        (0, "0:00"),
        (None, "0:00"),
        (-3.5, "0:00"),
        (5, "0:05"),
        (59, "0:59"),
        (60, "1:00"),
        (61, "1:01"),
        (120, "2:00"),
        (3600, "60:00"),
        # whole seconds rounded up, as the scripts count: 89.2 s left is "1:30" until the 89th second begins
        (89.2, "1:30"),
        (0.01, "0:01"),
        # a countdown of more than a minute (a room of 20,000 phones, ROOM_PLAYERS raised, counts down 81 s) is not
        # "0:81"
        (81, "1:21"),
    ],
)
def test_every_clock_shows_minutes_and_seconds_rounded_up(seconds, shown):
    assert clock_text(seconds) == shown


def test_no_template_or_script_writes_a_clock_by_itself():
    """Only views/pages.py clock_text (the `clock` filter) and static/js/clock.js turn seconds into m:ss."""
    assert sources_matching(TEMPLATES, r"%0?2d") == []
    assert sources_matching(SCRIPTS, r"padStart\(2") == ["static/js/clock.js:10"]


def test_each_page_with_a_counting_clock_loads_the_clock_script_before_the_scripts_that_count(client):
    for url in ("/play/en/TESTS2", "/play/en/TESTS2/projector"):
        page = client.get(url).get_data(as_text=True)
        scripts = re.findall(r'<script src="[^"]*/js/(\w+)\.[0-9a-f]+\.js"', page)
        assert scripts[0] == "clock" and {"playing", "projector"} & set(scripts), (url, scripts)


# --- the multiplier codes ---------------------------------------------------------------------------------------


def test_the_multiplier_codes_are_written_only_by_the_game():
    """ruzzle.rules.Multiplier names the codes; the typing form's script cycles through the choices the page gives."""
    views = sorted((ROOT / "views").glob("*.py"))
    assert sources_matching(SCRIPTS + views, r"""["'](dl|tl|dw|tw)["']""") == []


def test_the_typing_form_offers_no_multiplier_then_each_multipliers_code_in_order(client):
    page = client.get("/solve?size=2x2").get_data(as_text=True)
    first_tile = page.split('class="typing-multiplier"')[1].split("</select>")[0]
    assert re.findall(r'<option value="(\w*)"', first_tile) == ["", *MULTIPLIER_CODES]


# --- a room's rules: a nickname's length, the lines of a ranking, the rounds of a match -----------------------------


def test_no_template_writes_a_rooms_rule_by_itself():
    """ruzzle.nicknames.MAX_NICKNAME, ruzzle.room's ranking lines and ruzzle.match's rounds, asked by name."""
    assert sources_matching(TEMPLATES, r'name="nickname"[^>]*maxlength="\d') == []
    assert sources_matching(TEMPLATES, r"top = \d|'top3' else \d|\[top, \d\]") == []
    assert sources_matching(TEMPLATES, r"\d rounds") == []
    assert sources_matching(TEMPLATES, r"\d+ characters") == []
    # the podium's lines (ruzzle.room.PODIUM), a class view's words (ruzzle.results.CLASS_VIEW_SHOWN), the default
    # round length (ruzzle.game.DEFAULT_SECONDS): asked, never a bare number
    assert sources_matching(TEMPLATES, r"lines\[:\d|class_view\.\w+\[:\d|seconds == \d") == []


def test_the_pages_take_the_rules_from_their_homes(client):
    start = client.get("/").get_data(as_text=True)
    assert f"Ruzzle match: {ROUNDS_PER_MATCH} rounds, bonus tiles grow" in start
    host = client.post("/rooms", data={"language": "en", "size": "4x4", "time": "60", "preset": "match"})
    code = host.headers["Location"].split("/")[2]
    join = client.get(f"/rooms/{code}").get_data(as_text=True)
    assert f'name="nickname" type="text" maxlength="{MAX_NICKNAME}"' in join
    assert f"(1 to {MAX_NICKNAME} characters; the class sees it)" in join
    assert f"Ruzzle match ({ROUNDS_PER_MATCH} rounds)" in join
