"""Outside a graded kernel's sandbox, while it runs: a pids cgroup of its own (a thread limit
that holds for root too) and a watch on the folder of its sockets (the one host folder it may
change).

The sandbox's launcher calls `start` just before it execs bwrap: it makes the kernel's cgroup
(where this machine has a writable pids hierarchy), forks the watcher, then joins the cgroup, so
bwrap and everything in the sandbox count against one `pids.max` (a thread is a task). The
watcher lives in a session of its own (jupyter_client kills the kernel's whole process group, and
the watcher must outlive that to clean up). It polls the sockets' folder: past SOCKETS new
entries, or BYTES in new regular files, it kills the sandbox. When the sandbox is gone it removes
the cgroup and exits. It reads names and sizes, never a file's contents, and contains nothing
itself: the mounts, Landlock (`confine`) and seccomp do.

Why a cgroup, and not RLIMIT_NPROC alone or a uid of its own per kernel: Linux exempts root from
RLIMIT_NPROC (a root grader's kernel made 1,200 threads against 256), and it counts every process
of a user, so kernels graded side by side under one uid share one budget (measured: one sandbox
holding 250 threads left the next unable to start, "Can't fork for pid 1"). A uid per kernel
would need the connection file, the sockets' folder and the log chowned to it for every kernel.
A cgroup counts exactly one kernel's tasks, whoever runs the grader. Where none can be made, a
root grader refuses to run (`unbounded_threads`) and any other falls back to RLIMIT_NPROC.
"""

import errno
import os
import signal
import sys
import time

PIDS = "/sys/fs/cgroup/pids"
"""The cgroup v1 pids hierarchy; each kernel's cgroup is made in GROUP below it."""
GROUP = "agent-loop-kit"
SOCKETS = 64
"""New entries a kernel may make in its sockets' folder (ipykernel binds five)."""
BYTES = 1 << 20
"""Bytes of new regular files there (none where Landlock holds: it allows only sockets)."""
POLL = 0.05
"""Seconds between two looks at the folder: at the 66,000 sockets a second one kernel can make,
a few thousand empty entries at most before it is stopped."""


def hierarchy():
    """The pids hierarchy this process may make cgroups in, or None."""
    if os.path.isfile(os.path.join(PIDS, "cgroup.procs")) and os.access(PIDS, os.W_OK):
        return PIDS
    return None


def unbounded_threads():
    """Why a kernel's threads would have no bound here (a sentence), or None."""
    if os.geteuid() == 0 and hierarchy() is None:
        return (f"the grader runs as root, whom RLIMIT_NPROC does not bind, and there is no "
                f"writable pids cgroup ({PIDS}) to bound each kernel's threads: run the grader "
                "as another user (in the container: docker run --user UID:GID)")
    return None


def start(*, threads, sockets, name):
    """Make this process's cgroup (at most `threads` tasks) when possible, fork the watcher of
    `sockets` (a folder, or None) and join the cgroup. Returns the cgroup's folder, or None.
    Refuses (SystemExit) where nothing would bound the threads."""
    if unbounded_threads():
        raise SystemExit(f"sandbox launcher: {unbounded_threads()}")
    cgroup = _make(threads) if threads and hierarchy() else None
    if cgroup is None and sockets is None:
        return None  # nothing to watch or clean up
    before = set(os.listdir(sockets)) if sockets else set()
    parent = os.getpid()
    if os.fork() == 0:
        try:
            _watch(parent, cgroup, sockets, before, name)
        finally:
            os._exit(0)
    if cgroup:
        _write(os.path.join(cgroup, "cgroup.procs"), str(parent))
    return cgroup


def _make(threads):
    group = os.path.join(PIDS, GROUP)
    os.makedirs(group, exist_ok=True)  # left in place: other kernels may be using it
    cgroup = os.path.join(group, f"kernel-{os.getpid()}-{time.time_ns()}")
    os.mkdir(cgroup)
    _write(os.path.join(cgroup, "pids.max"), str(threads))
    return cgroup


def _write(path, text):
    with open(path, "w") as handle:
        handle.write(text)


def _watch(parent, cgroup, sockets, before, name):
    """The watcher's life: look at the folder until the sandbox (our parent, bwrap) is gone or
    overfills it, then remove the cgroup."""
    os.setsid()
    _keep_only_stderr()
    while os.getppid() == parent:
        reason = _overfull(sockets, before) if sockets else None
        if reason:
            _kill(parent, cgroup)
            print(f"sandbox watcher: {name}: {reason}; the kernel was stopped", file=sys.stderr,
                  flush=True)
            break
        time.sleep(POLL)
    if cgroup:
        _remove(cgroup, name)


def _keep_only_stderr():
    """stdin and stdout on /dev/null, nothing else open but stderr (the grader's log)."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    for fd in [int(n) for n in os.listdir("/proc/self/fd")]:
        if fd > 2:
            try:
                os.close(fd)
            except OSError:
                pass


def _overfull(folder, before):
    """Why `folder` holds too much that was not there at the start, or None."""
    entries = size = 0
    try:
        with os.scandir(folder) as found:
            for entry in found:
                if entry.name in before:
                    continue
                entries += 1
                if entry.is_file(follow_symlinks=False):
                    size += entry.stat(follow_symlinks=False).st_size
                if entries > SOCKETS or size > BYTES:
                    return (f"more than {SOCKETS} new entries or {BYTES} bytes in its sockets' "
                            f"folder {folder}")
    except OSError:
        return None  # the folder went away with the shard
    return None


def _kill(parent, cgroup):
    """bwrap, and with it the sandbox (its processes die with it), and what is in the cgroup."""
    try:
        os.kill(parent, signal.SIGKILL)
    except ProcessLookupError:
        pass
    if cgroup:
        _kill_members(cgroup)


def _kill_members(cgroup):
    try:
        with open(os.path.join(cgroup, "cgroup.procs")) as handle:
            members = [int(line) for line in handle if line.strip()]
    except OSError:
        return
    for pid in members:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _remove(cgroup, name, seconds=10.0):
    """Remove the cgroup once it is empty (its processes die with bwrap, a moment later)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.rmdir(cgroup)
            return
        except OSError as error:
            if error.errno == errno.ENOENT:
                return
            if time.monotonic() > deadline:
                print(f"sandbox watcher: {name}: could not remove {cgroup}: {error.strerror}",
                      file=sys.stderr, flush=True)
                return
        _kill_members(cgroup)  # bwrap is gone: anything left is the sandbox's, on its way out
        time.sleep(POLL)
