"""A contest's ``contest.toml``: what the contest is, written for a person to read and edit, and
the presets of the courses; the secret seed beside it (``DIR/secret``), the team-name rule and the
closing time.

``contest.toml`` holds nothing secret: it may be published with the board. The secret seed, from
which every game's seed is derived (``arcade.seeds.season_seed``), is in ``DIR/secret`` (mode 0600).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from arcade.files import write_whole
from bots.limits import DEFAULT_MEMORY_MIB, SANDBOXES, Limits

CONFIG = "contest.toml"
SECRET = "secret"
FORMATS = ("all-pairs", "ladder")
SCORINGS = ("wins", "exact")
FIELDS = {"all-pairs": (), "ladder": ("ladder_sigma", "ladder_games"), "wins": (), "exact": ("table_seconds",)}
"""Each format's and each scoring's own fields of ``contest.toml`` (written only where they count).
What a format does with them is ``arcade.contest.formats``' (the layer above: the config names its
formats, the formats play them)."""
ONLY = {"exact": {"game": ("hog",), "format": ("all-pairs",)}}
"""A scoring's conditions on the other fields: exact scoring is Hog's alone (a strategy that is a
function of the scores) and computes every pair (all-pairs', not a ladder's)."""
POINTS = ("stats306", "cs4341", "none")
CLOSING = ("", "groups")
DEFAULT_TEAMS = r"^[a-z_]+$"
SAFE_TEAM = re.compile(r"[A-Za-z0-9_-]{1,40}")
"""Whatever a contest's own rule says, a team's name is also at most 40 letters, digits, ``_`` or
``-``: it names files of the contest's folder and shows on the board as it is."""


class ContestError(ValueError):
    """A contest that cannot do what was asked (a message for the user, one line)."""


@dataclass(frozen=True)
class Config:
    """A contest: the ``game`` and its ``options``, ``games`` a pair, the ``format``, the
    ``scoring`` (``wins``; ``exact``: Hog's exact win chances), the ``points`` rule, the
    ``teams`` rule (a regular expression), the closing time (``closes``, ISO 8601, ``""``: never),
    the closing stage (``closing``: ``groups`` plays CS4341's groups over the final field), the
    limits of a move, the submissions' cap (``max_bytes``) and the probe's positions; a ladder's
    stopping rule (``ladder_sigma``, ``ladder_games``: ``arcade.contest.ladder``); exact scoring's
    budget for a strategy's whole table (``table_seconds``: ``arcade.contest.hog_exact``), which
    replaces a move's time there."""

    game: str
    options: dict = field(default_factory=dict)
    games: int = 100
    format: str = "all-pairs"
    scoring: str = "wins"
    points: str = "stats306"
    teams: str = DEFAULT_TEAMS
    closes: str = ""
    closing: str = ""
    time: float | None = None
    memory_mib: int = DEFAULT_MEMORY_MIB
    sandbox: str = "auto"
    max_bytes: int = 1 << 20
    probe_positions: int = 6
    ladder_sigma: float = 2.0
    ladder_games: int = 60
    packages: list = field(default_factory=list)
    wheels: str = ""
    table_seconds: float = 60.0

    @property
    def limits(self) -> Limits:
        return Limits.from_cli(self.time, self.memory_mib, self.sandbox)

    def closing_time(self) -> datetime | None:
        return parse_time(self.closes) if self.closes else None

    def closed(self, now: datetime | None = None) -> bool:
        closes = self.closing_time()
        return closes is not None and (now or datetime.now(timezone.utc)) >= closes

    def make_game(self):
        from arcade.catalog import load

        return load(self.game)(**self.options)


PRESETS: dict[str, dict[str, Any]] = {
    "stats306": {"game": "dfootball", "options": {"n": 11}, "games": 100, "points": "stats306"},
    "cs4341": {"game": "othello", "options": {"time_limit": 10.0}, "games": 2, "closing": "groups", "points": "cs4341"},
    "robot-ludo": {"game": "ludo", "options": {"preset": "contest"}, "games": 20, "points": "none"},
    "cs61a-hog": {"game": "hog", "options": {"goal": 100}, "games": 100, "scoring": "exact", "points": "none"},
    "toothpicks": {"game": "toothpicks", "options": {}, "games": 10, "points": "none"},
}
"""The courses' contests: STATS 306's D-Football (n = 11, 100 games a pair, the score its wins,
its points rule), CS4341's Othello (10 s a move, groups at the close, its extra credit), the Robot Ludo challenge
(its tournament script's ``tournament(12, 36, (9, 27), …, 10, …)``: 12 counters on 36 squares,
10 games a pairing with each engine entered as red and as blue, so 20 a pair), CS 61A's Hog
(exact win chances) and Toothpick Takeaway. Only STATS 306 and CS4341 stated points; the others
have none (``points = "none"``). README's "Contest seasons" gives each rule's source."""


