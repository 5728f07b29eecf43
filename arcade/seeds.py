"""Every seed the arcade derives, in one place, each derivation documented once.

A run has one seed (``--seed``, the tournament screen's Seed, the app's seed in tests, or a
secret one: ``secret``). Everything random in it comes from generators derived here from that
seed and the names of what they serve, never from their position in the run, so that the same
seed plays the same games whatever else runs (any ``--jobs``, a resumed record, a Dask cluster).
Records and replays depend on these exact values: a derivation never changes (the strings, and
how they are hashed: ``random.Random(str)`` hashes the string with SHA-512; ``pair_seed``,
``season_seed`` and ``closing_seed`` use SHA-256). ``tests/arcade/test_seeds.py`` pins them and
checks that no other module derives a seed.
"""

from __future__ import annotations

import hashlib
import os
import random


def secret() -> int:
    """A run's secret seed: 63 bits from ``os.urandom`` that no bot can guess (it is in no
    command line, environment or file a bot can read); printed at the end so that the run can be
    replayed."""
    return int.from_bytes(os.urandom(8), "big") >> 1


def screen_rngs(seed: int | None, game_id: str, number: int) -> tuple[random.Random, random.Random, random.Random]:
    """The dice's and the two sides' generators of the game screen's game ``number``: fresh ones
    without a seed, else from ``"<seed>:<game id>:<number>"`` and ``:chance``, ``:0``, ``:1``
    (tests and snapshots fix the app's seed)."""
    if seed is None:
        return random.Random(), random.Random(), random.Random()
    base = f"{seed}:{game_id}:{number}"
    return random.Random(base + ":chance"), random.Random(base + ":0"), random.Random(base + ":1")


def match_rngs(seed: int, number: int) -> tuple[random.Random, random.Random, random.Random]:
    """The dice's generator and players A's and B's of game ``number`` of a match, from
    ``"<seed>:<number>:chance"``, ``:a`` and ``:b`` (A's follows player A whichever side it plays,
    so a game does not depend on the colours)."""
    return tuple(random.Random(f"{seed}:{number}:{role}") for role in ("chance", "a", "b"))  # type: ignore[return-value]


def seed_global_random(seed: int, number: int) -> None:
    """Seed the global ``random`` for game ``number`` of a match, from ``"<seed>:<number>:global"``:
    course bots draw from it (D-Football's ``random_move``, as the course's did), and a game must
    not depend on the games played before it in this process (a tournament's chunks run in any
    order over its workers)."""
    random.seed(f"{seed}:{number}:global")


def pair_seed(seed: int, stage: str, a: str, b: str) -> int:
    """A tournament pair's match seed: 64 bits of the SHA-256 of the tournament seed, the stage
    and the pair's two names (not the pair's position), NUL-separated."""
    digest = hashlib.sha256(f"{seed}\x00{stage}\x00{a}\x00{b}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def season_seed(seed: int) -> int:
    """A contest season's games' seed: 64 bits of the SHA-256 of the contest's secret seed and
    ``season``, NUL-separated. Every sampled game of the season is dealt from it
    (``season_rngs``), whichever pair plays it; the pairs' record lines carry it as their seed and
    the workers get it, never the secret."""
    digest = hashlib.sha256(f"{seed}\x00season".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def closing_seed(seed: int) -> int:
    """A contest's closing stage's seed (CS4341's groups, ``arcade.contest.closing``): 64 bits of
    the SHA-256 of the contest's secret seed and ``closing``, NUL-separated. It is the stage's
    tournament seed, written in its record's header (its pairs' seeds and its draw come from it,
    ``pair_seed`` and ``groups_rng``), so that the secret is in no file but ``DIR/secret``."""
    digest = hashlib.sha256(f"{seed}\x00closing".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def season_deal(number: int) -> int:
    """The deal of game ``number`` of a contest pair: games ``2i - 1`` and ``2i`` are deal ``i``,
    the same game with the players' sides swapped."""
    return (number + 1) // 2


def season_rngs(seed: int, number: int) -> tuple[random.Random, random.Random, random.Random]:
    """Common random numbers for game ``number`` of any pair of a contest season (``seed``:
    ``season_seed``): the dice's generator, the first mover's and the second mover's, from
    ``"<seed>:season:<deal>:chance"``, ``:first`` and ``:second`` (``season_deal``). They depend on
    the game's deal and each side's role in it, never on the pair: two teams with the same strategy
    meet the same dice against every opponent, and in a deal's two games each player moves first
    once with the same dice."""
    base = f"{seed}:season:{season_deal(number)}"
    return tuple(random.Random(f"{base}:{role}") for role in ("chance", "first", "second"))  # type: ignore[return-value]


def seed_season_random(seed: int, number: int) -> None:
    """Seed the global ``random`` for game ``number`` of a contest season's pair, from
    ``"<seed>:season:<deal>:global"``: ``seed_global_random``'s reason, and ``season_rngs``'s
    (the pair plays no part)."""
    random.seed(f"{seed}:season:{season_deal(number)}:global")


def hog_recheck_rng(seed: int) -> random.Random:
    """Which positions Hog's exact scoring asks a strategy again (``arcade.contest.hog_exact``),
    from ``"<seed>:hog recheck"`` with the contest's secret seed: the same for every submission,
    so that equal strategies are judged alike, and unknown to the students."""
    return random.Random(f"{seed}:hog recheck")


def hog_table_seeds(seed: int) -> tuple[int, int]:
    """The ``Seed`` sent to each of the two fresh processes in which Hog's exact scoring asks a
    strategy its table (``arcade.contest.hog_exact``): 63 bits each from ``"<seed>:hog table:1"``
    and ``:2`` with the contest's secret seed. Two different seeds, so that a strategy whose
    answers follow its random numbers gives two different tables; the same for every submission."""
    return tuple(random.Random(f"{seed}:hog table:{n}").getrandbits(63) for n in (1, 2))  # type: ignore[return-value]


def ladder_tie(seed: int, number: int, a: str, b: str) -> bytes:
    """A contest ladder's tie-break between pairings of equal worth in round ``number``: the
    SHA-256 of the contest's secret seed, the round and the pair's two digests."""
    return hashlib.sha256(f"{seed}:{number}:{a}:{b}".encode()).digest()


def groups_rng(seed: int) -> random.Random:
    """A groups tournament's draw (the groups of each round, each bot's lot for ties), from
    ``"<seed>:groups"``."""
    return random.Random(f"{seed}:groups")


def probe_seed(seed: int, digest: str, fresh: bytes | None = None) -> int:
    """The seed of an admission probe's positions (``arcade.contest.probe``): 63 bits of the
    HMAC-SHA256, keyed by the contest's secret seed, of the submission's digest and ``fresh``
    bytes drawn for this admission (``os.urandom(16)`` by default). A student knows their digest,
    never the secret nor the fresh bytes, so the positions cannot be computed ahead, and the same
    bytes handed in again meet other positions (the probe is a sanity check; a game's forfeit is
    the judgement)."""
    import hmac
    import os

    fresh = os.urandom(16) if fresh is None else fresh
    mac = hmac.new(str(seed).encode(), b"contest-arcade probe\n" + digest.encode() + b"\n" + fresh, hashlib.sha256)
    return int.from_bytes(mac.digest()[:8], "big") >> 1
