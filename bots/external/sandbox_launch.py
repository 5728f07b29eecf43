"""How root starts a bot's bwrap sandbox: as ``nobody``, so that the bot is nobody to the kernel too.

``bots.external.sandbox.command`` runs this file by its path, when the arcade is root, as
``python -I -S sandbox_launch.py ARCADE_PID BWRAP ARGS...`` (the bot's process, after
``set_limits`` and joining its pids cgroup); it execs ``BWRAP ARGS...`` in its place. It imports
nothing but ``os``, ``sys`` and ``ctypes``: it runs before every sandboxed bot.

Why: inside its user namespace the bot is ``nobody`` without capabilities whoever starts it, but
bwrap maps that user to the one who started it. Mapped to root, the bot would still own every
root-owned file in reach: it could change the modes of the host's ``/dev/null`` and the other
devices bound read-write into its ``/dev``, and its processes would escape ``RLIMIT_NPROC``
(the kernel exempts root's). Started as ``nobody`` outright, bwrap could not reach the folders
only root may enter (``/root``, where a root's Python or checkout may live).

So, in a mount namespace of its own (the host sees none of it): open each ``--ro-bind`` source as
root; mount a small tmpfs over ``STAGE`` that others may enter and bind each source into it; drop
to ``UNPRIVILEGED`` (no supplementary groups; the parent's death signal set again, since a change
of user clears it); exec bwrap, unprivileged, with the staged paths. What the bot reads in the
arcade's binds (the Python runtime, ``games/``, ``bots/``) must then be readable by others, as
files made under the usual ``umask 022`` are.

The bot's own folder (the bind to ``/bot``) is not bound but **copied**, as root, into a tmpfs of
at most ``FOLDER_MAX`` bytes, readable by others and read-only: a folder only its owner may
enter (``umask 077``, pytest's temporary folders, ``/root``) works as it does for a user. Only
regular files and folders are copied, never through a symbolic link nor a hard link (a link in a
student's folder must not make root read a file the student may not), and nothing else (FIFOs,
devices, sockets):
``walk_folder`` says what a bot's folder is, here and for a cluster (``arcade.tournament.bundles``).
"""

import os
import sys

UNPRIVILEGED = 65534
"""``bots.external.sandbox.UNPRIVILEGED`` (this file imports nothing of the arcade's)."""
STAGE = "/tmp"
"""Where the staging tmpfs goes, in this process's own mount namespace (it hides the host's
``/tmp`` from bwrap only: the sources were opened before)."""

FOLDER_MAX = 64 << 20
"""Bytes of a bot's folder that root copies into its sandbox (more: the launcher fails, saying so)."""
BOT = "/bot"
"""Where ``sandbox.command`` binds the bot's folder (the bind this launcher copies instead)."""
DEPS = ".deps"
"""``bots.DEPS``: the installed packages in the bot's folder, bound (never copied: numpy
alone is over ``FOLDER_MAX``) at ``/bot/.deps``. Opened without following a link, so a student's
``.deps`` that is a link binds nothing (the launcher fails, saying so)."""

CLONE_NEWNS, MS_NOSUID, MS_NODEV, MS_BIND, MS_REC, MS_PRIVATE = 0x20000, 2, 4, 4096, 16384, 1 << 18
PR_SET_PDEATHSIG, SIGKILL = 1, 9


