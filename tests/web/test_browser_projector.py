"""The projector on the screens classrooms really have, in Debian's Chromium: nothing clipped from 1024x768 to
1920x1080, labels clear of the letters, the path under them, tiles that stand out, the teacher's own round."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from ruzzle import generate

from .browser import contrast
from .conftest import SCREENSHOTS

SEED = "CLASSX"
SCREENS = [(1024, 768), (1280, 800), (1366, 768), (1920, 1080), (3840, 2160)]


def typed_code(board) -> str:
    """A board as the /solve URL writes it: rows of cells joined by '-'."""
    return "-".join(line.replace(" ", "") for line in str(board).splitlines())


TYPED = {"4x4": "TtlRSNdl-OdwHtwEI-CdwINV-EtlADE", "12x12": typed_code(generate("en", "TYPED9", 12, 12))}
# Every board kind and size at step 0 and at the step showing its longest word (the widest walk-through).
BOARDS = {
    f"{kind}-{size}-{step}": (
        f"/play/en/{SEED}/projector" + ("" if size == "4x4" else f"?size={size}")
        if kind == "seeded"
        else f"/solve/en/{TYPED[size]}/projector",
        "" if step == "step0" else "order=length&step=1",
    )
    for kind in ("seeded", "typed")
    for size in ("4x4", "12x12")
    for step in ("step0", "longest")
}

# Every visible element of the projector's side panel, with its box, and whether its text fits its own box.
PANEL_BOXES = """() => [...document.querySelectorAll('.projector-side *')]
    .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
    .map(e => { const b = e.getBoundingClientRect();
                return {what: e.className || e.tagName, left: b.left, right: b.right, top: b.top, bottom: b.bottom,
                        clipped: e.scrollWidth > e.clientWidth + 1
                                 && getComputedStyle(e).overflowX !== 'visible'}; })"""


def projector_url(server: str, board: str, theme: str) -> str:
    path, query = BOARDS[board]
    query = "&".join(part for part in (query, "theme=dark" if theme == "dark" else "") if part)
    return f"{server}{path}{('&' if '?' in path else '?') + query if query else ''}"


@pytest.mark.parametrize("theme", ["light", "dark"])
@pytest.mark.parametrize("board", BOARDS)
@pytest.mark.parametrize("width, height", SCREENS)
def test_the_projector_panel_is_whole_on_every_classroom_screen(open_page, server, width, height, board, theme):
    page = open_page(viewport={"width": width, "height": height})
    page.goto(projector_url(server, board, theme))
    outside = [
        box
        for box in page.evaluate(PANEL_BOXES)
        if box["left"] < -0.5 or box["top"] < -0.5 or box["right"] > width + 0.5 or box["bottom"] > height + 0.5
    ]
    assert outside == [], f"outside the {width}x{height} screen: {outside[:4]}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    if board.startswith("seeded"):
        seed = page.locator(".join-seed")
        expect(seed).to_have_text(SEED)
        assert seed.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the seed's text is cut"
        assert float(seed.evaluate("e => getComputedStyle(e).fontSize").rstrip("px")) >= 0.05 * height
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"projector-{width}x{height}-{board}-{theme}.png")


GLYPHS_AND_LABELS = """() => [...document.querySelectorAll('#board td')].map(cell => {
    const letter = cell.querySelector('.tile-letter');
    const range = document.createRange();
    range.selectNodeContents(letter);
    const box = range.getBoundingClientRect();
    const context = document.createElement('canvas').getContext('2d');
    context.font = getComputedStyle(letter).font;
    const ink = context.measureText(letter.textContent);
    const baseline = box.top + (box.height + ink.fontBoundingBoxAscent - ink.fontBoundingBoxDescent) / 2;
    const centre = box.left + box.width / 2;
    const glyph = {top: baseline - ink.actualBoundingBoxAscent, bottom: baseline + ink.actualBoundingBoxDescent,
                   left: centre - ink.actualBoundingBoxLeft - (ink.width / 2 - ink.actualBoundingBoxLeft),
                   right: centre - ink.width / 2 + ink.actualBoundingBoxRight};
    const labels = ['.tile-mult', '.tile-value'].map(s => cell.querySelector(s))
        .filter(e => e && getComputedStyle(e).display !== 'none').map(e => e.getBoundingClientRect());
    return {glyph, labels, fontSize: parseFloat(getComputedStyle(letter).fontSize), cell: cell.dataset.cell};
})"""


def overlaps(glyph: dict, label: dict, slack: float = 1.0) -> bool:
    return (
        label["left"] < glyph["right"] - slack
        and label["right"] > glyph["left"] + slack
        and label["top"] < glyph["bottom"] - slack
        and label["bottom"] > glyph["top"] + slack
    )


@pytest.mark.parametrize(
    "where, viewport, path",
    [
        ("projector 4x4", (1920, 1080), f"/play/en/{SEED}/projector"),
        ("projector 12x12", (1920, 1080), f"/play/en/{SEED}/projector?size=12x12"),
        ("projector 12x12 small screen", (1024, 768), f"/play/en/{SEED}/projector?size=12x12"),
        ("phone 12x12", (390, 844), f"/play/en/{SEED}?size=12x12"),
    ],
)
def test_corner_labels_never_cover_a_letter(open_page, server, where, viewport, path):
    page = open_page(viewport={"width": viewport[0], "height": viewport[1]})
    page.goto(f"{server}{path}")
    tiles = page.evaluate(GLYPHS_AND_LABELS)
    covered = [tile["cell"] for tile in tiles for label in tile["labels"] if overlaps(tile["glyph"], label)]
    assert covered == [], f"{where}: labels over the letter on tiles {covered[:8]}"


def test_a_12x12_board_on_a_1920x1080_projector_has_letters_of_60_px(open_page, server):
    page = open_page(viewport={"width": 1920, "height": 1080})
    page.goto(f"{server}/play/en/{SEED}/projector?size=12x12")
    assert min(tile["fontSize"] for tile in page.evaluate(GLYPHS_AND_LABELS)) >= 60


@pytest.mark.parametrize("query", ["", "?size=12x12"])
def test_the_path_passes_under_the_letters(open_page, server, query):
    """Hit-tested with the line made hittable: at a path tile's letter the letter is on top, not the line."""
    page = open_page(viewport={"width": 1280, "height": 800})
    board = f"{server}/play/en/{SEED}"
    page.request.post(f"{board}/round{query}", form={"action": "give-up"})  # the walk-through opens
    page.goto(f"{board}/projector{query}{'&' if query else '?'}step=1")
    hits = page.evaluate("""() => {
        document.querySelector('.trail').style.pointerEvents = 'auto';
        return [...document.querySelectorAll('#board td.on-path')].map(cell => {
            const letter = cell.querySelector('.tile-letter').getBoundingClientRect();
            const hit = document.elementFromPoint(letter.left + letter.width / 2, letter.top + letter.height / 2);
            return Boolean(hit && hit.closest('.tile-face'));
        });
    }""")
    assert hits and all(hits), hits


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_projector_tiles_stand_out_from_the_page(open_page, server, theme):
    page = open_page(viewport={"width": 1280, "height": 800})
    page.goto(f"{server}/play/en/{SEED}/projector" + ("?theme=dark" if theme == "dark" else ""))
    page_colour = page.evaluate("getComputedStyle(document.body).backgroundColor")
    edges = page.locator("#board .tile-face").evaluate_all(
        "faces => faces.map(f => getComputedStyle(f).borderTopColor)"
    )
    weakest = min(contrast(edge, page_colour) for edge in edges)
    assert weakest >= 3, f"a tile's edge is {weakest:.2f}:1 against the page"


