"""The label generation of ``training.othello.labels``: its games are the same whatever the shard
count or a restart, its labels are the searches and solves they claim to be, a torn shard file
loses only its torn game, and its packs fit."""

from __future__ import annotations

import gzip

from bots.othello.compiled import CompiledEngine
from bots.othello.patterns import PatternEvaluator
from tests.bots.othello.test_bots import need_core
from tests.paths import ROOT
from training.othello import labels

TINY = ["--depth", "2", "--solve-empties", "8", "--opening-min", "2", "--opening-max", "6", "--minutes", "5"]


def generate(tmp_path, name: str, shards: int, games: int) -> list:
    work, out = tmp_path / name, tmp_path / f"{name}-out"
    labels.main(["generate", "--shards", str(shards), "--games", str(games), "--seed", "3",
                 "--work", str(work), "--out", str(out), *TINY])
    return labels.read_labels(out / "labels-s3-0.txt.gz")


def test_games_are_the_same_on_any_shard_count_and_their_labels_are_searches_and_solves(tmp_path):
    need_core()
    two = generate(tmp_path, "two", 2, 6)
    one = generate(tmp_path, "one", 1, 3)
    assert sorted({g for g, *_ in two}) == list(range(6))
    assert [r for r in two if r[0] < 3] == one
    assert any(e for *_, e in two) and any(not e for *_, e in two)
    ev = PatternEvaluator()
    for g, p, o, score, exact in two[::7]:
        engine = CompiledEngine(ev)
        if exact:
            assert score == labels.margin_score(engine.solve(p, o).score)
            assert 64 - (p | o).bit_count() <= 8 and score % 100 == 0
        else:  # depth 2: no Multi-ProbCut and no table entry of the game's earlier searches reused
            assert score == labels.margin_score(engine.search(p, o, float("inf"), max_depth=2).score)


def test_a_torn_shard_keeps_its_finished_games_and_a_rerun_completes_it(tmp_path):
    need_core()
    whole = generate(tmp_path, "run", 1, 4)
    shard = labels.shard_path(tmp_path / "run", 3, 0, 1)
    text = shard.read_text()
    cut = text.index("end 1 ")  # game 0 and a part of game 1 survive
    shard.write_text(text[:cut + 2])
    assert sorted(labels.finished_games(shard)) == [0]
    again = generate(tmp_path, "run", 1, 4)
    assert again == whole
    assert shard.read_text() == text  # the torn game was replayed identically, nothing doubled


def test_a_pack_fits_and_its_error_by_stage_is_printed(tmp_path, capsys):
    need_core()
    import numpy  # noqa: F401 - part of .[test]: the fit needs it

    generate(tmp_path, "fit", 2, 12)
    pack = tmp_path / "fit-out" / "labels-s3-0.txt.gz"
    with gzip.open(pack, "rt") as f:
        assert len(f.read().splitlines()) == len(labels.read_labels(pack))
    out = tmp_path / "w.bin"
    labels.main(["fit", str(pack), "--epochs", "5", "--prior", str(ROOT / "bots" / "othello" / "patterns.bin"), "--out", str(out)])
    labels.main(["error", str(pack), "--weights", str(out)])
    printed = capsys.readouterr().out
    assert "held-out mean absolute error by stage" in printed and "exact" in printed
    assert len(PatternEvaluator(path=out).stages) == 15
