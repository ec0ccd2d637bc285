"""The seccomp filter for graded code: a classic-BPF program that bwrap loads before it starts a
kernel (or the grading process): no new process, threads allowed.

Standard library only: the sandbox's launcher imports it before anything else. It knows x86_64
and aarch64; it does not decide what a sandbox may see (that is `sandbox`'s mounts).
"""

import os
import struct

# Classic BPF over struct seccomp_data {int nr; u32 arch; u64 ip; u64 args[6]}.
_LOAD, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _KILL, _ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
_EPERM, _ENOSYS, _CLONE_THREAD = 1, 38, 0x00010000
_ARCHES = {  # machine: AUDIT_ARCH_* and the numbers of the calls the filter looks at
    "x86_64": (0xC000003E, {"clone": 56, "clone3": 435, "fork": 57, "vfork": 58}),
    "aarch64": (0xC00000B7, {"clone": 220, "clone3": 435}),
}


def program(machine=None):
    """The filter: no new process (fork, vfork, clone without CLONE_THREAD), threads are fine;
    clone3 answered "not implemented" (the C library falls back to clone, whose flags a filter
    can read); another architecture's calls (a 32-bit `int 0x80`, x32) kill the process. The
    namespaces do the rest."""
    machine = machine or os.uname().machine
    if machine not in _ARCHES:
        raise OSError(f"no seccomp filter for {machine}; known: {sorted(_ARCHES)}")
    arch, number = _ARCHES[machine]
    program = [(_LOAD, 0, 0, 4), (_JEQ, "arch ok", "kill", arch), ("arch ok",), (_LOAD, 0, 0, 0)]
    if machine == "x86_64":
        program += [(_JGE, "deny", "native", 0x40000000), ("native",)]  # the x32 numbers
    program += [(_JEQ, "enosys", "not clone3", number["clone3"]), ("not clone3",)]
    for name in ("fork", "vfork"):
        if name in number:
            program += [(_JEQ, "deny", f"not {name}", number[name]), (f"not {name}",)]
    return _assemble(program + [
        (_JEQ, "clone", "allow", number["clone"]), ("clone",), (_LOAD, 0, 0, 16),
        (_JSET, "allow", "deny", _CLONE_THREAD),
        ("allow",), (_RET, 0, 0, _ALLOW), ("deny",), (_RET, 0, 0, _ERRNO | _EPERM),
        ("enosys",), (_RET, 0, 0, _ERRNO | _ENOSYS), ("kill",), (_RET, 0, 0, _KILL)])


def _assemble(program):
    """Pack (code, jump-if-true, jump-if-false, k) instructions; a 1-tuple is a label, and jump
    targets may name labels (resolved to the relative offsets BPF wants)."""
    where, count = {}, 0
    for item in program:
        if len(item) == 1:
            if item[0] in where:
                raise ValueError(f"label {item[0]!r} twice in a seccomp program")
            where[item[0]] = count
        else:
            count += 1
    out, index = b"", 0
    for item in program:
        if len(item) == 1:
            continue
        code, true, false, k = item
        jumps = [where[t] - index - 1 if isinstance(t, str) else t for t in (true, false)]
        out += struct.pack("HBBI", code, *jumps, k)
        index += 1
    return out
