"""``arcade.seeds``: every derived seed in one module, and the derivations never change (records,
replays and test vectors depend on their exact values)."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from arcade import seeds
from tests.paths import ROOT



def test_the_derivations_are_stable():
    assert [r.random() for r in seeds.screen_rngs(3, "hog", 1)] == [
        0.26480389856204867, 0.3595395947444877, 0.1542600823933914]
    assert [r.random() for r in seeds.match_rngs(7, 1)] == [0.6294216322747355, 0.9077901360295444,
                                                           0.07192118055089691]
    assert seeds.pair_seed(5, "round robin", "perfect", "random") == 10315779849812890614
    assert seeds.groups_rng(5).random() == 0.8559135852653106
    seeds.seed_global_random(5, 2)
    assert random.random() == 0.8522362352861697
    assert seeds.season_seed(5) == 7361272979122358279
    assert seeds.closing_seed(5) == 3412060244981348539
    assert [r.random() for r in seeds.season_rngs(7, 1)] == [0.4246883991017615, 0.9198192843973115,
                                                            0.7093449770180701]
    seeds.seed_season_random(5, 3)
    assert random.random() == 0.38004497166151285
    assert seeds.hog_recheck_rng(5).random() == 0.5818878307741722


def test_each_derivation_is_its_own_stream():
    chance, a, b = (r.random() for r in seeds.match_rngs(7, 1))
    assert len({chance, a, b}) == 3 and seeds.match_rngs(7, 2)[0].random() != chance
    assert seeds.screen_rngs(None, "hog", 1)[0] is not seeds.screen_rngs(None, "hog", 1)[0]
    assert seeds.pair_seed(5, "final", "a", "b") != seeds.pair_seed(5, "final", "b", "a")
    assert 0 <= seeds.secret() < 1 << 63 and seeds.secret() != seeds.secret()
    assert seeds.season_seed(5) != seeds.season_seed(6) and seeds.season_seed(5) < 1 << 64
    assert seeds.closing_seed(5) not in (seeds.season_seed(5), 5) and seeds.closing_seed(5) < 1 << 64


@settings(max_examples=200)
@given(st.integers(0, (1 << 63) - 1), st.integers(1, 10_000))
def test_a_seasons_games_are_dealt_by_their_deal_and_the_roles_alone(seed, number):
    """Games ``2i - 1`` and ``2i`` are one deal (the same dice and the same first and second
    movers' streams, with the players' sides swapped by the runner), each deal and each role its own
    stream, and the global ``random`` seeded by the deal alone."""
    mate = number + 1 if number % 2 else number - 1
    draws = [[r.random() for _ in range(3)] for r in seeds.season_rngs(seed, number)]
    assert [[r.random() for _ in range(3)] for r in seeds.season_rngs(seed, mate)] == draws
    assert len({tuple(d) for d in draws}) == 3
    later = seeds.season_deal(number) * 2 + 1  # the next deal's first game
    assert [r.random() for r in seeds.season_rngs(seed, later)] != [d[0] for d in draws]
    assert [r.random() for r in seeds.season_rngs(seed + 1, number)] != [d[0] for d in draws]
    seeds.seed_season_random(seed, number)
    mine = random.random()
    seeds.seed_season_random(seed, mate)
    assert random.random() == mine and seeds.season_deal(number) == seeds.season_deal(mate) == (number + 1) // 2


DERIVING = re.compile(r"""Random\(\s*f?["']|random\.seed\(|sha256\(f["']|urandom\(8\)""")
"""What deriving a seed looks like: a generator from a string, the global ``random`` seeded, a
seed hashed from a string, a secret drawn."""


def test_no_other_module_of_the_arcade_derives_a_seed():
    found = []
    for path in sorted((ROOT / "arcade").rglob("*.py")):
        if path.name == "seeds.py" and path.parent.name == "arcade":
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            if DERIVING.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
    assert DERIVING.search('random.Random(f"{seed}:x")') and DERIVING.search('random.seed(f"{s}")')
