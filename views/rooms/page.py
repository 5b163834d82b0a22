"""A pupil's board page in a room, made once per request: the room, the pupil, the moment, the class's clock, the
board and the pupil's round are each read once, and what the page shows (the lobby, the 3-2-1, the board, the
results) is drawn from them. The routes (`views/rooms/pupil.py`) make one and ask it; the game's engine
(`views/game.py`) answers a word on it as on any board page."""

from __future__ import annotations

import math
from functools import cached_property

from werkzeug.exceptions import Conflict

from ruzzle.game import Round
from ruzzle.room import RoomStage
from store.rooms import Room, RoomPlayer

from ..game import GamePage, PageContext
from ..live import is_live, live_results
from ..rounds import PlayerRound, load_round, now, player_id, round_board
from ..translations import gettext
from .core import (
    Pace,
    RoomBoard,
    find_room,
    not_started_message,
    phase_of,
    require_member,
    room_board,
    room_pace,
    rooms_store,
    stage_of,
)
from .results import RoomResults, player_results, room_results, still_counting
from .teams import class_of, pupil_team, team_mark

BEFORE_START = ("waiting", "countdown")  # the class's phases in which the board is not shown yet


def room_round(room: Room, board: RoomBoard) -> PlayerRound | None:
    """This player's round on the room's current board, made when the round has started: the class's timeline as
    it is now (start, pauses, time added), plus the player's own extra time."""
    if room.current.started is None:
        return None
    played = load_round(board)
    if played is None:
        rooms_store().player_round(room.id, room.current.number, player_id(create=True), round_board(board))
        played = load_round(board)
    return played


class RoomPage(GamePage):
    """A room's board page for its pupil: the room's current board, the class's clock as of the page's moment, the
    pupil's round (their own clock: the class's plus their extra time) and the room's results once it is over."""

    template = "room_play.html"
    word_regions = ["result", "score", "targets"]  # the score with the team's, the teacher's words ticked; no share
    board: RoomBoard

    def __init__(self, room: Room, member: RoomPlayer, moment: float | None = None):
        super().__init__(room_board(room), moment)
        self.room, self.member = room, member
        self.phase = phase_of(room, self.moment)  # the class's clock, read once for the request

    @classmethod
    def of_member(cls, code: str) -> RoomPage:
        """The page of the room of `code` for this browser's pupil: 404 for no room, 403 for a browser not in it."""
        moment = now()
        room = find_room(code, moment)
        return cls(room, require_member(room), moment)

    @property
    def started(self) -> bool:
        """Whether the class's round has started (the board shows, words count)."""
        return self.phase.name not in BEFORE_START

    def require_started(self) -> None:
        """409 before the round starts: the board is not shown yet, nor its words taken."""
        if self.phase.name == "waiting":
            raise Conflict(not_started_message())
        if self.phase.name == "countdown":
            raise Conflict(
                gettext("The round starts in %(seconds)d s: get ready.", seconds=math.ceil(self.phase.starts_in))
            )

    @cached_property
    def played(self) -> PlayerRound | None:
        """The pupil's round on the current board (made on first asking once the round has started; None before)."""
        return room_round(self.room, self.board)

    @property
    def started_round(self) -> PlayerRound:
        """The pupil's round, for a request that made sure the class's has started (`started`, `require_started`)."""
        played = self.played
        assert played is not None, "the class's round has not started"  # a round is made once the class's starts
        return played

    @cached_property
    def pace(self) -> Pace:
        return room_pace(self.room)

    @cached_property
    def stage(self) -> RoomStage:
        return stage_of(self.room)

    def as_of_start(self) -> RoomPage:
        """The same page drawn as of the round's start (the board a phone fetches during the 3-2-1 to show at 0)."""
        return RoomPage(self.room, self.member, self.room.current.started)

    def context(self, round_: Round, message: str | None = None, results: RoomResults | None = None) -> PageContext:
        """The board page's context for a room: the game on the pupil's own clock, and once over, the room's results
        for this pupil (`results`: the room's, when the caller read them already)."""
        context = super().context(round_, message)
        context.update(
            room=self.room,
            member=self.member,
            phase=self.phase,
            pace=self.pace,
            poll_seconds=self.pace.play_seconds,
            stage=self.stage,
            hints_offered=self.room.hints,
            team=pupil_team(self.room, self.member, self.stage),
            together=class_of(self.room, self.board) if context["over"] else None,
        )
        if context["over"]:
            context["results"] = (
                live_results(self.room, self.board, self.member, still_counting(self.room))
                if is_live(self.room)
                else player_results(results or room_results(self.room), self.board, self.member, context["found"])
            )
        return context

    def waiting_context(self, players: list[RoomPlayer]) -> PageContext:
        """The page before the start: who is in, and the 3-2-1 once the host pressed Start."""
        return {
            "room": self.room,
            "request_board": self.board,
            "member": self.member,
            "phase": self.phase,
            "players": players,
            "player_count": self.room.player_count,
            "pace": self.pace,
            "poll_seconds": self.pace.lobby_seconds,
            "countdown": self.phase.starts_in,
            "board": None,
            "clock": self.phase,
            "stage": self.stage,
            "my_team": team_mark(self.member.team) if self.member.team else None,
        }