def test_a_teacher_whose_own_round_runs_is_told_in_the_main_area_and_sent_back_to_the_step(open_page, server):
    page = open_page(viewport={"width": 1280, "height": 800})
    open_page.allow("status of 403")  # the locked step is a 403 page: not open to this player yet
    page.goto(f"{server}/play/en/{SEED}")  # the teacher tried the board first: their round runs
    page.goto(f"{server}/play/en/{SEED}/projector")
    page.keyboard.press("ArrowRight")
    locked = page.locator(".projector-locked")
    expect(locked).to_contain_text("Your own round on this board is still running")
    assert "step=1" in page.url
    page.get_by_role("button", name="End my round and show word 1").click()
    expect(page.locator(".walk-count")).to_contain_text("Word 1 of")
    assert page.url.endswith("/projector?step=1")
    expect(page.locator(".projector-locked")).to_have_count(0)


@pytest.mark.parametrize("width, height", [(390, 844), (700, 900)])
def test_on_a_narrow_screen_the_projector_stacks_and_scrolls(open_page, server, width, height):
    """Taller than wide (a phone, a narrow window): the panel goes under the board and the page scrolls; nothing
    is cut at the right edge, and the seed can be scrolled to."""
    page = open_page(viewport={"width": width, "height": height})
    page.goto(f"{server}/play/en/{SEED}/projector?size=12x12")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    wider = [box for box in page.evaluate(PANEL_BOXES) if box["right"] > width + 0.5]
    assert wider == []
    seed = page.locator(".join-seed")
    seed.scroll_into_view_if_needed()
    assert seed.evaluate("e => e.scrollWidth <= e.clientWidth + 1")
    last = page.locator(".walk-settings")
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, "the panel's end is reached by scrolling"
    assert page.evaluate("document.documentElement.scrollHeight") > height  # the board and the panel, stacked
