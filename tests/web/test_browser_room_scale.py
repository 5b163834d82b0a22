"""A room's board in the browser comes during the 3-2-1 and shows at 0 without asking (issue 21: at a school's
scale the phones ask over the 3-2-1, not all at the same instant), on a slowed network."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from .browser import join_on_phone, open_room_on_projector, press


def test_the_board_comes_during_the_3_2_1_and_shows_at_0_without_asking(open_page, server):
    host, code = open_room_on_projector(open_page, server, 60)
    phones = [join_on_phone(open_page, server, code, name) for name in ("Ada", "Bob")]
    asked: dict[int, list[tuple[float, str]]] = {index: [] for index in range(len(phones))}
    for index, phone in enumerate(phones):
        phone.on(
            "request",
            lambda request, index=index: (
                asked[index].append((time.time(), request.url)) if f"/rooms/{code}/play" in request.url else None
            ),
        )
    press(host, "Start")
    for index, phone in enumerate(phones):
        phone.wait_for_selector("#board.board-play", timeout=15_000)
        shown = time.time()
        started = float(phone.locator("#timer").get_attribute("data-server-now"))
        assert started - 0.3 <= shown <= started + 2, (started, shown)  # not before the start, and at once after it
        aheads = [at for at, url in asked[index] if url.endswith("?ahead=1")]
        assert len(aheads) == 1 and aheads[0] < started, asked[index]  # asked for during the 3-2-1
        assert not [url for at, url in asked[index] if at > aheads[0] and not url.endswith("?ahead=1")], asked[index]
        expect(phone.locator("#timer")).not_to_have_text("0:00")
