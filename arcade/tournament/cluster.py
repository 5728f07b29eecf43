"""A tournament on a Dask cluster: its workers share no folder with us, so each file bot's folder
travels as a bundle (``arcade.tournament.bundles``), sent once and checked again on the worker
before each chunk it plays."""

from __future__ import annotations

from typing import Mapping, Sequence

from arcade.match import GameRecord
from arcade.tournament.formats import TournamentError
from arcade.tournament.worker import Setup, Task, run_task


def pack_bots(game_id: str, bots: Sequence[str], cap: int, specs: Mapping[str, str] | None = None) -> list:
    """Each file bot among ``bots`` packed to travel to a cluster (``arcade.tournament.bundles.pack``:
    its folder's regular files, at most ``cap`` bytes; a bot named apart from its file, by its
    spec in ``specs``); ``TournamentError`` names the first file that cannot travel, before
    anything runs."""
    from arcade.tournament.bundles import BundleError, pack
    from bots.external import is_file_spec, parse_spec
    from bots.external.specs import named_file

    packed = []
    for bot in bots:
        spec = (specs or {}).get(bot, bot)
        if is_file_spec(spec):
            path, function = parse_spec(spec, game_id)
            try:
                packed.append(pack(bot, path, named_file(spec)[0], function, cap))
            except BundleError as exc:
                raise TournamentError(str(exc)) from None
    return packed


def bundle_data(data: bytes) -> bytes:
    """A bot's bundle as a task of its own on a cluster: sent once, kept by the cluster (made
    again from the task if the worker holding it dies), fetched by each chunk that needs it."""
    return data


def run_cluster_task(setup: Setup, task: Task, *data: bytes | None) -> list[GameRecord]:
    """``run_task`` on a cluster's worker: ``data`` holds the bundles of the task's bots ``a``
    and ``b`` (``None`` for a built-in), each checked against its digest (``setup.bundles``) and
    written to this machine's cache, read again and checked there, before it runs
    (``arcade.tournament.bundles.materialise``)."""
    from arcade.tournament.bundles import BundleError, materialise
    from bots.external import is_file_spec

    packed = {name: (spec, digest) for name, spec, digest in setup.bundles}
    files = {}
    for name, blob in zip((task.a, task.b), data):
        if is_file_spec(name) and (name not in packed or blob is None):  # never a file of this machine's
            raise BundleError(f"bot {name!r}: its files did not come with the task: not run")
        if name in packed:
            spec, digest = packed[name]
            files[name] = str(materialise(digest, blob) / spec)
    return run_task(setup, task, files=files)


def connect(address: str):
    """A Dask client of the scheduler at ``address`` (``tcp://HOST:PORT``, started with Dask's own
    ``dask scheduler``; workers with ``dask worker tcp://HOST:PORT``)."""
    try:
        from distributed import Client
    except ImportError:
        raise TournamentError("--cluster needs Dask's distributed: pip install 'contest-arcade[cluster]' "
                              "(or pip install distributed)") from None
    try:
        return Client(address, timeout=10)
    except (OSError, TimeoutError) as exc:
        raise TournamentError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
