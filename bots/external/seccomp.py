"""The seccomp filter of a file bot's processes: ``ptrace`` and its relatives (``DENIED_CALLS``)
fail with ``EPERM``, and so does every call made through another architecture's entry. Bubblewrap
loads it from a descriptor (``seccomp_fd``, its ``--seccomp``); an unsandboxed bot loads it on
itself (``install_seccomp``, from ``bots.external.transport``)."""

from __future__ import annotations

import errno
import os

DENIED_CALLS = ("ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd", "process_madvise",
                "perf_event_open", "bpf", "userfaultfd", "keyctl", "add_key", "request_key",
                "io_uring_setup", "io_uring_enter", "io_uring_register")
"""System calls a bot's processes may not make (they fail with ``EPERM``): tracing or reading
another process (bwrap's reaper, its own), the kernel's keyrings, BPF, perf, userfaultfd and
io_uring (a kernel attack surface no bot needs)."""

_SYSCALLS = {
    "x86_64": (0xC000003E, (101, 310, 311, 312, 438, 440, 298, 321, 323, 250, 248, 249, 425, 426, 427)),
    "aarch64": (0xC00000B7, (117, 270, 271, 272, 438, 440, 241, 280, 282, 219, 217, 218, 425, 426, 427)),
}
"""Each machine's audit architecture and the numbers of ``DENIED_CALLS``, in that order."""
X32 = 0x40000000
"""x86_64's x32 system calls (``nr | X32``), refused whole, as is any other architecture's call."""


def seccomp_program(machine: str | None = None) -> bytes | None:
    """The classic BPF program (``struct sock_filter`` entries) that fails ``DENIED_CALLS`` with
    ``EPERM``, and every call made through another architecture's entry (the 32-bit ones, x32);
    ``None`` on a machine it does not know (no filter there). Built here, not with libseccomp:
    fifteen comparisons, and the Python bindings of libseccomp on PyPI are unmaintained."""
    import struct

    machine = machine or os.uname().machine
    if machine not in _SYSCALLS:
        return None
    arch, numbers = _SYSCALLS[machine]
    load, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06
    deny, allow = 0x00050000 | errno.EPERM, 0x7FFF0000
    checks = [(jge, X32)] if machine == "x86_64" else []
    checks += [(jeq, number) for number in numbers]
    program = [(load, 0, 0, 4), (jeq, 1, 0, arch), (ret, 0, 0, deny), (load, 0, 0, 0)]
    for at, (op, value) in enumerate(checks):
        program.append((op, len(checks) - at, 0, value))  # to the last entry: deny
    program += [(ret, 0, 0, allow), (ret, 0, 0, deny)]
    return b"".join(struct.pack("=HBBI", *entry) for entry in program)


def seccomp_fd() -> int | None:
    """A new descriptor holding ``seccomp_program()`` from its start, for bwrap's ``--seccomp``
    (bwrap reads it to its end: one a process), or ``None`` without a program here."""
    program = seccomp_program()
    if program is None:
        return None
    fd = os.memfd_create("arcade-seccomp", os.MFD_CLOEXEC)
    os.write(fd, program)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def install_seccomp() -> bool:
    """Load ``seccomp_program()`` on this process (and all it starts), with no new privileges:
    an unsandboxed bot's (``set_limits``). ``False`` where it cannot be loaded."""
    import ctypes

    program = seccomp_program()
    if program is None:
        return False

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    buffer = ctypes.create_string_buffer(program, len(program))
    fprog = Fprog(len(program) // 8, ctypes.addressof(buffer))
    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
    if libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        return False
    return libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0) == 0
