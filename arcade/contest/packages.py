"""A submission's own packages: the ``requirements.txt`` of a folder handed in, installed by
``arcade bot install``'s rules (``bots.external.deps``: a grammar, wheels only, pip isolated and
outside the student's folder) into the kept copy's ``.deps``, once per submission (the copy is
named by its digest: the same bytes handed in again find their packages installed).

A contest allows only the packages its ``contest.toml`` names (``packages``; none by default):
each requirement's name (or a wheel's project) must be one of them; what pip then installs for
them comes along. pip takes them from ``wheels``, a folder of wheels the instructor keeps
(``--no-index --find-links``), or from the package index where ``wheels`` is empty.
``max_bytes`` caps the student's own bytes only: a ``.deps`` they installed themselves is no part
of their hand-in (``arcade.contest.store``), and the packages installed here are not counted.
"""

from __future__ import annotations

from pathlib import Path

from bots import DEPS
from bots.external.deps import REQUIREMENTS


def install_packages(folder: Path, config, top: Path) -> str | None:
    """Install the requirements of the kept submission whose bot folder is ``top`` (under the
    contest in ``folder``); ``None`` when done or there are none, else why not, in one line."""
    from bots.external import deps

    requirements = top / REQUIREMENTS
    if not requirements.is_file() or (top / DEPS).is_dir():
        return None
    try:
        if not deps.requirements_of(top):  # comments only: nothing to install
            return None
        problem = not_allowed(top, config.packages)
        if problem:
            return problem
        wheels = wheels_of(folder, config)
        deps.install(top, find_links=[str(wheels)] if wheels else (), no_index=bool(wheels))
    except deps.InstallError as exc:
        return str(exc).replace(str(folder / "submissions") + "/", "")
    return None


def wheels_of(folder: Path, config) -> Path | None:
    """The contest's folder of wheels (``wheels``, relative to the contest's folder), ``None``: the index."""
    if not config.wheels:
        return None
    path = Path(config.wheels)
    return path if path.is_absolute() else Path(folder) / path


def not_allowed(top: Path, allowed) -> str | None:
    """Why a requirement of ``top``'s ``requirements.txt`` is not among the contest's ``allowed``
    packages (names compared as pip compares them), ``None`` if each is."""
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name

    from bots.external import deps, safe_files

    names = {canonicalize_name(name) for name in allowed}
    fd = safe_files.open_folder(top)
    try:
        wanted = deps.wanted_of(fd, top / REQUIREMENTS)
    finally:
        import os

        os.close(fd)
    for number, line, item in wanted:
        if item is None:
            continue
        if item.kind == "wheel":
            name = Path(item.text).name.split("-", 1)[0]
        else:
            try:
                name = Requirement(item.text).name
            except InvalidRequirement:  # parsed by the grammar already
                name = item.text
        if canonicalize_name(name) not in names:
            allowed_text = ", ".join(sorted(allowed)) if allowed else "none"
            return (f"{REQUIREMENTS}, line {number}: {name} is not among the packages this contest allows "
                    f"({allowed_text}; contest.toml's packages)")
    return None
