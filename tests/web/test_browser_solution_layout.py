"""The solution page on classroom screens and in the dark: no sideways scrolling from 1024x768 to 1920x1080, the
board, the opened word's breakdown and the list in view together, a dark theme that follows the device."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .browser import contrast, serious_violations
from .conftest import SCREENSHOTS

SEED = "SOLVEX"
SCREENS = [(1024, 768), (1280, 800), (1366, 768), (1920, 1080)]


def open_solution(open_page, server, width, height, size="4x4", **context):
    page = open_page(viewport={"width": width, "height": height}, **context)
    board = f"{server}/play/en/{SEED}"
    query = "" if size == "4x4" else f"?size={size}"
    page.request.post(f"{board}/round{query}", form={"action": "give-up"})  # the solution opens once it ends
    page.goto(f"{board}/solution{query}")
    return page


def in_view(page, locator) -> bool:
    box = locator.bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= -0.5 and box["y"] + box["height"] <= size["height"] + 0.5


@pytest.mark.parametrize("size", ["4x4", "12x12"])
@pytest.mark.parametrize("width, height", SCREENS)
def test_no_sideways_scrolling_and_the_board_breakdown_and_list_in_view_together(
    open_page, server, width, height, size
):
    page = open_solution(open_page, server, width, height, size)
    row = page.locator("#solution_words tbody tr:not(.page-link)").nth(30)
    row.locator("a").click()
    expect(page.locator("#solution_word .breakdown")).to_be_visible()
    row.scroll_into_view_if_needed()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    for part in (
        page.locator("#board"),
        page.locator("#solution_word caption"),
        page.locator("#solution_word .breakdown-total-row"),
        row,
    ):
        assert in_view(page, part), f"not in view at {width}x{height}: {part}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"solution-{width}x{height}-{size}.png")


@pytest.mark.parametrize("how", ["device", "chosen"])
def test_a_dark_theme_from_the_device_or_chosen_on_the_page(open_page, server, how):
    context = {"color_scheme": "dark"} if how == "device" else {}
    page = open_solution(open_page, server, 1280, 800, **context)
    if how == "chosen":
        page.get_by_role("link", name="dark", exact=True).click()
        expect(page.get_by_role("link", name="dark", exact=True)).to_have_attribute("aria-current", "true")
        page.goto(page.url.split("?")[0])  # remembered for this player's next solution pages
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    ink = page.evaluate("getComputedStyle(document.body).color")
    assert contrast(background, "rgb(0, 0, 0)") < 1.5, f"the page is not dark: {background}"
    assert contrast(ink, background) >= 7
    page.locator("#solution_words tbody a").first.click()
    expect(page.locator("#solution_word .breakdown")).to_be_visible()
    assert serious_violations(page) == []
    page.screenshot(path=SCREENSHOTS / f"solution-dark-{how}.png")


def test_the_light_theme_can_be_chosen_on_a_dark_device(open_page, server):
    page = open_solution(open_page, server, 1280, 800, color_scheme="dark")
    page.get_by_role("link", name="light", exact=True).click()
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert contrast(background, "rgb(255, 255, 255)") < 1.2, f"the page is not light: {background}"


@pytest.mark.parametrize("width, height", [(1024, 768), (1920, 1080)])
def test_the_breakdown_and_the_list_keep_to_their_columns(open_page, server, width, height):
    """Side by side, the opened word's breakdown ends before the list begins (it ran over it)."""
    page = open_solution(open_page, server, width, height, "12x12")
    page.goto(page.url + "&sort=length")  # the longest word: the tallest and widest breakdown
    page.locator("#solution_words tbody a").first.click()
    expect(page.locator("#solution_word .breakdown")).to_be_visible()
    breakdown = page.locator("#solution_word .breakdown").bounding_box()
    section = page.locator("#solution_word").bounding_box()
    listing = page.locator("#solution_words").bounding_box()
    assert breakdown["x"] + breakdown["width"] <= section["x"] + section["width"] + 0.5
    assert section["x"] + section["width"] <= listing["x"] + 0.5


@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_a_typed_boards_link_field_shows_the_link(open_page, server, width, height):
    """The typed board's solution page has its link in a field as wide as the page's text (it shrank to 20 px)."""
    page = open_page(viewport={"width": width, "height": height})
    page.goto(f"{server}/solve/en/TtlRSNdl-OdwHtwEI-CdwINV-EtlADE")
    field = page.locator("#share-url")
    expect(field).to_have_value(f"{server}/solve/en/TtlRSNdl-OdwHtwEI-CdwINV-EtlADE")
    assert field.bounding_box()["width"] >= 0.6 * min(width, page.locator(".solution-head").bounding_box()["width"])
