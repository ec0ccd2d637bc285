"""Seccomp filters for graded code: the classic-BPF programs, and the calls that load them.

`program` builds a filter (bwrap loads it before it starts a kernel: no new process); a child
forked by a warm parent in the sandbox loads a stricter one itself (`confine_child`: no process,
signals only to itself, no ptrace), and the parent makes itself undumpable (`protect_parent`).
Standard library only: the sandbox's launcher imports it before anything else. It knows x86_64
and aarch64; it does not decide what a sandbox may see (that is `sandbox`'s mounts).
"""

import os
import struct

# Classic BPF over struct seccomp_data {int nr; u32 arch; u64 ip; u64 args[6]}.
_LOAD, _JEQ, _JGE, _JSET, _RET = 0x20, 0x15, 0x35, 0x45, 0x06
_ALLOW, _KILL, _ERRNO = 0x7FFF0000, 0x80000000, 0x00050000
_EPERM, _ENOSYS, _CLONE_THREAD = 1, 38, 0x00010000
_ARCHES = {  # machine: AUDIT_ARCH_* and the numbers of the calls the filters look at
    "x86_64": (0xC000003E, {"clone": 56, "clone3": 435, "fork": 57, "vfork": 58, "kill": 62,
                            "tkill": 200, "tgkill": 234, "ptrace": 101, "process_vm_writev": 311,
                            "pidfd_send_signal": 424, "pidfd_getfd": 438}),
    "aarch64": (0xC00000B7, {"clone": 220, "clone3": 435, "kill": 129, "tkill": 130,
                             "tgkill": 131, "ptrace": 117, "process_vm_writev": 271,
                             "pidfd_send_signal": 424, "pidfd_getfd": 438}),
}


def program(machine=None, *, forks=False, signals_to=None):
    """A seccomp filter. Always: clone3 answered "not implemented" (the C library falls back to
    clone, whose flags a filter can read), and another architecture's calls (a 32-bit
    `int 0x80`, x32) kill the process. Unless `forks`: no new process (fork, vfork, clone without
    CLONE_THREAD); threads are fine. With `signals_to` (a pid): signals only to that process, and
    no ptrace or reaching into another process's memory or files. The namespaces do the rest."""
    machine = machine or os.uname().machine
    if machine not in _ARCHES:
        raise OSError(f"no seccomp filter for {machine}; known: {sorted(_ARCHES)}")
    arch, number = _ARCHES[machine]
    program = [(_LOAD, 0, 0, 4), (_JEQ, "arch ok", "kill", arch), ("arch ok",), (_LOAD, 0, 0, 0)]
    if machine == "x86_64":
        program += [(_JGE, "deny", "native", 0x40000000), ("native",)]  # the x32 numbers
    denied = []
    if not forks:
        denied += [name for name in ("fork", "vfork") if name in number]
    if signals_to is not None:
        denied += ["tkill", "ptrace", "process_vm_writev", "pidfd_send_signal", "pidfd_getfd"]
        for call in ("kill", "tgkill"):  # allowed only with the pid as first argument
            program += [(_JEQ, f"is {call}", f"not {call}", number[call]), (f"is {call}",),
                        (_LOAD, 0, 0, 16), (_JEQ, "allow", "deny", signals_to), (f"not {call}",)]
    program += [(_JEQ, "enosys", "not clone3", number["clone3"]), ("not clone3",)]
    for name in denied:
        program += [(_JEQ, "deny", f"not {name}", number[name]), (f"not {name}",)]
    if not forks:
        program += [(_JEQ, "clone", "allow", number["clone"]), ("clone",), (_LOAD, 0, 0, 16),
                    (_JSET, "allow", "deny", _CLONE_THREAD)]
    return _assemble(program + [
        ("allow",), (_RET, 0, 0, _ALLOW), ("deny",), (_RET, 0, 0, _ERRNO | _EPERM),
        ("enosys",), (_RET, 0, 0, _ERRNO | _ENOSYS), ("kill",), (_RET, 0, 0, _KILL)])


def confine_child():
    """In a child forked by a warm parent in the sandbox, before any student code: no process
    of its own, signals only to itself, no ptrace (seccomp filters stack and cannot be lifted)."""
    import ctypes

    code = program(forks=False, signals_to=os.getpid())
    libc = ctypes.CDLL(None, use_errno=True)
    buffer = ctypes.create_string_buffer(code, len(code))

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Program(len(code) // 8, ctypes.addressof(buffer))
    if libc.prctl(38, 1, 0, 0, 0) or libc.prctl(22, 2, ctypes.byref(fprog), 0, 0):  # NO_NEW_PRIVS,
        raise OSError(ctypes.get_errno(), "the child could not confine itself (seccomp)")  # SECCOMP


def protect_parent():
    """The warm parent: not dumpable, so a child running as the same user cannot read or write
    its memory through /proc (nor ptrace it, which the child's filter refuses too)."""
    import ctypes

    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE


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
