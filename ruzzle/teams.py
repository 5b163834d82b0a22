"""Ways to play a room: each pupil for themselves (`solo`), in teams (`teams`), or the whole class against the board
(`class`). The rules of the last two, pure over what the store counted: where a pupil joining is placed, what a team
scores (a word counts once per team, with the points of the first teammate who found it), which of a pupil's words
were new to their team, and what the class found together. The views ask them (`views/rooms/`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from .errors import N_, RuzzleError
from .results import in_order, standing


class Worded(Protocol):
    """Anything with a word (a board's Found, a word to learn)."""

    @property
    def word(self) -> str: ...


T = TypeVar("T", bound=Worded)

MODES = ("solo", "teams", "class")  # a room's way to play, chosen when it opens; solo is the default
MIN_TEAMS, MAX_TEAMS = 2, 8
DEFAULT_TEAMS = 2


@dataclass(frozen=True)
class TeamStyle:
    """How a team is told apart on a projector and a phone: its name (said in the room's language), a colour that
    reads on a projector, and a shape beside it for pupils who do not tell those colours apart."""

    name: str
    colour: str
    shape: str


# The Okabe-Ito palette (distinct for the common colour blindnesses), each with a shape of its own; the names are
# animals no child uses as an insult (no whales, seals or pigs).
TEAM_STYLES = (
    TeamStyle(N_("Foxes"), "#D55E00", "▲"),
    TeamStyle(N_("Owls"), "#0072B2", "●"),
    TeamStyle(N_("Bees"), "#E69F00", "■"),
    TeamStyle(N_("Frogs"), "#009E73", "◆"),
    TeamStyle(N_("Dolphins"), "#56B4E9", "★"),
    TeamStyle(N_("Ladybirds"), "#CC79A7", "✚"),
    TeamStyle(N_("Penguins"), "#000000", "⬟"),
    TeamStyle(N_("Squirrels"), "#8C564B", "⬢"),
)


class TeamsRefused(RuzzleError):
    """A room's way to play, or its number of teams, that the game does not have."""


def check_mode(mode: str, teams: int | None) -> int | None:
    """The number of teams of a room opened in `mode` (None outside team mode); TeamsRefused saying why."""
    if mode not in MODES:
        raise TeamsRefused(N_("A room is played solo, in teams or as a class, not %(mode)r."), mode=mode[:20])
    if mode != "teams":
        return None
    if teams is None:
        return DEFAULT_TEAMS
    if not MIN_TEAMS <= teams <= MAX_TEAMS:
        raise TeamsRefused(
            N_("A room has %(least)d to %(most)d teams, not %(teams)d."), least=MIN_TEAMS, most=MAX_TEAMS, teams=teams
        )
    return teams


def team_style(team: int) -> TeamStyle:
    """The style of team `team` (1, 2, …)."""
    return TEAM_STYLES[(team - 1) % MAX_TEAMS]


def relative_luminance(colour: str) -> float:
    """A `#RRGGBB` colour's relative luminance (WCAG 2)."""
    channels = [int(colour[index : index + 2], 16) / 255 for index in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """The WCAG contrast ratio of two `#RRGGBB` colours (1 to 21)."""
    light, dark = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def team_ink(team: int) -> str:
    """The colour of text written on team `team`'s colour: black or white, whichever contrasts more."""
    colour = team_style(team).colour
    return max(("#000000", "#FFFFFF"), key=lambda ink: contrast(colour, ink))


def place_newcomer(sizes: Sequence[int]) -> int:
    """The team (1, 2, …) a pupil joining is placed in: the smallest (`sizes[i]`: team i+1's pupils), the first of
    the smallest on a tie, so teams stay balanced as pupils come in."""
    if not sizes:
        raise ValueError("a room in team mode has teams")
    return min(range(len(sizes)), key=lambda index: (sizes[index], index)) + 1


@dataclass(frozen=True)
class Find:
    """A word a player found in a round, as the store took it: its points and the moment it was taken, and the team
    the player played that round for (None outside team mode)."""

    player: int
    word: str
    points: int
    at: float
    team: int | None = None


def first_finds(finds: Iterable[Find]) -> dict[tuple[int | None, str], Find]:
    """Each word once per team: the find of the first teammate who found it (the earliest taken; on the same moment,
    the lower player id)."""
    first: dict[tuple[int | None, str], Find] = {}
    for find in finds:
        key = (find.team, find.word)
        kept = first.get(key)
        if kept is None or (find.at, find.player) < (kept.at, kept.player):
            first[key] = find
    return first


@dataclass(frozen=True)
class TeamLine:
    """A team's line of a ranking: its points (each word once, the first finder's points), its words and players,
    and when it reached its score (the tie-break)."""

    team: int
    score: int
    words: int
    players: int
    reached: float | None


def team_ranking(finds: Iterable[Find], teams: int, members: Mapping[int, int]) -> list[tuple[int, TeamLine]]:
    """Every team of a room ranked, best first, with its place: points of its words (each once), a tie to the team
    that reached its score first, then the lower number. `members`: each team's number of players (a team nobody
    joined has a line too, at 0)."""
    scores: dict[int, list[Find]] = {team: [] for team in range(1, teams + 1)}
    for (team, _word), find in first_finds(finds).items():
        if team in scores:
            scores[team].append(find)
    lines = [
        TeamLine(
            team,
            sum(find.points for find in kept),
            len(kept),
            members.get(team, 0),
            max((find.at for find in kept), default=None),
        )
        for team, kept in scores.items()
    ]
    ranked = sorted(lines, key=lambda line: standing(line.score, line.reached, 0.0, line.team))
    return list(enumerate(ranked, start=1))


def new_to_team(finds: Iterable[Find]) -> set[tuple[int, str]]:
    """The (player, word) pairs whose word was new to the player's team when they found it: the finds that count for
    the team."""
    return {(find.player, find.word) for find in first_finds(finds).values()}


@dataclass(frozen=True)
class ClassProgress:
    """The whole class against the board: the distinct words anyone found, of the board's words, and their points."""

    found: int
    total: int
    score: int


def class_progress(finds: Iterable[Find], board_words: Mapping[str, int]) -> ClassProgress:
    """What the class found together of a board (`board_words`: each word of the board, under the room's filter,
    with its points): each word once, whoever found it."""
    found = {find.word for find in finds if find.word in board_words}
    return ClassProgress(len(found), len(board_words), sum(board_words[word] for word in found))


def team_totals(rounds: Iterable[Iterable[Find]], teams: int, members: Mapping[int, int]) -> list[tuple[int, TeamLine]]:
    """Every team ranked over several rounds (a match, a room's rounds): each round's words counted once per team
    (`team_ranking`), the points added up over the rounds (`match_team_totals`), words too; a tie to the team that
    reached its total first, then the lower number."""
    rankings = [team_ranking(finds, teams, members) for finds in rounds]
    totals = match_team_totals(rankings)
    words: dict[int, int] = {}
    reached: dict[int, float | None] = {}
    for ranking in rankings:
        for _place, line in ranking:
            words[line.team] = words.get(line.team, 0) + line.words
            if line.reached is not None:
                reached[line.team] = max(reached.get(line.team) or line.reached, line.reached)
    lines = [
        TeamLine(team, totals.get(team, 0), words.get(team, 0), members.get(team, 0), reached.get(team))
        for team in range(1, teams + 1)
    ]
    ranked = in_order(lines, lambda line: standing(line.score, line.reached, 0.0, line.team))
    return ranked


def missed_first(words: Sequence[T], found: Collection[str], common: Callable[[str], bool]) -> list[T]:
    """The class's walk-through: the words nobody found that a class should know (common words) first, then the words
    the class found, then the rarer words nobody found; each part in the walk's own order (a stable sort)."""

    def part(word: T) -> int:
        if word.word in found:
            return 1
        return 0 if common(word.word) else 2

    return sorted(words, key=part)


def match_team_totals(rounds: Iterable[Iterable[tuple[int, TeamLine]]]) -> dict[int, int]:
    """A match's team totals: each team's points added up over its rounds."""
    totals: dict[int, int] = {}
    for ranking in rounds:
        for _place, line in ranking:
            totals[line.team] = totals.get(line.team, 0) + line.score
    return totals
