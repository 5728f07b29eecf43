"""The local worker pool's semaphores, named only until its workers hold them.

A ``multiprocessing`` queue is made of POSIX named semaphores (``sem_open``). Under the forkserver
and spawn start methods a worker opens them by their names, so they stay linked in ``/dev/shm`` and
registered with the resource tracker (a helper process the run starts) until the run ends: a run
killed with ``kill -9`` leaves them to the tracker, which unlinks them and says "There appear to be
8 leaked semaphore objects to clean up at shutdown" (the pool's call queue holds 3, its result
queue 2, the run's stream of games 3); killed with its whole process group, the tracker too, it
leaves them in ``/dev/shm`` for good.

``sealing_context`` is the start method's context remembering every semaphore made through it;
``Seal`` unlinks them and tells the tracker to forget them once every worker has opened them (each
says so on a pipe as it starts, ``arcade.tournament.worker.worker_init``; ``Runner.start_pool``
starts every worker at once, so no later worker needs a name). From then on a semaphore lives as
long as a process maps it: a kill, of the run or of its whole group, leaves nothing to clean up and
nothing is said. Where this Python makes its semaphores otherwise (no finalizer of the known shape)
nothing is sealed and they end as ``multiprocessing`` ends them."""

from __future__ import annotations

import threading
from typing import Any


def sealing_context(context: Any) -> Any:
    """``context`` (a forkserver's or spawn's ``multiprocessing`` context) as one that keeps, in
    its ``made``, every lock and semaphore made through it (the queues' and the executor's)."""

    class Sealing(type(context)):  # type: ignore[misc]
        def __init__(self) -> None:
            self.made: list = []

        def _keep(self, made):
            self.made.append(made)
            return made

        def Lock(self):  # noqa: N802 - multiprocessing's names
            return self._keep(super().Lock())

        def RLock(self):  # noqa: N802
            return self._keep(super().RLock())

        def Semaphore(self, value=1):  # noqa: N802
            return self._keep(super().Semaphore(value))

        def BoundedSemaphore(self, value=1):  # noqa: N802
            return self._keep(super().BoundedSemaphore(value))

    Sealing.__name__ = Sealing.__qualname__ = f"Sealing{type(context).__name__}"
    return Sealing()


class Seal:
    """Seals the semaphores of ``context`` (a ``sealing_context``) once ``workers`` workers have
    each sent a byte on ``ready`` (the read end of their pipe): a thread waits for them. ``close``
    (the pool's end) stops it; a seal under way finishes first, so the pool never ends with half
    its semaphores sealed. ``sealed`` says whether it happened."""

    def __init__(self, context: Any, ready, workers: int) -> None:
        self.context = context
        self.ready = ready
        self.workers = workers
        self.sealed = False
        self.closed = False
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._wait, name="pool-seal", daemon=True)
        self.thread.start()

    def _wait(self) -> None:
        told = 0
        try:
            while told < self.workers:
                if self.closed:
                    return
                if self.ready.poll(0.2):
                    self.ready.recv_bytes()
                    told += 1
        except (EOFError, OSError):  # every worker gone before all were up: the pool is broken
            return
        with self.lock:
            if not self.closed:
                self.sealed = seal(self.context.made)

    def close(self) -> None:
        with self.lock:
            self.closed = True
        self.thread.join(timeout=1)
        try:
            self.ready.close()
        except OSError:
            pass


def seal(locks: list) -> bool:
    """Unlink the named semaphores of ``locks`` (``multiprocessing.synchronize`` objects every
    process that uses them has opened), tell the resource tracker to forget them and cancel the
    finalizers that would unlink them at the end; ``False``, touching nothing, where this Python
    keeps them otherwise."""
    from multiprocessing import resource_tracker, util
    from multiprocessing.synchronize import SemLock

    from _multiprocessing import sem_unlink

    named = {id(lock): lock._semlock.name for lock in locks if getattr(getattr(lock, "_semlock", None), "name", None)}
    registry = getattr(util, "_finalizer_registry", None)  # multiprocessing's own, as it has long been
    cleanup = getattr(SemLock, "_cleanup", None)
    if not named or registry is None or cleanup is None:
        return False
    finalizers = {}
    for finalizer in list(registry.values()):
        target = getattr(finalizer, "_weakref", None)
        lock = target() if target is not None else None
        if id(lock) in named and getattr(finalizer, "_callback", None) is cleanup \
                and getattr(finalizer, "_args", None) == (named[id(lock)],):
            finalizers[id(lock)] = finalizer
    if finalizers.keys() != named.keys():
        return False
    for key, name in named.items():
        finalizers[key].cancel()
        try:
            sem_unlink(name)
        except FileNotFoundError:
            pass
        resource_tracker.unregister(name, "semaphore")
    return True
