"""Notebooks are bot files (``bots/external/notebook.py``): an R notebook runs its nbgrader
strategy cell alone under STATS 306's rules, a Python notebook its code cells in order with
IPython's magics handled by the documented rule, the team name is read from the notebook, and
whatever a notebook's bytes are, reading it ends in a notebook or one line, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from bots.external.notebook import (MAX_CODE, R_NOTEBOOK_BYTES, NotebookError, declared_team, read_notebook)
from bots.external.rlang import R_MISSING
from bots.external.specs import BadSpec, parse_spec
from tests.bots.external.test_course_bots import MODES, SAMPLES, own_folder
from tests.course_bots.make_notebooks import graded, python_notebook, stats306

RSCRIPT = shutil.which("Rscript")
needs_r = pytest.mark.skipif(RSCRIPT is None, reason=R_MISSING)


@pytest.fixture(autouse=True)
def logs(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "logs"
    monkeypatch.setenv("ARCADE_BOT_LOGS", str(folder))
    return folder


def as_bytes(notebook) -> bytes:
    return nbformat.writes(notebook).encode("utf-8")


def r_notebook(*cells) -> nbformat.NotebookNode:
    notebook = new_notebook(metadata={"kernelspec": {"name": "ir", "language": "R", "display_name": "R"}})
    notebook.cells = list(cells)
    return notebook


# -- an R notebook: the course's nbgrader notebook --------------------------------------------------

def test_the_course_notebook_runs_its_strategy_cell_alone_and_names_its_team():
    read = read_notebook(as_bytes(stats306()), "instructions.ipynb")
    assert read.language == "R"
    assert [label for label, _ in read.cells] == ["cell 4 (strategy-cell)"]
    assert "my_strategy <- function(game)" in read.cells[0][1]
    assert "library(tidyverse)" not in read.cells[0][1] and "play_repeatedly" not in read.cells[0][1]
    assert (read.team, read.team_source) == ("wolverines", "the team-name cell")


def test_the_template_team_cell_names_no_team():
    notebook = stats306()
    notebook.cells[6].source = "YOUR ANSWER HERE"
    assert read_notebook(as_bytes(notebook)).team is None
    notebook.cells[6].source = "\n  **`big_blue`**  \n"  # markdown emphasis and code marks are no part of a name
    assert read_notebook(as_bytes(notebook)).team == "big_blue"


@pytest.mark.parametrize("code, called", [
    ("library(purrr)\nmy_strategy <- function(game) 1", "library"),
    ("my_strategy <- function(game) { base::library(MASS); 1 }", "library"),
    ("install.packages ('xgboost')\nmy_strategy <- function(game) 1", "install.packages"),
    ("require(stats)\nmy_strategy <- function(game) 1", "require"),
    ("`library`(purrr)\nmy_strategy <- function(game) 1", "library"),
])
def test_library_and_install_packages_are_refused_in_the_courses_words(code, called):
    notebook = stats306()
    notebook.cells[3].source = code
    with pytest.raises(NotebookError) as caught:
        read_notebook(as_bytes(notebook), "instructions.ipynb")
    text = str(caught.value)
    assert text.startswith("instructions.ipynb, cell 4 (strategy-cell): calls ")
    assert f"calls {called}()" in text and "you may not use install.packages() or library()" in text
    assert "\n" not in text


def test_words_in_comments_and_strings_are_no_calls():
    notebook = stats306()
    notebook.cells[3].source = ('# we tried library(purrr) first\nnote <- "library(x)"\nraw <- r"(require(y))"\n'
                                "my_library <- function(x) x\nmy_strategy <- function(game) my_library(valid_moves(game)[[1]])")
    assert len(read_notebook(as_bytes(notebook)).cells) == 1


def test_the_notebook_may_not_exceed_200kb():
    notebook = stats306()
    notebook.cells[7].outputs = [nbformat.v4.new_output("stream", text="x" * R_NOTEBOOK_BYTES)]
    with pytest.raises(NotebookError, match=r"may not exceed 200kb \(STATS 306's rule\)"):
        read_notebook(as_bytes(notebook), "instructions.ipynb")


def test_an_r_notebook_without_nbgrader_runs_the_one_cell_defining_the_strategy():
    notebook = r_notebook(new_code_cell('library(tidyverse)\nsource("d_football.R")'),
                          new_code_cell("helper <- 3\nmy_strategy <- function(game) valid_moves(game)[[1]]"),
                          new_code_cell("play_game(my_strategy, random_move, 5)"))
    read = read_notebook(as_bytes(notebook))
    assert [label for label, _ in read.cells] == ["cell 2"]
    notebook.cells.append(new_code_cell("my_strategy <- function(game) -1  # always invalid"))
    with pytest.raises(NotebookError, match=r"defines my_strategy in 2 cells \(cells 2, 4\)"):
        read_notebook(as_bytes(notebook))
    notebook.cells[1:] = [new_code_cell("x <- 1")]
    with pytest.raises(NotebookError, match="has no strategy cell"):
        read_notebook(as_bytes(notebook))


def test_two_strategy_cells_are_refused():
    notebook = stats306()
    notebook.cells.append(new_code_cell("my_strategy <- function(game) 1", metadata=graded("strategy-cell", True, False)))
    with pytest.raises(NotebookError, match=r"has 2 strategy cells \(cells 4, 9\)"):
        read_notebook(as_bytes(notebook))


# -- a Python notebook: its code cells, IPython's syntax by the rule ---------------------------------

def test_a_python_notebook_runs_its_code_cells_in_order_with_display_magics_dropped():
    notebook = python_notebook([
        new_markdown_cell("# mine"),
        new_code_cell("%matplotlib inline\n%load_ext autoreload\n%autoreload 2\nimport random"),
        new_code_cell("%%html\n<b>hello</b>"),
        new_code_cell("def strategy(n):\n    return 1\n"),
        new_code_cell("%timeit strategy(10)\n%time x = strategy(4)\nif True:\n    %timeit strategy(5)\n"),
        new_code_cell("%%time\ny = strategy(3)"),
        new_code_cell("PLAYER_NAME = 'pickers'"),
    ])
    read = read_notebook(as_bytes(notebook))
    assert read.language == "python" and (read.team, read.team_source) == ("pickers", "PLAYER_NAME")
    assert [label for label, _ in read.cells] == ["cell 2", "cell 4", "cell 5", "cell 6", "cell 7"]
    code = dict(read.cells)
    assert code["cell 2"].splitlines() == ["", "", "", "import random"]  # the lines keep their numbers
    assert code["cell 5"].splitlines() == ["", "x = strategy(4)", "if True:", "    pass"]
    assert code["cell 6"].splitlines() == ["", "y = strategy(3)"]
    namespace: dict = {}
    for _, source in read.cells:
        exec(compile(source, "cell", "exec"), namespace)  # what the bot's process does, in its sandbox
    assert namespace["x"] == 1 and namespace["y"] == 1


@pytest.mark.parametrize("source, said", [
    ("!pip install numpy", "cell 2, line 1: a shell command is not Python (!pip install numpy)"),
    ("import os\n%pip install torch", "cell 2, line 2: the magic %pip is not Python"),
    ("%run other.py", "cell 2, line 1: the magic %run is not Python"),
    ("%%bash\nrm -rf /", "cell 2: the cell magic %%bash is not Python"),
    ("%cd /etc", "cell 2, line 1: the magic %cd is not Python"),
    ("def f(:\n    pass", "cell 2: invalid syntax"),
])
def test_shell_commands_and_other_magics_refuse_the_notebook_naming_the_cell(source, said):
    notebook = python_notebook([new_markdown_cell("x"), new_code_cell(source), new_code_cell("def strategy(n):\n    return 1")])
    with pytest.raises(NotebookError) as caught:
        read_notebook(as_bytes(notebook), "mine.ipynb")
    assert str(caught.value).startswith(f"mine.ipynb, {said}")
    assert "\n" not in str(caught.value)


def test_a_percent_or_bang_inside_python_is_python():
    notebook = python_notebook([new_code_cell('"""\n!important\n% of wins\n"""\nx = 7 \\\n    % 3\ndef strategy(n):\n    return x')])
    assert read_notebook(as_bytes(notebook)).cells[0][1].startswith('"""\n!important')


