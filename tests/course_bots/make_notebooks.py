"""Writes the course-shaped sample notebooks of this folder with Jupyter's own ``nbformat``, in
the shapes the courses collected (``/work/shared/reference/README.md``: "What the courses
collected"), never copied from the courses' files:

- ``stats306_notebook/instructions.ipynb``: STATS 306's nbgrader notebook (kernel ``ir``): locked
  cells that load the tidyverse and ``d_football.R`` and try the strategy, the student's
  ``strategy-cell`` (``my_strategy`` and its helpers) and ``team-name-cell`` (``wolverines``);
- ``toothpick_python_notebook/toothpicks.ipynb``: the 10-1-2 notebook's classes, a student's
  ``strategy`` and demo cells with IPython's display magics (``%matplotlib inline``, ``%timeit``);
- ``ludo_notebook/robot_ludo.ipynb``: a Robot Ludo engine written in a notebook against the
  challenge's ``state`` module, its team in ``TEAM_NAME``.

Run from the repository's root: ``python tests/course_bots/make_notebooks.py`` (the files are
committed; the tests read them).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent


def graded(grade_id: str, solution: bool, locked: bool = True, points: int | None = None) -> dict:
    """nbgrader's metadata of a cell, as its template writes it."""
    info = {"grade_id": grade_id, "solution": solution, "locked": locked, "grade": points is not None,
            "schema_version": 3}
    if points is not None:
        info["points"] = points
    return {"nbgrader": info, "deletable": not locked, "editable": not locked}


def stats306() -> nbformat.NotebookNode:
    notebook = new_notebook(metadata={
        "kernelspec": {"display_name": "R", "language": "R", "name": "ir"},
        "language_info": {"name": "R", "file_extension": ".r", "mimetype": "text/x-r-source"},
    })
    notebook.cells = [
        new_markdown_cell("# D-Football\nThe extra-credit contest.", metadata=graded("intro", False)),
        new_code_cell('library(tidyverse)\nsource("d_football.R")', metadata=graded("setup", False)),
        new_markdown_cell("## Your assignment", metadata=graded("assignment", False)),
        new_code_cell(
            "# Jump when we can; else move the player furthest back (a student's solution)\n"
            "is_jump <- function(game, square) {\n"
            "    after <- make_move(game, square)\n"
            "    sum(after$board == -1) < sum(game$board == -1)\n"
            "}\n"
            "my_strategy <- function(game) {\n"
            "    moves <- valid_moves(game)\n"
            "    jumps <- Filter(function(m) is_jump(game, m), moves)\n"
            "    if (length(jumps) > 0) return(jumps[[length(jumps)]])\n"
            "    moves[[1]]\n"
            "}\n",
            metadata=graded("strategy-cell", True, locked=False)),
        new_code_cell("# A few preliminary tests\ng <- new_game(5)\n\nstopifnot(\n    my_strategy(g) %in% valid_moves(g)\n)",
                      metadata=graded("tests", False)),
        new_markdown_cell("## Team name\nIt should match `\"/^[a-z_]+$/\"`:", metadata=graded("team-intro", False)),
        new_markdown_cell("wolverines", metadata=graded("team-name-cell", True, locked=False, points=0)),
        new_code_cell("play_repeatedly(strategy1 = my_strategy, strategy2 = random_move, k = 20, n = 5)",
                      metadata=graded("develop", False)),
    ]
    return notebook


def python_notebook(cells: list) -> nbformat.NotebookNode:
    notebook = new_notebook(metadata={
        "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
        "language_info": {"name": "python", "pygments_lexer": "ipython3", "version": "3.8.5"},
    })
    notebook.cells = cells
    return notebook


def toothpicks() -> nbformat.NotebookNode:
    return python_notebook([
        new_markdown_cell("# 10-1-2 Toothpick Takeaway"),
        new_code_cell("%matplotlib inline\nimport random"),
        new_code_cell("class Board:\n    def __init__(self):\n        self.move_set = []\n        self.state = None\n"),
        new_markdown_cell("### Trying New Strategies"),
        new_code_cell("def strategy(toothpicks_left):\n    \"\"\"Leave a multiple of three.\"\"\"\n"
                      "    take = toothpicks_left % 3\n    return take if take else random.choice([1, 2])\n"),
        new_code_cell("%timeit strategy(10)\nprint([strategy(n) for n in range(1, 11)])"),
    ])


def ludo() -> nbformat.NotebookNode:
    return python_notebook([
        new_markdown_cell("# Robot Ludo Challenge: our engine"),
        new_code_cell("from state import Board, getmoves, makemove\nTEAM_NAME = 'cutters'"),
        new_code_cell("def cuts(board, move):\n    \"\"\"The rival's counters this move sends back to their pen.\"\"\"\n"
                      "    turn = move[0]\n    after = makemove(board, move, copyboard=True)\n"
                      "    return (after.bluepen - board.bluepen) if turn == 0 else (after.redpen - board.redpen)\n"),
        new_code_cell("def your_engine(board, turn, roll):\n    moves = getmoves(board, turn, roll)\n"
                      "    return max(moves, key=lambda move: (cuts(board, move), move[2], move[1]))\n"),
        new_code_cell("from match import make_start_board\n%time print(your_engine(make_start_board(4, 20), 0, 6))"),
    ])


def main() -> None:
    for path, notebook in ((HERE / "stats306_notebook" / "instructions.ipynb", stats306()),
                           (HERE / "toothpick_python_notebook" / "toothpicks.ipynb", toothpicks()),
                           (HERE / "ludo_notebook" / "robot_ludo.ipynb", ludo())):
        nbformat.validate(notebook)
        path.parent.mkdir(exist_ok=True)
        nbformat.write(notebook, path)
        print(f"wrote {path.relative_to(HERE.parent.parent)}")


if __name__ == "__main__":
    main()