def kind_of(mode: int) -> str:
    """What a file that is not a regular file or a folder is, in words (for a refusal's one line)."""
    import stat

    for test, words in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
                        (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a regular file"


HARD_LINK = "a hard link (a file with another name too)"
"""What ``walk_folder`` calls a regular file of more than one name: it may be a file of someone
else's, linked in (an archive's hard link, extracted), so it is not the bot's to read."""


READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK | os.O_NOCTTY
"""How ``walk_folder`` opens each entry (never through a link, a FIFO never blocking the open):
a file it cannot open so is left out of the bot's copy (``bots.external.specs.kept_file`` asks
the same)."""


def _skip(path: str, what: str) -> None:
    """``walk_folder``'s default for what it does not yield: nothing (it is left out)."""


def walk_folder(source: int, other=_skip, skip: frozenset = frozenset()):
    """What a bot's folder is: the folders and regular files under the folder open as ``source``
    (a descriptor), names in sorted order, depth first, as ``(kind, path, fd)``: ``("dir", path,
    None)`` for a folder, ``("file", path, fd)`` for a regular file, open for reading while the
    caller has it (closed when the walk goes on); ``path`` is relative, ``/``-separated. Nothing is
    followed through a symbolic link: each entry is looked at without following it, opened with
    ``O_NOFOLLOW`` (a FIFO never blocks the open: ``O_NONBLOCK``), and what was opened is checked
    again on its descriptor (it may have been swapped since the look). Anything else (a symbolic
    link, a hard link: a file with another name too, FIFO, device, socket, a file that vanished,
    changed or cannot be opened) is never read:
    ``other(path, what)`` hears of it, ``what`` in words (by default it is left out). The bot's
    sandbox as root copies these (``copy_folder``); a cluster sends these (``arcade.tournament.bundles``).
    The top folder's names in ``skip`` are not walked at all (a contest's hand-in leaves out the
    packages a student installed: ``DEPS``)."""
    import errno
    import stat

    flags = READ_FLAGS
    stack = []
    try:
        stack.append(("", os.open(".", os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC, dir_fd=source), iter(())))
        stack[0] = ("", stack[0][1], iter(sorted(n for n in os.listdir(stack[0][1]) if n not in skip)))  # (source may be an O_PATH one)
        while stack:
            prefix, folder, names = stack[-1]
            name = next(names, None)
            if name is None:
                os.close(folder)
                stack.pop()
                continue
            path = prefix + name
            try:
                look = os.stat(name, dir_fd=folder, follow_symlinks=False)
                mode = look.st_mode
                if not (stat.S_ISDIR(mode) or stat.S_ISREG(mode)):
                    other(path, kind_of(mode))
                    continue
                if stat.S_ISREG(mode) and look.st_nlink > 1:
                    other(path, HARD_LINK)
                    continue
                fd = os.open(name, flags | (os.O_DIRECTORY if stat.S_ISDIR(mode) else 0), dir_fd=folder)
            except OSError as exc:  # vanished, or became a link (O_NOFOLLOW: ELOOP), or no right to read
                other(path, "a symbolic link" if exc.errno == errno.ELOOP else f"unreadable ({exc.strerror})")
                continue
            info = os.fstat(fd)
            opened = info.st_mode
            if stat.S_IFMT(opened) != stat.S_IFMT(mode) or (stat.S_ISREG(opened) and info.st_nlink > 1):
                os.close(fd)  # changed since the look above
                other(path, HARD_LINK if stat.S_ISREG(opened) else kind_of(opened))
                continue
            if stat.S_ISDIR(opened):
                try:
                    names = iter(sorted(os.listdir(fd)))
                except OSError as exc:
                    os.close(fd)
                    other(path, f"unreadable ({exc.strerror})")
                    continue
                stack.append((path + "/", fd, names))
                yield "dir", path, None
                continue
            try:
                os.set_blocking(fd, True)
                yield "file", path, fd
            finally:
                os.close(fd)
    finally:
        for _prefix, folder, _names in stack:
            os.close(folder)


def copy_folder(source: int, target: str, skip: str | None = None, limit: int | None = None) -> None:
    """Copy what ``walk_folder`` finds in the folder open as ``source`` (a descriptor: its regular
    files and folders, never through a symbolic link, nothing else) into ``target`` (an empty folder),
    files ``0444`` and folders ``0555``, set on each one made, whatever the ``umask``; ``OSError``
    when a file cannot be read or the copy does not fit (``ENOSPC``: over ``FOLDER_MAX``, the size
    of root's tmpfs, or over ``limit`` bytes). The top folder's ``skip`` (``DEPS``, bound on its
    own) is not copied: an empty folder stands for it."""
    made = [target]
    if skip is not None:
        os.mkdir(os.path.join(target, skip), 0o755)  # where the bind goes
        made.append(os.path.join(target, skip))
    left = [limit]
    for kind, path, fd in walk_folder(source):
        if skip is not None and (path == skip or path.startswith(skip + "/")):
            continue
        here = os.path.join(target, path)
        if kind == "dir":
            os.mkdir(here, 0o755)
            made.append(here)
            continue
        info = os.fstat(fd)
        out = os.open(here, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o444)
        try:
            _copy_file(fd, out, left)
            os.fchmod(out, 0o444)
        except OSError as exc:
            raise OSError(exc.errno, f"copying the bot's folder ({path}): {exc.strerror}"
                          + (f"; it must fit in {FOLDER_MAX >> 20} MiB" if exc.errno == 28 else "")) from None
        finally:
            os.close(out)
        os.utime(here, ns=(info.st_atime_ns, info.st_mtime_ns))
    for folder in reversed(made):
        os.chmod(folder, 0o555)


def _copy_file(source: int, out: int, left: list) -> None:
    """Copy the rest of ``source`` to ``out``; ``left[0]``: the bytes the copy may still take
    (``None``: no count), lowered as it goes (``ENOSPC`` past it)."""
    while chunk := os.read(source, 1 << 20):
        if left[0] is not None:
            left[0] -= len(chunk)
            if left[0] < 0:
                raise OSError(28, os.strerror(28))
        view = memoryview(chunk)
        while view:
            view = view[os.write(out, view):]


def _unbounded_copy(source: int, target: str, skip: str | None = None) -> None:
    """``copy_folder`` past the bot's file-size limit (``RLIMIT_FSIZE``, 1 MiB, the soft limit
    ``sandbox.set_limits`` set on this process), which bounds what the bot writes, not its
    folder's files (a 3 MiB weights file): ``FOLDER_MAX`` bounds the copy. Root's hard limit is
    left above it for this copy; ``_hold_file_size`` lowers it before the bot runs."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))
    try:
        copy_folder(source, target, skip)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))


def _hold_file_size() -> None:
    """The file-size limit's hard limit down to its soft one: the bot cannot raise it."""
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    resource.setrlimit(resource.RLIMIT_FSIZE, (soft, soft))


def _same_folder(fd: int) -> int:
    """The folder open as ``fd`` (opened in the arcade's mount namespace, which a bind cannot
    take it from) opened again in this one: by the path the kernel gives it, checked to be that
    very folder (a folder has one name: the same device and inode is the same folder, whatever
    was renamed since). ``OSError`` when it is not; ``fd`` is closed."""
    try:
        before = os.fstat(fd)
        again = os.open(os.readlink(f"/proc/self/fd/{fd}"), os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    finally:
        os.close(fd)
    now = os.fstat(again)
    if (now.st_dev, now.st_ino) != (before.st_dev, before.st_ino):
        os.close(again)
        raise OSError(2, "the bot's .deps was moved while its sandbox was made")
    return again


def launch(arcade: int, bwrap: str, args: list[str]) -> None:
    """Stage ``args``' ``--ro-bind`` sources, become ``UNPRIVILEGED`` and exec ``bwrap`` (never
    returns); ``OSError`` when a step fails. ``arcade`` is the pid that must still be our parent
    once the death signal is set again."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def check(result: int, what: str) -> None:
        if result != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"{what}: {os.strerror(error)}")

    check(libc.unshare(CLONE_NEWNS), "unshare")
    check(libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None), "making the mounts private")
    end = args.index("--")
    sources = []  # opened before the staging tmpfs hides STAGE (a bot's folder may be in /tmp)
    deps = f"{BOT}/{DEPS}"
    for at in range(end):
        if args[at] == "--ro-bind-fd":  # .deps, or the bot's folder, as the arcade opened and checked it
            sources.append((at + 1, _same_folder(int(args[at + 1]))))
        elif args[at] == "--ro-bind":
            flags = os.O_PATH | os.O_CLOEXEC
            if args[at + 2] == deps:  # in the student's folder: never through a link
                flags |= os.O_NOFOLLOW | os.O_DIRECTORY
            sources.append((at + 1, os.open(args[at + 1], flags)))
    check(libc.mount(b"tmpfs", STAGE.encode(), b"tmpfs", MS_NOSUID | MS_NODEV, b"mode=0755,size=64k"), "staging")
    staged = list(args)
    for number, (at, fd) in enumerate(sources):
        target = f"{STAGE}/{number}"
        if args[at + 1] == BOT:  # the bot's folder: a copy that others may read
            os.mkdir(target)
            check(libc.mount(b"tmpfs", target.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                             f"mode=0755,size={FOLDER_MAX}".encode()), "a tmpfs for the bot's folder")
            _unbounded_copy(fd, target, DEPS if deps in args[:end] else None)
            os.close(fd)
            staged[at - 1], staged[at] = "--ro-bind", target  # (given as a descriptor: bound as the copy)
            continue
        if os.path.isdir(f"/proc/self/fd/{fd}"):
            os.mkdir(target)
        else:
            os.close(os.open(target, os.O_CREAT | os.O_WRONLY, 0o644))
        check(libc.mount(f"/proc/self/fd/{fd}".encode(), target.encode(), None, MS_BIND | MS_REC, None),
              f"binding {args[at]}")
        os.close(fd)
        staged[at - 1], staged[at] = "--ro-bind", target
    _hold_file_size()
    os.setgroups([])
    os.setresgid(UNPRIVILEGED, UNPRIVILEGED, UNPRIVILEGED)
    os.setresuid(UNPRIVILEGED, UNPRIVILEGED, UNPRIVILEGED)
    libc.prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)
    if os.getppid() != arcade:  # the arcade died before the signal was set again
        os._exit(70)
    os.execv(bwrap, [bwrap, *staged])


if __name__ == "__main__":
    try:
        launch(int(sys.argv[1]), sys.argv[2], sys.argv[3:])
    except OSError as exc:
        print(f"the sandbox's launcher (as root) failed: {exc}", file=sys.stderr)
        sys.exit(71)
