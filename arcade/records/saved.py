"""The app's saved games: a game on the screen (finished or not) saved as a record of one game,
which ``arcade replay PATH`` opens."""

from __future__ import annotations

import os
from pathlib import Path

from arcade.match import GameRecord
from arcade.records.log import RecordLog


def games_dir() -> Path:
    """Where saved games go: ``$ARCADE_GAMES``, else ``$XDG_STATE_HOME/contest-arcade/games``."""
    if os.environ.get("ARCADE_GAMES"):
        return Path(os.environ["ARCADE_GAMES"])
    state = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(state) / "contest-arcade" / "games"


def save_game(game, players: tuple[str, str], session, folder: Path | None = None) -> Path:
    """Save the game in ``session`` (finished or not) as a record of one game, in ``folder``
    (``games_dir()``); the file's path. ``arcade replay PATH`` opens it. The record is written in
    a private temporary folder, then placed in the games' folder as a new file made from the
    folder's descriptor (``bots.external.safe_files``): a name taken by anything (a link planted
    there by a bot run unsandboxed, as its user) is never written through, the next name is."""
    import tempfile
    from datetime import datetime

    from bots.external import safe_files

    result = session.result
    record = GameRecord(
        number=1, first=0,
        winner=None if result is None else result.winner,
        reason="not finished" if result is None else result.reason,
        plies=session.state.ply,
        forfeit=None if result is None else result.forfeited,
        termination=result.termination if result is not None else GameRecord.termination,
        moves=session.move_texts(), times=list(session.times),
    )
    header = {"kind": "game", "game": game.id, "options": dict(game.settings), "bots": list(players),
              "seed": None, "finished": result is not None}
    with tempfile.TemporaryDirectory(prefix="arcade-save-") as scratch:
        with RecordLog(Path(scratch) / "game.jsonl", header) as log:
            log.append("game", players[0], players[1], 0, record)
        data = (Path(scratch) / "game.jsonl").read_bytes()
    folder = folder or games_dir()
    held = safe_files.make_folders(folder)
    try:
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        for number in range(1, 1000):
            name = f"{game.id}-{stamp}.jsonl" if number == 1 else f"{game.id}-{stamp}-{number}.jsonl"
            try:
                safe_files.create_file_at(held, name, data)
                return folder / name
            except FileExistsError:
                continue
        raise FileExistsError(f"no free name for the game in {folder}")
    finally:
        os.close(held)