def parse_time(text: str) -> datetime:
    """An ISO 8601 time; one without a zone is UTC. ``ContestError`` if it is none."""
    try:
        when = datetime.fromisoformat(str(text).strip())
    except ValueError:
        raise ContestError(f"closing time {text!r} is not an ISO time (write 2018-12-15T12:00:00-05:00)") from None
    return when if when.tzinfo else when.replace(tzinfo=timezone.utc)


def check(config: Config) -> Config:
    """``config`` with its game's options made whole (``game.settings``), every field checked;
    ``ContestError`` saying what is wrong."""
    from arcade.catalog import UnknownGame
    from bots.limits import LimitsError
    from games.base import OptionError

    choices = {"format": FORMATS, "scoring": SCORINGS, "points": POINTS, "closing": CLOSING, "sandbox": SANDBOXES}
    for name, valid in choices.items():
        if getattr(config, name) not in valid:
            raise ContestError(f"{name} must be one of {', '.join(v or '(empty)' for v in valid)}, "
                               f"not {getattr(config, name)!r}")
    for name, low in (("games", 1), ("max_bytes", 1), ("probe_positions", 1), ("memory_mib", 0)):
        value = getattr(config, name)
        if type(value) is not int or value < low:
            raise ContestError(f"{name} must be a whole number from {low}, not {value!r}")
    if config.points == "cs4341" and config.closing != "groups":
        raise ContestError("points = \"cs4341\" are the course's extra credit from its tournament: "
                           "closing_stage must be \"groups\"")
    for name, allowed in ONLY.get(config.scoring, {}).items():
        if getattr(config, name) not in allowed:
            raise ContestError(f"scoring = \"{config.scoring}\" is for {name} = "
                               f"{' or '.join(repr(a) for a in allowed)} alone, not {getattr(config, name)!r}")
    sigma = config.ladder_sigma
    if type(sigma) not in (int, float) or not 0 < sigma <= 100:
        raise ContestError(f"ladder_sigma must be a number above 0 (a rating's uncertainty), not {sigma!r}")
    if type(config.ladder_games) is not int or config.ladder_games < 1:
        raise ContestError(f"ladder_games must be a whole number from 1, not {config.ladder_games!r}")
    if not isinstance(config.packages, (list, tuple)) or not all(
            isinstance(name, str) and re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?", name)
            for name in config.packages):
        raise ContestError(f"packages must be a list of package names (\"numpy\", \"torch\"), not {config.packages!r}")
    if not isinstance(config.wheels, str):
        raise ContestError(f"wheels must be a folder's path (empty: the package index), not {config.wheels!r}")
    if type(config.table_seconds) not in (int, float) or not 0 < config.table_seconds <= 86_400:
        raise ContestError(f"table_seconds must be a number of seconds above 0 (a strategy's whole table), "
                           f"not {config.table_seconds!r}")
    try:
        re.compile(config.teams)
    except (re.error, TypeError) as exc:
        raise ContestError(f"the team-name rule {config.teams!r} is no regular expression ({exc})") from None
    config.closing_time()
    try:
        config.limits
        settings = dict(config.make_game().settings)
    except (UnknownGame, OptionError, LimitsError, TypeError) as exc:
        raise ContestError(str(exc)) from None
    return replace(config, options={k: list(v) if isinstance(v, tuple) else v for k, v in settings.items()})


def check_team(config: Config, team: str) -> None:
    """``ContestError`` unless ``team`` matches the contest's rule (and ``SAFE_TEAM``); a name
    outside it is refused, never cleaned into another (someone else's)."""
    from arcade.untrusted import clean

    if not (SAFE_TEAM.fullmatch(team) and re.search(config.teams, team)):
        raise ContestError(f"team name {clean(repr(team), cap=80)} does not match the contest's rule "
                           f"{config.teams} (and at most 40 letters, digits, _ or -)")


# -- contest.toml ---------------------------------------------------------------------------------

HEADER = """\
# A contest of the contest arcade: arcade contest submit|run|standings|status DIR.
# Edit with care while it runs: a pair's games are those of its games_per_pair and limits.
# The secret seed is in the file 'secret' beside this one, never here: this file may be published.
"""

COMMENTS = {
    "game": "the game (arcade options GAME lists its options)",
    "format": "all-pairs: every current submission plays every other; ladder: ratings, pairs chosen",
    "games_per_pair": "each pair's games, each side first in half (a ladder: each meeting's)",
    "scoring": "wins: a team's score is its wins; exact (Hog): a pair computed, not played, counts its expected\n"
               "# wins (games_per_pair x the exact win chance from the two strategies' tables); the board adds\n"
               "# each strategy's exact win rate against always_roll(6), the course's own score",
    "points": "stats306: 6 for the top score, 5 x score / high score for the rest; cs4341: the course's extra "
              "credit from its closing groups (2 a win, 1 a draw, 5 for a game completed, 5 when the new player "
              "beat the original, who play first); none",
    "team_names": "a team's name must match this rule",
    "closes": "ISO time after which nothing is accepted (empty: never)",
    "closing_stage": "groups: CS4341's groups over the final field, once closed (empty: none)",
    "max_bytes": "the most a submission's own files may hold (packages installed for it not counted)",
    "probe_positions": "positions of real games a submission must answer to be accepted",
    "ladder_sigma": "the ladder stops for an entry once its rating's uncertainty (sigma) is below this",
    "ladder_games": "... or once it has played this many games (or its place is settled: README)",
    "packages": "the packages a submission's requirements.txt may name, installed by arcade bot install's rules",
    "wheels": "where those packages come from: a folder of wheels (relative to this folder), or empty: the index",
    "table_seconds": "exact scoring: seconds a strategy has for its whole table, asked in each of two fresh\n"
                     "# processes (no time a move, as the course's; over it: scored by sampled games)",
}


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in text) + '"'