def test_the_team_a_python_file_names():
    assert declared_team("from hog import *\n\nPLAYER_NAME = 'HOG 9000'  # Change this line!\n") == ("HOG 9000", "PLAYER_NAME")
    assert declared_team("TEAM_NAME: str = 'oski'\n") == ("oski", "TEAM_NAME")
    assert declared_team("def f():\n    PLAYER_NAME = 'inner'\n") == (None, "")  # only the module's own
    assert declared_team("PLAYER_NAME = ''\n") == (None, "")
    assert declared_team("PLAYER_NAME = compute()\n") == (None, "")  # never run
    assert declared_team("def (:") == (None, "")


def test_a_version_3_notebook_is_upgraded_as_jupyter_does():
    old = {"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": ""}, "worksheets": [{"cells": [
        {"cell_type": "code", "language": "python", "input": ["def strategy(n):\n", "    return 2\n"],
         "outputs": [], "metadata": {}}], "metadata": {}}]}
    read = read_notebook(json.dumps(old).encode())
    assert read.language == "python" and read.cells == (("cell 1", "def strategy(n):\n    return 2\n"),)


def test_a_notebook_in_another_language_is_refused():
    notebook = python_notebook([new_code_cell("println(1)")])
    notebook.metadata = {"kernelspec": {"name": "julia-1.9", "language": "julia", "display_name": "Julia"}}
    with pytest.raises(NotebookError, match="is a notebook in julia"):
        read_notebook(as_bytes(notebook), "j.ipynb")


