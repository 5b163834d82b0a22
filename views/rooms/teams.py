"""A room played in teams or by the whole class against the board (issue 36): the way to play read from the room's
form, the teams' marks, their ranking and a pupil's team, the class's words together, what the walk-through says, and
the host's move of a pupil to another team. The rules are ruzzle.teams'; this module reads the store for them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from flask import request
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import BadRequest, NotFound

from ruzzle import Found
from ruzzle.frequency import is_common
from ruzzle.room import RoomStage
from ruzzle.teams import (
    MAX_TEAMS,
    ClassProgress,
    Find,
    TeamLine,
    check_mode,
    class_progress,
    missed_first,
    new_to_team,
    team_ink,
    team_style,
    team_totals,
)
from store.rooms import FoundWord, Room, RoomPlayer

from ..numbers import parse_whole_number
from ..rounds import now
from ..translations import gettext
from .core import RoomBoard, back_to_host, bp, host_action, rooms_store, stage_of


def parse_mode(form: MultiDict[str, str]) -> tuple[str, int | None]:
    """The way to play of the room's form (`mode`: solo by default; `teams`: how many, in team mode) and its number of
    teams; a 400 (ruzzle.teams.TeamsRefused) saying why for a way or number the game does not have."""
    mode = form.get("mode") or "solo"
    text = form.get("teams", "").strip()
    teams = parse_whole_number(text, 2, lambda: gettext("The number of teams is a whole number.")) if text else None
    return mode, check_mode(mode, teams)


@dataclass(frozen=True)
class TeamMark:
    """How a page draws a team: its number, its name in the page's language, its colour, the ink written on it and
    its shape (colour is never the only sign)."""

    team: int
    name: str
    colour: str
    ink: str
    shape: str

    @property
    def label(self) -> str:
        """The team as text, shape first (a list of who found a word, a CSV)."""
        return f"{self.shape} {self.name}"


@bp.app_template_global()
def team_mark(team: int) -> TeamMark:
    """Team `team`'s mark, named in the request's language."""
    style = team_style(team)
    return TeamMark(team, gettext(style.name), style.colour, team_ink(team), style.shape)


@dataclass(frozen=True)
class TeamStanding:
    """A team's line on a page: its place, its mark and its line of the ranking (points, words, players)."""

    place: int
    mark: TeamMark
    line: TeamLine


def finds_of(found: Iterable[FoundWord]) -> list[Find]:
    """The store's found words as the rules read them."""
    return [Find(word.player_id, word.word, word.score, word.found_at, word.team) for word in found]


def team_members(players: Iterable[RoomPlayer]) -> Counter[int]:
    """How many pupils each team has now."""
    return Counter(player.team for player in players if player.team is not None)


def team_standings(room: Room, stage: RoomStage | None = None) -> list[TeamStanding]:
    """The room's teams ranked over the rounds its stage counts (a match's, or every round): [] outside team mode."""
    if room.mode != "teams" or room.teams is None:
        return []
    counted = (stage or stage_of(room)).counted
    return rank_teams(room, counted, rooms_store().words_found_in(room, counted))


def rank_teams(room: Room, counted: Iterable[int], rounds: Mapping[int, list[FoundWord]]) -> list[TeamStanding]:
    """The room's teams ranked over the rounds `counted`, from the words found in them."""
    members = team_members(rooms_store().players(room.id))
    ranked = team_totals((finds_of(rounds[number]) for number in counted), room.teams or 0, members)
    return [TeamStanding(place, team_mark(line.team), line) for place, line in ranked]


def teams_json(standings: list[TeamStanding]) -> list[dict[str, object]]:
    """The leaderboard JSON's `teams`: each team ranked by score."""
    return [
        {
            "team": standing.line.team,
            "name": standing.mark.name,
            "score": standing.line.score,
            "words": standing.line.words,
            "players": standing.line.players,
        }
        for standing in standings
    ]


def class_of(room: Room, board: RoomBoard) -> ClassProgress | None:
    """What the whole class found of the round's board together (None outside class mode): distinct words found by
    anyone, the board's words under the room's filter, and their points."""
    if room.mode != "class":
        return None
    found = rooms_store().words_found(room, room.current.number)
    return class_progress(finds_of(found), {word.word: word.score for word in board.solution()})


def class_json(progress: ClassProgress | None) -> dict[str, int] | None:
    """The leaderboard JSON's `class`."""
    if progress is None:
        return None
    return {"found": progress.found, "total": progress.total, "score": progress.score}


@dataclass(frozen=True)
class PupilTeam:
    """A pupil's team as their page shows it: its mark, its place and points (over the rounds that count), and the
    pupil's words of this round that were new to the team (the ones that counted for it)."""

    mark: TeamMark
    standing: TeamStanding | None
    new_words: frozenset[str]


def pupil_team(room: Room, member: RoomPlayer, stage: RoomStage) -> PupilTeam | None:
    """The pupil's team on their page (None outside team mode, or for a seat with no team)."""
    if room.mode != "teams" or member.team is None:
        return None
    rounds = rooms_store().words_found_in(room, {*stage.counted, room.current.number})
    standings = rank_teams(room, stage.counted, rounds)
    found = finds_of(rounds[room.current.number])
    # the team this round is played for (the seat's, unless the round was played before a move)
    mine = next((find.team for find in found if find.player == member.id), member.team)
    standing = next((line for line in standings if line.line.team == mine), None)
    new = frozenset(word for player, word in new_to_team(found) if player == member.id)
    return PupilTeam(team_mark(mine or member.team), standing, new)


def team_finders(found: Iterable[FoundWord]) -> dict[str, list[TeamMark]]:
    """Each word found in the round, with the teams that found it, in the teams' order: what the podium and the
    walk-through say in team mode."""
    teams: dict[str, set[int]] = {}
    for word in found:
        if word.team is not None:
            teams.setdefault(word.word, set()).add(word.team)
    return {word: [team_mark(team) for team in sorted(numbers)] for word, numbers in teams.items()}


def class_walk(room: Room, words: list[Found], finders: Mapping[str, object]) -> list[Found]:
    """The class's walk-through: the words the class missed that it should know (the teacher's words, common words)
    first, then the words it found, then the rarer words it missed; each part in `words`' order."""
    return missed_first(words, finders.keys(), lambda word: word in room.targets or is_common(room.language, word))


@bp.post("/rooms/<code>/players/<int:player_id>/team")
def move_to_team(code: str, player_id: int) -> ResponseReturnValue:
    """The host moves a pupil to another team (`team`: 1 to the room's number): from now on, and this round's words
    with them while it runs (earlier rounds stay with the team they were played for)."""
    room = host_action(code)
    if room.mode != "teams" or room.teams is None:
        raise BadRequest(gettext("Room %(code)s is not played in teams.", code=room.code))
    team = parse_whole_number(request.form.get("team"), 1, lambda: gettext("Choose one of the room's teams."))
    if not 1 <= team <= min(room.teams, MAX_TEAMS):
        raise BadRequest(gettext("Choose one of the room's teams."))
    if rooms_store().move_to_team(room.id, player_id, team, room.current.number, now()) is None:
        raise NotFound(gettext("That player is not in this room (any more)."))
    return back_to_host(room)
