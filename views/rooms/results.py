"""What is the same for the whole room: the ranking, who found each word, the class's view and its results."""

from __future__ import annotations

import hashlib
import time
from collections import defaultdict
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from flask import current_app, request
from flask.typing import ResponseReturnValue

from ruzzle import Found, sort_found
from ruzzle.results import CLASS_VIEW_SHOWN
from ruzzle.results import class_view as board_class_view
from ruzzle.room import PODIUM, TOP_SHOWN, Ranking, WordToLearn, rank, words_to_learn
from store.room_records import FoundWord
from store.rooms import Room, RoomPlayer

from ..game import MISSED_SHOWN, PageContext
from ..pages import render, wants_json
from ..rounds import now
from ..services import services
from .core import (
    FINAL_FRESH_SECONDS,
    POLL_SECONDS,
    RANKINGS_CACHED,
    RESULTS_POLL_AFTER_END,
    RoomBoard,
    bp,
    conditional,
    find_room,
    phase_of,
    require_member_or_host,
    room_board,
    room_timeline,
    rooms_store,
    stage_of,
)
from .teams import class_json, class_of, team_standings, teams_json

T = TypeVar("T")


def class_first(
    words: Iterable[Found], order: str, finders: dict[str, list[str]], targets: Collection[str] = ()
) -> list[Found]:
    """The room's walk-through: the teacher's target words nobody found (the lesson's point), then the words the class
    found, the most found first (then the rare finds), then the words nobody found; words found as often, and those
    nobody found, in the walk's own order (best first, ...)."""

    def place(found: Found) -> tuple[int, int]:
        count = len(finders.get(found.word, ()))
        return (0 if found.word in targets and not count else 1, -count)

    return sorted(sort_found(words, order), key=place)  # (a stable sort)


def named_finders(room: Room, finders: dict[str, list[str]]) -> Mapping[str, list[str] | None] | None:
    """Who found each word, as the projector may name them (the room's setting): everyone; the top 3 only (a word
    only others found maps to None: found, but by nobody it names); nobody (None)."""
    if room.names == "none":
        return None
    if room.names == "top3":
        top = {line.nickname for line in ranking(room).lines[:PODIUM]}
        return {word: [name for name in names if name in top] or None for word, names in finders.items()}
    return finders


@bp.app_template_global()
def targets_to_find(room: Room, found: Iterable[Found] = ()) -> list[tuple[str, bool]]:
    """The teacher's words the room's boards are built around (as the room keeps them), each with whether this pupil
    found it: the pupil's page lists them as the words to find."""
    mine = {word.word for word in found}
    return [(word, word in mine) for word in room.targets]


def finders_of(room: Room) -> dict[str, list[str]]:
    """Each word found in the room's current round, with the nicknames of who found it (alphabetical)."""
    return _by_word(rooms_store().words_found(room, room.current.number))


def finders_of_word(room: Room, word: str) -> list[str]:
    """The nicknames of who found one word in the room's current round (alphabetical)."""
    return _by_word(rooms_store().words_found(room, room.current.number, word)).get(word, [])


def _by_word(found_words: Iterable[FoundWord]) -> dict[str, list[str]]:
    finders: defaultdict[str, list[str]] = defaultdict(list)
    for found in found_words:
        finders[found.word].append(found.nickname)
    return {word: sorted(names, key=str.casefold) for word, names in finders.items()}


# --- the ranking ---------------------------------------------------------------------------------------------


def ranking(room: Room) -> Ranking:
    """The room's ranking over the rounds that count now (ruzzle.room.rank)."""
    stage = stage_of(room)
    return rank(stage, rooms_store().scores(room, stage.counted))