def test_the_code_that_plays_is_capped():
    notebook = python_notebook([new_code_cell(f"x = {'1' * 64}\n" * (MAX_CODE // 60))])
    with pytest.raises(NotebookError, match="code is .* characters: at most"):
        read_notebook(as_bytes(notebook))


# -- hostile and malformed notebooks: a notebook or one line ---------------------------------------

def _outcome(data: bytes) -> None:
    try:
        read_notebook(data, "hand-in.ipynb")
    except NotebookError as exc:
        text = str(exc)
        assert text and "\n" not in text and "\r" not in text and len(text) < 600, text
        assert text.isprintable()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=20)
KEYS = ["nbformat", "nbformat_minor", "metadata", "cells", "cell_type", "source", "outputs", "execution_count",
        "kernelspec", "language", "name", "nbgrader", "grade_id", "solution", "worksheets", "input"]


@st.composite
def malformed(draw) -> bytes:
    kind = draw(st.sampled_from(["bytes", "json", "mutated", "deep", "shape"]))
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "json":
        return json.dumps(draw(json_values)).encode()
    if kind == "deep":
        depth = draw(st.integers(60, 3000))
        opener, closer = draw(st.sampled_from([("[", "]"), ('{"a":', "}")]))
        inner = opener * depth + "1" + closer * depth
        return ('{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": %s}, "cells": []}' % inner).encode()
    base = json.loads(nbformat.writes(draw(st.sampled_from([stats306(), python_notebook([new_code_cell("x = 1")])]))))
    if kind == "shape":
        key = draw(st.sampled_from(KEYS))
        base.pop(key, None)
        for cell in base.get("cells", []):
            if draw(st.booleans()):
                cell.pop(draw(st.sampled_from(KEYS)), None)
        return json.dumps(base).encode()
    for _ in range(draw(st.integers(1, 4))):  # a value put where the notebook, a cell or its metadata had another
        target = base
        for step in draw(st.lists(st.sampled_from(["cells", 0, 1, 2, "metadata", "nbgrader"]), max_size=4)):
            inner = (target.get(step) if isinstance(target, dict) and isinstance(step, str) else
                     target[step] if isinstance(target, list) and isinstance(step, int) and step < len(target) else None)
            if isinstance(inner, (dict, list)):
                target = inner
        if isinstance(target, dict):
            target[draw(st.sampled_from(KEYS))] = draw(json_values)
        elif isinstance(target, list) and target:
            target[draw(st.integers(0, len(target) - 1))] = draw(json_values)
    return json.dumps(base).encode()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(malformed())
def test_a_malformed_notebook_is_one_line_never_a_traceback(data):
    _outcome(data)


@pytest.mark.parametrize("data, said", [
    (b"", "not JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    (b"[" * 100_000, "nests too deep"),
    (b'{"cells": []}', "no nbformat version"),
    (b'{"nbformat": 5, "cells": []}', "format 5: only formats 3 and 4"),
    (b'{"nbformat": "4", "cells": []}', "format '4'"),
    (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": {}}', "no list of cells"),
    (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [7]}', "cell 1 has no type"),
    (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "source": 7}]}',
     "cell 1's source is not text"),
    (b'{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}', "has no code cells"),
])
def test_each_way_a_notebook_is_wrong_has_its_line(data, said):
    with pytest.raises(NotebookError) as caught:
        read_notebook(data, "hand-in.ipynb")
    assert said in str(caught.value) and str(caught.value).startswith("hand-in.ipynb ")


def test_a_spec_naming_a_malformed_notebook_is_refused_before_any_game(tmp_path):
    (tmp_path / "bad.ipynb").write_bytes(b'{"nbformat": 4, "cells": 3}')
    with pytest.raises(BadSpec, match="bad.ipynb is a damaged notebook: it has no list of cells"):
        parse_spec(str(tmp_path / "bad.ipynb"), "toothpicks")


# -- played: in arcade match, in and out of the sandbox ---------------------------------------------

def arcade_match(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "from arcade.cli import entry_point; entry_point()", "match", *args],
                          capture_output=True, text=True, timeout=300, cwd=cwd, env=os.environ.copy())


@needs_r
@pytest.mark.parametrize("mode", MODES)
def test_the_course_notebook_plays_its_strategy_cell_in_r(tmp_path, logs, mode):
    folder = own_folder(tmp_path, "stats306_notebook")
    done = arcade_match(folder.parent, "dfootball", "stats306_notebook/instructions.ipynb", "random_move",
                        "--games", "4", "--seed", "3", "--sandbox", mode, "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["forfeits"] == [0, 0], result["forfeit_reasons"]
    assert result["wins"][0] >= 3  # jumps first: it beats random moves
    log = next(logs.glob("instructions.*.log")).read_text()
    assert "play_repeatedly" not in log and "Traceback" not in log  # the other cells never ran


@needs_r
def test_an_r_notebook_that_loads_a_package_at_run_time_forfeits_in_the_courses_words(tmp_path):
    notebook = stats306()
    notebook.cells[3].source = ("my_strategy <- function(game) {\n    do.call(\"library\", list(\"stats\"))\n"
                                "    valid_moves(game)[[1]]\n}")
    (tmp_path / "sneaky.ipynb").write_text(nbformat.writes(notebook))
    done = arcade_match(tmp_path, "dfootball", "sneaky.ipynb", "random_move", "--games", "2", "--sandbox", "none",
                        "--json")
    result = json.loads(done.stdout)
    assert result["forfeits"] == [2, 0]
    assert "library() is not allowed" in json.dumps(result["forfeit_reasons"])


@pytest.mark.parametrize("mode", MODES)
def test_a_python_notebooks_failure_names_its_cell(tmp_path, mode):
    notebook = python_notebook([new_markdown_cell("#"), new_code_cell("def strategy(n):\n    return 1"),
                                new_code_cell("x = 1\ny = [][3]")])
    (tmp_path / "mine.ipynb").write_text(nbformat.writes(notebook))
    done = arcade_match(tmp_path, "toothpicks", "mine.ipynb", "random", "--games", "2", "--sandbox", mode)
    assert done.returncode != 0
    assert "could not load mine.ipynb: list index out of range (mine.ipynb, cell 3, line 2)" in done.stderr


def test_the_samples_are_what_make_notebooks_writes():
    """The committed notebooks are the generator's output (``tests/course_bots/make_notebooks.py``)."""
    from tests.course_bots import make_notebooks

    for name, build in (("stats306_notebook/instructions.ipynb", make_notebooks.stats306),
                        ("toothpick_python_notebook/toothpicks.ipynb", make_notebooks.toothpicks),
                        ("ludo_notebook/robot_ludo.ipynb", make_notebooks.ludo)):
        written, made = nbformat.read(SAMPLES / name, 4), build()
        assert written.metadata == made.metadata, name
        assert [(c.cell_type, c.source, c.metadata) for c in written.cells] == \
            [(c.cell_type, c.source, c.metadata) for c in made.cells], name  # (a cell's id is drawn anew)


def test_a_notebook_showing_things_through_ipython_plays_its_output_in_the_log(tmp_path, logs):
    """``from IPython.display import display`` works without IPython (``bots/course_modules/IPython``):
    what the notebook shows goes to the bot's log."""
    notebook = python_notebook([
        new_code_cell("from IPython.display import display, clear_output, HTML\nfrom IPython import get_ipython"),
        new_code_cell("display(HTML('<b>table</b>'), 42)\nclear_output(wait=True)\nassert get_ipython() is None"),
        new_code_cell("def strategy(n):\n    return 1"),
    ])
    (tmp_path / "shown.ipynb").write_text(nbformat.writes(notebook))
    done = arcade_match(tmp_path, "toothpicks", "shown.ipynb", "random", "--games", "2", "--sandbox", "none", "--json")
    assert done.returncode == 0, done.stderr
    log = next(logs.glob("shown.*.log")).read_text()
    assert "| <HTML: <b>table</b>>" in log and "| 42" in log