def dumps(config: Config) -> str:
    """``config`` as ``contest.toml``'s text, each field with a comment saying what it is."""
    top = {"game": config.game, "format": config.format, "games_per_pair": config.games,
           "scoring": config.scoring, "points": config.points, "team_names": config.teams,
           "closes": config.closes, "closing_stage": config.closing, "max_bytes": config.max_bytes,
           "probe_positions": config.probe_positions}
    top |= {name: getattr(config, name) for name in FIELDS[config.format] + FIELDS[config.scoring]}
    top |= {"packages": list(config.packages), "wheels": config.wheels}
    lines = [HEADER]
    for key, value in top.items():
        lines.append(f"# {COMMENTS[key]}\n{key} = {_toml(value)}\n")
    lines.append("[options]  # the game's options\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in config.options.items()))
    limits = ["[limits]", "# time: seconds a move (absent: the game's, the course's); memory_mib: a bot's cap (0: none)"]
    if config.time is not None:
        limits.append(f"time = {_toml(config.time)}")
    limits += [f"memory_mib = {config.memory_mib}", f"sandbox = {_toml(config.sandbox)}  # auto, bwrap or none", ""]
    lines.append("\n".join(limits))
    return "\n".join(lines)


def loads(text: str) -> Config:
    """A ``Config`` from ``contest.toml``'s text, checked (``check``)."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ContestError(f"{CONFIG} is not TOML: {exc}") from None
    limits = data.pop("limits", {})
    names = {"games_per_pair": "games", "team_names": "teams", "closing_stage": "closing"}
    fields = {names.get(k, k): v for k, v in data.items()}
    fields.update({k: limits[k] for k in ("time", "memory_mib", "sandbox") if k in limits})
    known = set(Config.__dataclass_fields__)
    unknown = sorted(set(fields) - known)
    if unknown or "game" not in fields or not isinstance(fields.get("options", {}), dict):
        raise ContestError(f"{CONFIG}: " + (f"unknown field {unknown[0]!r}" if unknown else "no game, or no [options] table"))
    try:
        return check(Config(**fields))
    except TypeError as exc:
        raise ContestError(f"{CONFIG}: {exc}") from None


def load(folder: str | os.PathLike) -> Config:
    """The contest in ``folder``; ``ContestError`` if it holds none."""
    path = Path(folder) / CONFIG
    try:
        return loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ContestError(f"{folder} holds no contest ({CONFIG}): make one with arcade contest new {folder} …") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ContestError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") from None


def load_again(folder: str | os.PathLike, last: Config, tries: int = 10) -> Config:
    """The contest in ``folder`` read again while it runs (the instructor may move its closing
    time): ``contest.toml`` caught mid-write by an editor reads as nothing or as half a file, so a
    read that fails is tried again (``tries`` times, 0.05 s apart), then ``last``, the config read
    before, is kept (a broken edit stops nothing; the next read takes the fixed file)."""
    import time

    for attempt in range(tries):
        try:
            return load(folder)
        except ContestError:
            if attempt + 1 < tries:
                time.sleep(0.05)
    return last


def create(folder: str | os.PathLike, config: Config) -> Config:
    """A new contest in ``folder`` (made if missing; refused if it holds one): ``contest.toml``
    and a secret seed of 63 bits from ``os.urandom`` (``arcade.seeds.secret``)."""
    from arcade.seeds import secret

    config = check(config)
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        if (folder / CONFIG).exists():
            raise ContestError(f"{folder} holds a contest already ({CONFIG})")
        write_whole(folder / SECRET, f"{secret()}\n", mode=0o600, exclusive=True)  # whole, and never over one
        write_whole(folder / CONFIG, dumps(config))
        for sub in ("submissions", "records", "inbox"):
            (folder / sub).mkdir(exist_ok=True)
    except FileExistsError:
        raise ContestError(f"{folder} holds a contest's secret already") from None
    except OSError as exc:
        raise ContestError(f"cannot make the contest in {folder}: {exc.strerror or exc}") from None
    return config


def secret_seed(folder: str | os.PathLike) -> int:
    """The contest's secret seed (``DIR/secret``)."""
    path = Path(folder) / SECRET
    try:
        return int(path.read_text(encoding="ascii").strip())
    except (OSError, ValueError, UnicodeDecodeError):
        raise ContestError(f"cannot read the contest's secret seed {path}: every game's seed comes from it") from None