def live_ranking(room: Room) -> Ranking:
    """The ranking that polls show: computed at most once every ROOM_RANKING_SECONDS per worker and room (100
    phones polling every 2 s then cost one ranking a second, not fifty), so it is at most that much behind."""
    fresh_for = float(current_app.config["ROOM_RANKING_SECONDS"])
    if fresh_for <= 0:
        return ranking(room)
    key = (room.id, len(room.rounds), room.current.started)
    table: Ranking = kept_or_made(services().room_rankings, key, lambda _: fresh_for, lambda: ranking(room))
    return table  # (the process's caches are typed where read)


def kept_or_made(
    cache: dict[Any, tuple[float, T]], key: Hashable, fresh_for: Callable[[T], float], make: Callable[[], T]
) -> T:
    """What a worker keeps for a room under `key` while it is fresh (made less than `fresh_for(it)` seconds ago), else
    made anew by one of the worker's threads while those that ask meanwhile wait and take it: a room's phones ask
    together (its round's end), and each thread making it again cost the worker a ranking per thread."""
    kept = _fresh(cache.get(key), fresh_for)
    if kept is not None:
        return kept
    with services().room_flights.one_at_a_time((id(cache), key)):  # (each cache its own turns)
        kept = _fresh(cache.get(key), fresh_for)  # (made while this thread waited)
        if kept is not None:
            return kept
        if len(cache) > RANKINGS_CACHED:
            cache.clear()  # rooms come and go: what rooms no longer asked for goes with the next clean-out
        made = make()
        cache[key] = (time.monotonic(), made)
        return made


def _fresh(cached: tuple[float, T] | None, fresh_for: Callable[[T], float]) -> T | None:
    if cached is None:
        return None
    made_at, made = cached
    return made if time.monotonic() - made_at < fresh_for(made) else None


@bp.get("/rooms/<code>/leaderboard")
def show_leaderboard(code: str) -> ResponseReturnValue:
    """The ranking as a fragment (htmx polls it) or, for `Accept: application/json`, as JSON (`round` is the room's
    round number; in a match, `match` and `round_in_match` place it, and the totals and `rounds` are the match's): for
    the room's players and hosts only."""
    room = find_room(code)
    require_member_or_host(room)
    table = live_ranking(room)
    phase = phase_of(room, now())
    teams = team_standings(room, table.stage)
    together = class_of(room, room_board(room))
    state = (room.current.number, phase.name, table.state(), teams, together)
    if wants_json():
        team_of = {player.id: player.team for player in rooms_store().players(room.id)}
        return conditional(
            state + (phase.ends_at, room.locked, tuple(team_of.items())),
            lambda etag: {
                "room": room.code,
                "round": room.current.number,
                "rounds": table.rounds,
                "phase": phase.name,
                "match": table.stage.match and table.stage.match.match,
                "round_in_match": table.stage.match and table.stage.match.round,
                "starts_at": room.current.started,
                "ends_at": phase.ends_at,
                "seconds_left": phase.seconds_left,
                "locked": room.locked,
                "mode": room.mode,
                "players": [
                    {
                        "rank": line.rank,
                        "nickname": line.nickname,
                        "score": line.score,
                        "words": line.words,
                        "rounds": list(line.round_scores),
                        "team": team_of.get(line.player_id),
                    }
                    for line in table.lines
                ],
                "teams": teams_json(teams) if room.mode == "teams" else None,
                "class": class_json(together),
            },
            json=True,
        )
    top = TOP_SHOWN if request.args.get("all") != "1" else len(table.lines)
    return conditional(
        state,
        lambda etag: render(
            "_room_leaderboard.html",
            ["leaderboard"],
            room=room,
            ranking=table,
            top=top,
            phase=phase,
            poll_seconds=POLL_SECONDS,
            member_id=None,
            etag=etag,
            teams=teams,
            together=together,
        ),
    )


# --- results ----------------------------------------------------------------------------------------------------


