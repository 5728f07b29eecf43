"""Every seed the arcade derives, in one place, each derivation documented once.

A run has one seed (``--seed``, the tournament screen's Seed, the app's seed in tests, or a
secret one: ``secret``). Everything random in it comes from generators derived here from that
seed and the names of what they serve, never from their position in the run, so that the same
seed plays the same games whatever else runs (any ``--jobs``, a resumed record, a Dask cluster).
Records and replays depend on these exact values: a derivation never changes (the strings, and
how they are hashed: ``random.Random(str)`` hashes the string with SHA-512; ``pair_seed`` uses
SHA-256). ``tests/arcade/test_seeds.py`` pins them and checks that no other module derives a seed.
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


def ladder_tie(seed: int, number: int, a: str, b: str) -> bytes:
    """A contest ladder's tie-break between pairings of equal worth in round ``number``: the
    SHA-256 of the contest's secret seed, the round and the pair's two digests."""
    return hashlib.sha256(f"{seed}:{number}:{a}:{b}".encode()).digest()


def groups_rng(seed: int) -> random.Random:
    """A groups tournament's draw (the groups of each round, each bot's lot for ties), from
    ``"<seed>:groups"``."""
    return random.Random(f"{seed}:groups")
