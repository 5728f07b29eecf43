"""What the contest's tests share: bots written as STATS 306 students wrote them, and the command line."""

from __future__ import annotations

import sys
from pathlib import Path

from arcade import cli

CLI = [sys.executable, "-c", "from arcade.cli import entry_point; entry_point()"]

BOTS = {
    "far": "from games.dfootball import valid_moves\n\ndef strategy(game):\n    return valid_moves(game)[-1]\n",
    "near": "from games.dfootball import valid_moves\n\ndef strategy(game):\n    return valid_moves(game)[0]\n",
    "lucky": "import random\nfrom games.dfootball import valid_moves\n\ndef strategy(game):\n"
             "    return random.choice(valid_moves(game))\n",
    "middle": "from games.dfootball import valid_moves\n\ndef strategy(game):\n"
              "    moves = valid_moves(game)\n    return moves[len(moves) // 2]\n",
    "careless": "from games.dfootball import valid_moves\n\ncalls = 0\n\ndef strategy(game):\n    global calls\n"
                "    calls += 1\n    if calls % 9 == 8:\n        raise ValueError('oops')\n    return valid_moves(game)[-1]\n",
    "slow": "import time\nfrom games.dfootball import valid_moves\n\ndef strategy(game):\n"
            "    time.sleep(0.004)\n    return valid_moves(game)[-1]\n",
    "broken": "def strategy(game):\n    raise ValueError('nope')\n",
}


def bot(folder: Path, name: str) -> str:
    """The path of bot ``name`` (``BOTS``) written into ``folder/name/``."""
    where = folder / "bots" / name
    where.mkdir(parents=True, exist_ok=True)
    (where / f"{name}.py").write_text(BOTS[name])
    return str(where / f"{name}.py")


def arcade(*args: str) -> int:
    return cli.main(list(args))
