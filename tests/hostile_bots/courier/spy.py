"""A malicious student's toothpick strategy for a cluster (tests/arcade/tournament/test_bundles.py): it looks for
what the coordinator holds (the open record, with its seed; the instructor's environment; a file
the student may not read) everywhere it can reach: every file its folder holds (where the test
planted links, before they were refused), every open regular file of every process it can see
(``/proc/*/fd``) and every process's environment. It plays 1 when it found nothing; else it
raises, naming what it found (its forfeit reason carries it back to the test)."""

import os
import stat
from pathlib import Path

MARKERS = (b'"se' + b'ed"', b"instructor-" + b"token-55", b"SECRET " + b"GRADES")
"""A record's header, the instructor's environment (tests set it), the student-proof file (cut
in two here, so that this file does not hold them)."""


def _peek(path):
    """Up to 1 MiB of ``path`` if it is a regular file (never a pipe: reading the protocol's
    pipes through /proc would block or steal)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return b""
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return b""
    try:
        return os.read(fd, 1 << 20)
    except OSError:
        return b""
    finally:
        os.close(fd)


def places():
    here = Path(__file__).resolve().parent
    for folder, _, files in os.walk(here):
        for name in files:
            yield os.path.join(folder, name)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            yield f"/proc/{entry}/environ"
            try:
                fds = os.listdir(f"/proc/{entry}/fd")
            except OSError:
                continue
            for fd in fds:
                yield f"/proc/{entry}/fd/{fd}"


def strategy(left):
    found = sorted({f"{path}: {marker.decode()}" for path in places() for marker in MARKERS
                    if marker in _peek(path)})
    if found:
        raise RuntimeError("LEAK " + "; ".join(found)[:400])
    return 1
