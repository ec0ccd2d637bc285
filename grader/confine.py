"""What a graded kernel may write and hold open, past what bwrap's mounts say: read-only
remounts, Landlock rules applied by the last step inside its sandbox, and no descriptor but
stdin, stdout and stderr, all of them its own.

`sandbox` adds the bwrap arguments (`read_only`, `ipc`); outside, the launcher hands the kernel
its stdio before it execs bwrap (`handover`). Inside, once bwrap's mounts and seccomp filter are
in place, it runs `python -I -S confine.py RULES_JSON -- ARGV...` (`step`, `main`): it restricts
itself with Landlock (what it starts inherits the restriction and cannot lift it), closes every
descriptor past stderr, and execs ARGV. Landlock allows, where bwrap lets the kernel write at
all: anything in its own scratch folders, writing to a few named files (its cell log,
/dev/null...), and in the folder of its sockets (a host folder) only making and removing
sockets, so nothing there holds data. Reading and running stay what the mounts make them.
Standard library only (ctypes). It limits and watches nothing: `sandbox` sets the limits and
`watcher` counts the sockets from outside.
"""

import ctypes
import json
import os
import sys

# Landlock's system calls have the same numbers on every architecture Linux added them to.
_CREATE_RULESET, _ADD_RULE, _RESTRICT_SELF = 444, 445, 446
_VERSION = 1 << 0  # landlock_create_ruleset flag: ask for the ABI version
_PATH_BENEATH = 1
_PR_SET_NO_NEW_PRIVS = 38

WRITE_FILE, REMOVE_DIR, REMOVE_FILE = 1 << 1, 1 << 4, 1 << 5
MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK = 1 << 6, 1 << 7, 1 << 8, 1 << 9
MAKE_FIFO, MAKE_BLOCK, MAKE_SYM, REFER, TRUNCATE = 1 << 10, 1 << 11, 1 << 12, 1 << 13, 1 << 14
WRITES = {1: WRITE_FILE | REMOVE_DIR | REMOVE_FILE | MAKE_CHAR | MAKE_DIR | MAKE_REG | MAKE_SOCK
          | MAKE_FIFO | MAKE_BLOCK | MAKE_SYM, 2: REFER, 3: TRUNCATE}
"""The rights Landlock restricts here, by the ABI version that brought them: every way to change
a file system. Reading and executing are left to the mounts."""
FILE_RIGHTS = WRITE_FILE | TRUNCATE
"""The rights a rule on a single file (not a folder) may grant."""
DEVICES = ("/dev/null", "/dev/zero", "/dev/full")
"""Devices a kernel may open for writing (writes to them store nothing)."""
SOCKETS = "/run/sockets"
"""Where a kernel sees the host folder of its sockets (see `ipc`)."""


def read_only(args, *, keep):
    """bwrap arguments that make read-only, once all is mounted, the root and /dev (bwrap's
    tmpfs: RAM no limit counts) and every tmpfs in `args` but `keep` (the covers of hidden
    paths)."""
    covers = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg == "--tmpfs"]
    remount = []
    for path in ["/", "/dev", *covers]:
        if path not in keep:
            remount += ["--remount-ro", path]
    return remount


def ipc(sockets, connection, fds):
    """bwrap arguments for a kernel's ipc: the host's `sockets` folder at SOCKETS, and at
    `connection` a copy of its connection file naming it there. Not at its host path: that may
    lie under /tmp, and Landlock's rule for the kernel's own /tmp would reach it too. `fds`
    collects the descriptor bwrap reads the copy from."""
    with open(connection) as handle:
        info = json.load(handle)
    info["ip"] = os.path.join(SOCKETS, os.path.basename(info["ip"]))
    read, write = os.pipe()
    os.write(write, json.dumps(info).encode())
    os.close(write)
    fds.append(read)
    return ["--bind", sockets, SOCKETS, "--file", str(read), connection]


def _libc():
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    return libc


def abi():
    """The Landlock ABI version this kernel offers (0: none: too old, or not enabled)."""
    if not sys.platform.startswith("linux"):
        return 0
    version = _libc().syscall(_CREATE_RULESET, None, ctypes.c_size_t(0), ctypes.c_uint32(_VERSION))
    return max(int(version), 0)


