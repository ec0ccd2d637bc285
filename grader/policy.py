"""What graded code may not do while the batch grades it: a Python audit hook, set once per process.

`install` adds the hook (Python offers no way to remove one). From then on, with a PermissionError
that names the rule: no network connection, no new process, no ctypes, no database, no gc
introspection, no profiler or tracer except the checks' own, no change to harness functions; no
read inside a private path (the other students' folders, the gradebook, the course source) and no
write, link or `chdir` outside the code's own folder and temp folder. The batch loads it into every
grading kernel as an IPython extension (`load_ipython_extension`, which also logs each cell it runs)
and into the re-check. It guards Python code only, not native code: it is no OS sandbox.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

ENV = "AGENT_LOOP_KIT_GRADING"
"""JSON settings from the batch: {"private": [paths], "progress": dir, "memory_mb": int}."""

DENIED = "blocked by the grader"
_NETWORK = {"socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg"}
_LOOKUPS = {"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr",
            "socket.getnameinfo"}
_LOCAL_NAMES = (None, "", b"", "localhost", b"localhost", "127.0.0.1", "::1")
_PROCESS = {"subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
            "os.forkpty", "pty.spawn", "os.startfile", "os.killpg"}
_INTROSPECTION = {"gc.get_objects", "gc.get_referrers", "gc.get_referents", "sys.addaudithook"}
_WRITES = {"os.mkdir", "os.rmdir", "os.remove", "os.rename", "os.link", "os.symlink", "os.chmod",
           "os.chown", "os.truncate", "os.utime", "os.mkfifo", "os.mknod", "os.setxattr",
           "os.removexattr", "shutil.move", "shutil.rmtree", "shutil.copymode", "shutil.copystat"}
_COPIES = {"shutil.copyfile", "shutil.copytree", "shutil.unpack_archive", "shutil.make_archive"}
_PRIVATE_SUFFIXES = (".ipynb", ".db", ".sqlite", ".sqlite3")
"""Notebooks and databases outside the code's own folder: solutions and gradebooks, anywhere."""
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND


def settings() -> dict[str, Any]:
    """The batch's settings for this process (empty outside the batch)."""
    try:
        return json.loads(os.environ.get(ENV, "{}"))
    except ValueError:
        return {}


def install(own: str, private: list[str], *, allowed_profilers: tuple[Any, ...] = ()) -> None:
    """Guard this process: `own` is the one folder code may write to (and `chdir` within)."""
    # Everything the hook calls is captured now, so later monkeypatching cannot reach into it; the
    # hook has no re-entry flag, so code it triggers (a path object's __fspath__) is guarded too.
    from _stat import S_ISLNK

    resolve_with, lstat, readlink, getcwd, fspath = _resolve_with, os.lstat, os.readlink, \
        os.getcwd, os.fspath
    _isinstance, _str, _bytes, _int, _any, _getattr, _bool, _len = isinstance, str, bytes, int, \
        any, getattr, bool, len
    _getframe, _PermissionError, _FunctionType = sys._getframe, PermissionError, type(install)
    encoding, pid = sys.getfilesystemencoding(), os.getpid()
    own_root = resolve_with(own, lstat, readlink, getcwd, S_ISLNK)
    roots = tuple(resolve_with(p, lstat, readlink, getcwd, S_ISLNK) for p in private)
    profilers, proc_self = tuple(allowed_profilers), _str(pid)

    def within(path: str, root: str) -> bool:
        return path == root or path.startswith(root + "/")

    def deny(what: str) -> None:
        raise _PermissionError(f"{what}: {DENIED} (batch grading allows no such access)")

    def resolve(path: Any) -> str:
        path = fspath(path)
        if _isinstance(path, _bytes):
            path = path.decode(encoding, "surrogateescape")
        return resolve_with(path, lstat, readlink, getcwd, S_ISLNK)

    def check(path: Any, writing: bool) -> None:
        if path is None or _isinstance(path, _int):
            return  # a file descriptor: it was checked when it was opened
        real = resolve(path)
        if within(real, own_root):
            return
        if writing:
            if real != "/dev/null":
                deny(f"writing {real!r} outside this notebook's folder")
            return
        if _any(within(real, root) for root in roots) or real.endswith(_PRIVATE_SUFFIXES):
            deny(f"reading {real!r} (a private path: other students, the gradebook, the source)")
        parts = real.split("/")
        if _len(parts) > 2 and parts[1] == "proc" and parts[2].isdigit() and parts[2] != proc_self:
            deny(f"reading {real!r} (another process)")

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            path, mode, flags = args
            writing = _any(c in (mode or "") for c in "wax+") \
                or (_isinstance(flags, _int) and flags > 0 and _bool(flags & _WRITE_FLAGS))
            check(path, writing)
        elif event in ("os.listdir", "os.scandir"):
            check(args[0] if args[0] is not None else ".", False)
        elif event == "os.chdir":
            if not within(resolve(args[0]), own_root):
                deny(f"changing the working directory to {args[0]!r}")
        elif event in _WRITES:
            for arg in args:
                if not _isinstance(arg, _int) and arg is not None:
                    check(arg, True)
        elif event in _COPIES:
            check(args[0], False)
            check(args[1], True)
        elif event in _NETWORK:
            deny(f"a network connection ({event})")
        elif event in _LOOKUPS and args and args[0] not in _LOCAL_NAMES:
            deny(f"a name lookup ({event} {args[0]!r})")
        elif event in _PROCESS:
            deny(f"starting or signalling processes ({event})")
        elif event == "os.kill" and args[0] != pid:
            deny("signalling another process")
        elif event.startswith("ctypes."):
            deny(f"ctypes ({event})")
        elif event == "sqlite3.connect" and args[0] not in (":memory:", b":memory:"):
            deny("opening a database")
        elif event in _INTROSPECTION:
            deny(event)
        elif event in ("sys.setprofile", "sys.settrace"):
            caller = _getframe(1).f_code
            if caller not in profilers:
                deny(f"{event} from {caller.co_filename}:{caller.co_name}")
        elif event in ("object.__setattr__", "object.__delattr__"):
            target = args[0]
            module = _getattr(target, "__module__", None)
            if _isinstance(target, _FunctionType | type) and _isinstance(module, _str) \
                    and (module == "harness" or module.startswith("harness.")):
                deny(f"changing {module}.{_getattr(target, '__qualname__', '?')}")

    temp = own_root + "/.tmp"  # code that asks for a temp folder gets one it may write to
    os.makedirs(temp, exist_ok=True)
    import tempfile

    tempfile.tempdir = temp
    os.environ["TMPDIR"] = os.environ["MPLCONFIGDIR"] = temp
    sys.addaudithook(hook)


