"""Live rooms: a class (or friends) plays one board at the same moment, the host's projector shows who is in, the
live ranking, a podium, and walks the class through the words saying who found each one.

Everything lives in the store, so any worker on any host answers any request; pages update by polling (htmx,
every 2 s, less often in a big room) with conditional responses: a poll whose answer has not changed costs a query
and a 304.

By audience: `lobby` (opening, finding and joining a room), `pupil` (a player's pages, on the page object of
`page`), `host` (the host's pages and controls), `players` (the host's actions on a pupil), `remote` (the teacher's
remote link and phone page), `follow` (a pupil's word list or meaning taking them back to the board when the next
round starts), `teams` (a room in teams or as a whole class: issue 36), `clock_poll` (a clock poll with nothing new
answered before Flask); what they share in `core` (the room's board, pace, phase, clock and links, who may ask what,
conditional answers) and `results` (the ranking and the class's view, the same for the whole room).
"""

from . import follow, host, lobby, players, pupil, remote, teams  # noqa: F401  (their routes register on the blueprint)
from .core import (
    BIG_ROOM,
    CLOCK_POLL_SPREAD,
    COUNTDOWN,
    LOBBY_POLLS_PER_SECOND,
    NAMES_LISTED,
    PLAY_POLLS_PER_SECOND,
    POLL_SECONDS,
    RESULTS_POLL_AFTER_END,
    ROOM_IDLE_SECONDS,
    bp,
    clock_poll_seconds,
    find_room,
    pace_of,
    require_host,
    room_board,
    rooms_store,
)
from .results import ranking

__all__ = [
    "BIG_ROOM",
    "CLOCK_POLL_SPREAD",
    "COUNTDOWN",
    "LOBBY_POLLS_PER_SECOND",
    "NAMES_LISTED",
    "PLAY_POLLS_PER_SECOND",
    "POLL_SECONDS",
    "RESULTS_POLL_AFTER_END",
    "ROOM_IDLE_SECONDS",
    "bp",
    "clock_poll_seconds",
    "find_room",
    "pace_of",
    "ranking",
    "require_host",
    "room_board",
    "rooms_store",
]