class _PathBeneath(ctypes.Structure):
    _pack_ = 1  # struct landlock_path_beneath_attr is packed
    _fields_ = [("allowed_access", ctypes.c_uint64), ("parent_fd", ctypes.c_int32)]


def restrict(*, scratch, sockets, files):
    """Restrict this process (and all it starts) to writing in the `scratch` folders, making and
    removing sockets in `sockets`, and writing to `files` and the DEVICES. Returns None, or why
    Landlock could not be applied (then nothing is restricted)."""
    version = abi()
    if not version:
        return "Landlock is not available in this Linux kernel"
    handled = 0
    for since, rights in WRITES.items():
        handled |= rights if version >= since else 0
    libc = _libc()
    attr = ctypes.c_uint64(handled)  # struct landlock_ruleset_attr, its first (ABI 1) field
    ruleset = libc.syscall(_CREATE_RULESET, ctypes.byref(attr), ctypes.c_size_t(8),
                           ctypes.c_uint32(0))
    if ruleset < 0:
        return f"landlock_create_ruleset: {os.strerror(ctypes.get_errno())}"
    try:
        rules = [(path, handled) for path in scratch]
        rules += [(sockets, MAKE_SOCK | REMOVE_FILE)] if sockets else []
        rules += [(path, handled & FILE_RIGHTS) for path in [*files, *DEVICES]]
        for path, rights in rules:
            _allow(libc, ruleset, path, rights)
        if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) or libc.syscall(
                _RESTRICT_SELF, ctypes.c_int(ruleset), ctypes.c_uint32(0)):
            return f"landlock_restrict_self: {os.strerror(ctypes.get_errno())}"
    finally:
        os.close(ruleset)
    return None


def _allow(libc, ruleset, path, rights):
    try:
        fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
    except OSError:
        return  # not in this sandbox (a device bwrap did not make): nothing to allow
    try:
        rule = _PathBeneath(rights, fd)
        if libc.syscall(_ADD_RULE, ctypes.c_int(ruleset), ctypes.c_int(_PATH_BENEATH),
                        ctypes.byref(rule), ctypes.c_uint32(0)):
            raise OSError(ctypes.get_errno(), f"landlock_add_rule {path}")
    finally:
        os.close(fd)


def step(python, *, scratch, sockets, files):
    """The command bwrap runs to confine a kernel before it starts (see `restrict`)."""
    rules = {"scratch": scratch, "sockets": sockets, "files": files}
    return [python, "-I", "-S", os.path.abspath(__file__), json.dumps(rules), "--"]


def handover(out):
    """Outside, before bwrap: stdin on /dev/null, stdout and stderr appended to `out` (a file of
    the kernel's own), so nothing the kernel inherits shows it the grader's log. Says first, on
    the grader's log, if Landlock is missing here."""
    if not abi():
        print("sandbox launcher: Landlock is not available in this Linux kernel (5.13 or later, "
              "with landlock among its security modules): the kernel's sockets' folder is "
              "bounded only by the watcher", file=sys.stderr, flush=True)
    null = os.open(os.devnull, os.O_RDONLY)
    own = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    for fd, target in ((0, null), (1, own), (2, own)):
        os.dup2(target, fd)
    os.close(null)
    os.close(own)


def main(argv):
    """`RULES_JSON -- ARGV...`: restrict, close what ARGV must not inherit, exec it."""
    if len(argv) < 3 or argv[1] != "--":
        raise SystemExit("usage: python -I -S confine.py RULES_JSON -- ARGV...")
    rules = json.loads(argv[0])
    # Where Landlock is missing the launcher has said so already (outside, where the grader's log
    # is), and the watcher still bounds the sockets' folder; where it is there, it must hold.
    if abi():
        failed = restrict(scratch=rules["scratch"], sockets=rules.get("sockets"),
                          files=rules["files"])
        if failed:
            raise SystemExit(f"sandbox: {failed}")
    _close_inherited()
    os.execv(argv[2], argv[2:])


def _close_inherited():
    """Close every descriptor past stderr: bwrap passes on whatever it inherited."""
    for name in os.listdir("/proc/self/fd"):  # the listing's own descriptor is gone by then
        if int(name) > 2:
            try:
                os.close(int(name))
            except OSError:
                pass


if __name__ == "__main__":
    main(sys.argv[1:])