def _resolve_with(path: str, lstat: Any, readlink: Any, getcwd: Any, is_link: Any) -> str:
    """An absolute path with `..` and every symlink resolved (a path that does not exist yet
    keeps its remaining parts as written)."""
    if not path.startswith("/"):
        path = getcwd() + "/" + path
    parts = [p for p in path.split("/") if p and p != "."]
    done: list[str] = []
    hops = 0
    while parts:
        part = parts.pop(0)
        if part == "..":
            if done:
                done.pop()
            continue
        candidate = "/" + "/".join([*done, part])
        try:
            mode = lstat(candidate).st_mode
        except OSError:
            done.append(part)
            continue
        if not is_link(mode):
            done.append(part)
            continue
        hops += 1
        if hops > 40:
            raise PermissionError(f"{path!r}: too many symbolic links ({DENIED})")
        target = readlink(candidate)
        if target.startswith("/"):
            done = []
        parts = [p for p in target.split("/") if p and p != "."] + parts
    return "/" + "/".join(done)


def watch_codes() -> tuple[Any, ...]:
    """The code objects allowed to set a profiler: the checks' own watch, and threading's
    start-up (it installs the profiler threading.setprofile named)."""
    import threading

    from harness.grading.ownwork import Watch

    return (Watch.__enter__.__code__, Watch.__exit__.__code__,
            threading.Thread._bootstrap_inner.__code__)


def limit_memory(megabytes: int | None) -> None:
    """Cap this process's address space, so one student cannot take the machine's memory."""
    if not megabytes:
        return
    import resource

    limit = megabytes * 1024 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard == resource.RLIM_INFINITY or hard > limit:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


SKIPPED = ("The grader did not run this cell: when it ran before, it stopped the process (it "
           "crashed or exited, or ignored the time limit). The other cells were graded.")


def digest(source: str) -> str:
    r"""The short hash that names a cell in the progress log and in the skip lists.

    Example:
        >>> digest("x = 1\n") == digest("x = 1")
        True
    """
    import hashlib

    return hashlib.sha1(source.rstrip("\n").encode()).hexdigest()[:16]


def load_ipython_extension(ipython: Any) -> None:
    """IPython entry point: skip the cells the batch says stopped this kernel before, log each
    cell to the batch's progress file, then guard the kernel."""
    config = settings()
    from harness.grading.report import hide_sources_when_autograding

    hide_sources_when_autograding()  # a kernel forked with the grading code already imported
    folder = os.getcwd().rstrip("/").split("/")
    name = f"{folder[-2]}.{folder[-1]}" if len(folder) > 2 else "kernel"
    skip = frozenset(config.get("skip", {}).get(name, ()))
    if skip:
        def skip_cells(lines: list[str]) -> list[str]:
            if digest("".join(lines)) in skip:
                return [f"raise RuntimeError({SKIPPED!r})\n"]
            return lines

        ipython.input_transformers_cleanup.insert(0, skip_cells)
    log = None
    if config.get("progress"):
        log = os.open(os.path.join(config["progress"], name + ".log"),
                      os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.write(log, f"kernel {os.getpid()}\n".encode())
        write, hashed = os.write, digest

        def before(info: Any) -> None:
            write(log, f"start {hashed(info.raw_cell)}\n".encode())

        def after(result: Any) -> None:
            write(log, f"done {hashed(result.info.raw_cell)}\n".encode())

        ipython.events.register("pre_run_cell", before)
        ipython.events.register("post_run_cell", after)
    limit_memory(config.get("memory_mb"))
    install(os.getcwd(), list(config.get("private", [])), allowed_profilers=watch_codes())
    if log is not None:
        os.write(log, b"guarded\n")
