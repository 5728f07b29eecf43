"""``arcade.seeds``: every derived seed in one module, and the derivations never change (records,
replays and test vectors depend on their exact values)."""

from __future__ import annotations

import random
import re

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


def test_each_derivation_is_its_own_stream():
    chance, a, b = (r.random() for r in seeds.match_rngs(7, 1))
    assert len({chance, a, b}) == 3 and seeds.match_rngs(7, 2)[0].random() != chance
    assert seeds.screen_rngs(None, "hog", 1)[0] is not seeds.screen_rngs(None, "hog", 1)[0]
    assert seeds.pair_seed(5, "final", "a", "b") != seeds.pair_seed(5, "final", "b", "a")
    assert 0 <= seeds.secret() < 1 << 63 and seeds.secret() != seeds.secret()


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