def class_view(room: Room, board: RoomBoard, still_playing: int = 0) -> PageContext:
    """The class's view of the round's board (ruzzle.results.class_view): words by how many found them, the words
    nobody found, the best (with who found it). From the room's shared results: the counts, not every word every
    player found."""
    counts = room_results(room).counts
    view = board_class_view(board.solution(), counts)
    best = view.best
    return {
        "found_by": list(view.found_by[:CLASS_VIEW_SHOWN]),
        "nobody": list(view.nobody[:CLASS_VIEW_SHOWN]),
        "nobody_count": len(view.nobody),
        "best": best,
        "best_finders": finders_of_word(room, best.word) if best else [],
        "total": view.total,
        "found_count": len(view.found_by),
        "still_playing": still_playing,
        "still_counting": bool(still_playing) or still_counting(room),
        "targets": [(word, counts.get(word, 0)) for word in room.targets],
    }


def rounds_to_learn(room: Room) -> list[tuple[int, list[WordToLearn]]]:
    """Every round the room played, with its words to learn (the teacher's words, the rare finds): what the teacher
    downloads at the end of the room."""
    lists = []
    for played in room.rounds:
        if played.started is None:
            continue
        counts = rooms_store().word_counts(room.id, played.number)
        lists.append((played.number, words_to_learn(room_board(room, played.number).solution(), counts, room.targets)))
    return lists


@dataclass(frozen=True)
class RoomResults:
    """What every player's results share at the end of a round: the ranking, how many players found each word, and
    whether words may still land. The same for the whole room, so it is made once per worker and change (at most
    once every ROOM_RANKING_SECONDS), not once per phone; its tag is the same on every worker for the same results,
    so a phone's poll is a 304 on any of them while nothing changed for it."""

    ranking: Ranking
    counts: dict[str, int]  # each word found in the round: how many players found it
    still_counting: bool  # words sent in the last seconds may still land, or a pupil plays on (extra time)
    tag: str

    @property
    def final(self) -> bool:
        return not self.still_counting


def room_results(room: Room) -> RoomResults:
    """The room's results for its current round, as fresh as ROOM_RANKING_SECONDS (more once nothing can land)."""
    key = (room.id, room.current)  # a new round, the host's end, time added: other results
    fresh_for = float(current_app.config["ROOM_RANKING_SECONDS"])
    results: RoomResults = kept_or_made(
        services().room_results,
        key,
        lambda kept: fresh_for if kept.still_counting else FINAL_FRESH_SECONDS,
        lambda: _make_results(room),
    )
    return results


def _make_results(room: Room) -> RoomResults:
    table = ranking(room)
    counts = rooms_store().word_counts(room.id, room.current.number)
    counting = still_counting(room) or bool(rooms_store().still_playing(room.id, room.current.number, now()))
    tag = hashlib.blake2b(repr((table.state(), sorted(counts.items()), counting)).encode(), digest_size=12).hexdigest()
    return RoomResults(table, counts, counting, tag)


def still_counting(room: Room) -> bool:
    """Whether words sent in the round's last seconds may still land (results poll meanwhile)."""
    ends_at = room_timeline(room).ends_at(now())
    return ends_at is not None and now() < ends_at + RESULTS_POLL_AFTER_END


def player_results(shared: RoomResults, board: RoomBoard, member: RoomPlayer, found: list[Found]) -> PageContext:
    """A player's results in the room: rank, score, percentile; their words (`found`) against the room's."""
    table, counts = shared.ranking, shared.counts
    mine = table.of(member.id)
    players = len(table.lines)
    solution = board.solution()
    missed_by_all = [word for word in solution if word.word not in counts]
    return {
        "ranking": table,
        "line": mine,
        "players": players,
        "percentile": table.percentile(member.id),
        "only_you": [word for word in found if counts.get(word.word) == 1],
        "everyone": [word for word in solution if players > 1 and counts.get(word.word) == players],
        "missed_by_all": missed_by_all[:MISSED_SHOWN],
        "missed_by_all_count": len(missed_by_all),
        "still_counting": shared.still_counting,
    }
