"""The OS sandbox (grader/sandbox.py) on this machine: code started through the real launcher, as a
kernelspec starts a kernel, tries what a hostile submission would, including what no Python hook
sees (ctypes calls into the C library), and the operating system refuses it."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from grader import confine, kernelspec, sandbox, seccomp, watcher

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="the OS sandbox is Linux's; elsewhere the container recipe")

ROOT = Path(__file__).resolve().parents[2]
HARNESS = ROOT / "harness"
KIT = [HARNESS, ROOT / "offline", ROOT / "course"]
GRADER = Path(sandbox.__file__).parent
SECRET = "the gradebook's contents"


@pytest.fixture
def box(tmp_path):
    """A shard's layout: this student's folder, a neighbour's, the gradebook, the course, and a
    readable folder holding a hidden one."""
    shard, course = tmp_path / "shard", tmp_path / "course"
    own = shard / "autograded" / "alice" / "ex"
    (own / "data").mkdir(parents=True)
    (own / "data" / "input.txt").write_text("alice's input")
    neighbour = shard / "autograded" / "bob" / "ex"
    neighbour.mkdir(parents=True)
    (neighbour / "answer.txt").write_text("bob's answer")
    (shard / "gradebook.db").write_text(SECRET)
    (course / "source").mkdir(parents=True)
    (course / "source" / "solution.py").write_text(SECRET)
    library = tmp_path / "library"
    (library / "private").mkdir(parents=True)
    (library / "public.py").write_text("X = 1")
    (library / "private" / "key.txt").write_text(SECRET)
    runtime = shard / "rt"
    runtime.mkdir(mode=0o700)
    connection = runtime / "kernel-1.json"
    connection.write_text(json.dumps({"transport": "ipc", "ip": str(runtime / "kernel-1-ipc")}))
    logs = tmp_path / "logs"
    logs.mkdir()
    return {"own": own, "neighbour": neighbour, "shard": shard, "course": course,
            "library": library, "runtime": runtime, "connection": connection, "logs": logs,
            "out": logs / "alice.ex.out"}


def write_settings(box, *, limits=None, **options):
    config = sandbox.settings(readable=[*KIT, GRADER, box["library"]],
                              hidden=[box["shard"], box["course"], box["library"] / "private"],
                              limits=limits, **{"logs": box["logs"], **options})
    settings = box["shard"].parent / "sandbox.json"
    settings.write_text(json.dumps(config))
    return settings


def run(box, code, *, env=None, timeout=60, **options):
    """Run `code` in a fresh python through the launcher, as a kernel; return (exit code, what
    it printed, the launcher's stderr then what it printed). A kernel's stdout and stderr are a
    file of its own beside its cell log."""
    settings = write_settings(box, **options)
    box["out"].unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-I", "-S", sandbox.__file__, str(settings),
                           sys.executable, "-c", textwrap.dedent(code), "-f",
                           str(box["connection"])], cwd=box["own"], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **(env or {})})
    printed = box["out"].read_text() if box["out"].exists() else ""
    return done.returncode, printed, done.stderr + printed


def outcome(box, code, **options):
    """Run `code`, which prints one JSON value last; return that value."""
    code_, out, err = run(box, code, **options)
    assert code_ == 0, err
    return json.loads(out.strip().splitlines()[-1])


TRY = """
import json, os
def attempt(action):
    try:
        return f"allowed: {action()!r}"[:80]
    except BaseException as exc:
        return type(exc).__name__
"""

LIBC = TRY + """
import ctypes, ctypes.util, struct
libc = ctypes.CDLL(None, use_errno=True)
def c_call(name, *args):
    result = getattr(libc, name)(*args)
    return f"{name}={result} errno={os.strerror(ctypes.get_errno()) if result < 0 else 0}"
"""


def test_this_machine_can_sandbox():
    assert sandbox.unavailable() is None


def test_no_network_not_even_through_the_c_library(box):
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(10)
    port = server.getsockname()[1]
    seen = outcome(box, LIBC + f"""
import socket
address = struct.pack("=HH4s8x", socket.AF_INET, socket.htons({port}), bytes([127, 0, 0, 1]))
fd = libc.socket(socket.AF_INET, socket.SOCK_STREAM, 0)
print(json.dumps({{
    "python": attempt(lambda: socket.create_connection(("127.0.0.1", {port}), timeout=2)),
    "libc": c_call("connect", fd, address, len(address)),
    "interfaces": sorted(name for _, name in socket.if_nameindex()),
    "dns": attempt(lambda: socket.getaddrinfo("pypi.org", 443)),
}}))""")
    server.settimeout(0)
    with pytest.raises(BlockingIOError):  # nothing knocked on the host's loopback
        server.accept()
    server.close()
    assert seen["python"] == "ConnectionRefusedError"  # its own loopback, where nothing listens
    assert seen["libc"] == "connect=-1 errno=Connection refused"
    assert seen["interfaces"] == ["lo"]
    assert seen["dns"] == "gaierror"


def test_private_paths_are_not_there_even_by_absolute_path_from_c(box):
    gradebook, home = box["shard"] / "gradebook.db", os.path.expanduser("~")
    seen = outcome(box, LIBC + f"""
print(json.dumps({{
    "gradebook": c_call("open", {str(gradebook).encode()!r}, os.O_RDONLY),
    "neighbour": attempt(lambda: os.listdir({str(box["neighbour"])!r})),
    "course": attempt(lambda: open({str(box["course"] / "source" / "solution.py")!r}).read()),
    "hidden in readable": attempt(lambda: os.listdir({str(box["library"] / "private")!r})),
    "readable": open({str(box["library"] / "public.py")!r}).read(),
    "checks": os.path.isfile({str(ROOT / "course" / "exercises" / "__init__.py")!r}),
    "home": os.listdir({home!r}) if os.path.isdir({home!r}) else [],
    "shadow": attempt(lambda: open("/etc/shadow").read()),
}}))""")
    assert seen["gradebook"] == "open=-1 errno=No such file or directory"
    assert seen["neighbour"] == seen["course"] == "FileNotFoundError"
    # only the way to a readable folder (Python installed under the home folder, say)
    on_the_way = {Path(p).relative_to(home).parts[0] for p in sandbox.settings(
        readable=[HARNESS], hidden=[])["readable"] if Path(p).is_relative_to(home)}
    assert set(seen["home"]) <= on_the_way
    assert seen["shadow"] == "FileNotFoundError"
    assert seen["hidden in readable"] == "allowed: []"  # covered by an empty folder
    assert seen["readable"] == "X = 1" and seen["checks"] is True


def test_everything_but_the_scratch_is_read_only(box):
    seen = outcome(box, LIBC + f"""
flags = os.O_WRONLY | os.O_CREAT
print(json.dumps({{
    "checks": attempt(lambda: open({str(HARNESS / "pwned.py")!r}, "w")),
    "checks from C": c_call("open", {str(HARNESS / "pwned.py").encode()!r}, flags, 0o644),
    "system": attempt(lambda: open("/usr/pwned", "w")),
    "own copy": attempt(lambda: open("data/input.txt", "a").write(" changed")),
    "new file": attempt(lambda: open("notes.txt", "w").write("mine")),
    "listing": sorted(os.listdir(".")),
    "tmp": attempt(lambda: open("/tmp/x", "w").write("x")),
}}))""")
    assert seen["checks"] == "OSError" and seen["system"] == "OSError"
    assert seen["checks from C"] == "open=-1 errno=Read-only file system"
    assert seen["own copy"] == "allowed: 8" and seen["new file"] == "allowed: 4"
    assert seen["listing"] == ["data", "notes.txt"] and seen["tmp"] == "allowed: 1"
    assert not (HARNESS / "pwned.py").exists()
    # the scratch is a copy: the submission as handed in is untouched, nothing new appears
    assert (box["own"] / "data" / "input.txt").read_text() == "alice's input"
    assert sorted(p.name for p in box["own"].iterdir()) == ["data"]


def test_its_own_process_tree_and_no_new_process(box):
    neighbour = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"],
                                 env={**os.environ, "NEIGHBOUR_KEY": "sk-neighbour"})
    try:
        seen = outcome(box, LIBC + f"""
import subprocess, threading
box = []
thread = threading.Thread(target=lambda: box.append("thread ran"))
thread.start(); thread.join()
print(json.dumps({{
    "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
    "environ": attempt(lambda: open("/proc/{neighbour.pid}/environ", "rb").read()),
    "kill": attempt(lambda: os.kill({neighbour.pid}, 9)),
    "fork": attempt(os.fork),
    "fork from C": c_call("fork"),
    "subprocess": attempt(lambda: subprocess.run(["true"])),
    "thread": box,
}}))""")
        assert seen["pids"] == [1, 2]  # bwrap's reaper and this process
        assert seen["environ"] == "FileNotFoundError"
        assert seen["kill"] == "ProcessLookupError"
        assert seen["fork"] == "PermissionError" and seen["subprocess"] == "PermissionError"
        assert seen["fork from C"] == "fork=-1 errno=Operation not permitted"
        assert seen["thread"] == ["thread ran"]
        assert neighbour.poll() is None
    finally:
        neighbour.kill()
        neighbour.wait()


def test_each_kernel_may_append_to_its_own_log_and_no_other(box):
    logs = box["logs"]
    (logs / "bob.ex.log").write_text("bob's cells\n")
    seen = outcome(box, TRY + f"""
def append():
    with open({str(logs / "alice.ex.log")!r}, "a") as log:
        return log.write("start 1\\n")
print(json.dumps({{"own": attempt(append),
                  "other": attempt(lambda: open({str(logs / "bob.ex.log")!r}).read())}}))""")
    assert seen == {"own": "allowed: 8", "other": "FileNotFoundError"}
    assert (logs / "alice.ex.log").read_text() == "start 1\n"
    assert (logs / "bob.ex.log").read_text() == "bob's cells\n"


def test_filling_the_disk_fills_only_a_small_tmpfs(box):
    seen = outcome(box, TRY + """
def fill(folder):
    written = 0
    try:
        for i in range(1000):
            with open(f"{folder}/fill{i}", "wb") as handle:
                handle.write(b"x" * (1 << 20))
            written += 1
    except OSError as exc:
        return [written, exc.strerror]
    return [written, None]
def big():
    with open("big", "wb") as handle:
        handle.write(b"x" * (9 << 20))
print(json.dumps({"scratch": fill("."), "tmp": fill("/tmp"), "big": attempt(big)}))""",
                   limits={"disk_mb": 16, "file_mb": 8})
    assert seen["scratch"][1] == seen["tmp"][1] == "No space left on device"
    assert 10 <= seen["scratch"][0] <= 16 and 10 <= seen["tmp"][0] <= 16
    assert seen["big"] == "OSError"  # File too large: past RLIMIT_FSIZE


SOCKETS_FOLDER = """
import socket
folder = os.path.dirname(json.load(open({connection!r}))["ip"])
def bind(path):
    server = socket.socket(socket.AF_UNIX)
    server.bind(path)
    server.close()
    return "bound"
def made_and_removed():
    bind(folder + "/k-mine")
    os.unlink(folder + "/k-mine")
    return "ok"
print(json.dumps({{
    "folder": folder,
    "file": attempt(lambda: open(folder + "/fill", "w")),
    "file from C": c_call("open", (folder + "/fill").encode(), os.O_WRONLY | os.O_CREAT, 0o644),
    "folder in it": attempt(lambda: os.mkdir(folder + "/more")),
    "fifo": attempt(lambda: os.mkfifo(folder + "/pipe")),
    "symlink": attempt(lambda: os.symlink("/tmp", folder + "/link")),
    "socket": attempt(lambda: bind(folder + "/k-kept")),
    "socket removed": attempt(made_and_removed),
    "own folder": attempt(lambda: bind("here") and open("notes", "w").write("mine")),
    "tmp": attempt(lambda: open("/tmp/notes", "w").write("mine")),
    "log": attempt(lambda: open({log!r}, "a").write("start x\\n")),
    "null": attempt(lambda: open("/dev/null", "w").write("gone")),
    "root": attempt(lambda: open("/notes", "w")),
    "shm": attempt(lambda: open("/dev/shm/notes", "w")),
    "hidden cover": attempt(lambda: open({hidden!r}, "w")),
}}))"""


@pytest.mark.skipif(not confine.abi(), reason="no Landlock here: the watcher alone bounds it")
def test_the_sockets_folder_takes_sockets_and_nothing_else(box):
    before = sorted(p.name for p in box["runtime"].iterdir())
    seen = outcome(box, LIBC + SOCKETS_FOLDER.format(
        connection=str(box["connection"]), log=str(box["logs"] / "alice.ex.log"),
        hidden=str(box["library"] / "private" / "notes")))
    assert seen["folder"] == confine.SOCKETS  # the host folder, not at its host path (/tmp...)
    refused = "PermissionError"  # Landlock's EACCES
    assert seen["file"] == seen["folder in it"] == seen["fifo"] == seen["symlink"] == refused
    assert seen["file from C"] == "open=-1 errno=Permission denied"
    assert seen["socket"] == "allowed: 'bound'" and seen["socket removed"] == "allowed: 'ok'"
    assert seen["own folder"] == "allowed: 4" and seen["tmp"] == "allowed: 4"
    assert seen["log"] == "allowed: 8" and seen["null"] == "allowed: 4"
    # bwrap's own tmpfs (the root, /dev) and the covers of hidden paths: read-only
    assert seen["root"] == seen["shm"] == seen["hidden cover"] == "OSError"
    after = sorted(p.name for p in box["runtime"].iterdir())
    assert after == sorted([*before, "k-kept"])
    assert (box["runtime"] / "k-kept").is_socket()


def test_a_kernel_that_fills_its_sockets_folder_is_stopped(box):
    before = len(list(box["runtime"].iterdir()))
    code, _, err = run(box, f"""
import json, os, socket
folder = os.path.dirname(json.load(open({str(box["connection"])!r}))["ip"])
made = 0
while True:
    server = socket.socket(socket.AF_UNIX)
    server.bind(f"{{folder}}/k-{{made}}")
    server.close()
    made += 1""", timeout=120)
    assert code == -signal.SIGKILL  # the watcher killed bwrap, and the sandbox went with it
    assert "more than 64 new entries" in err and "the kernel was stopped" in err
    made = len(list(box["runtime"].iterdir())) - before
    # polled every 50 ms, at tens of thousands of sockets a second: a few thousand empty entries
    # at most, even with both cores busy (each an inode and a name, no data)
    assert watcher.SOCKETS < made < 50_000


def test_the_watcher_counts_new_entries_and_bytes(tmp_path):
    (tmp_path / "old").write_bytes(b"x" * (2 << 20))  # there before the kernel: not counted
    before = {"old"}
    assert watcher._overfull(tmp_path, before) is None
    for index in range(watcher.SOCKETS):
        (tmp_path / f"k-{index}").touch()
    assert watcher._overfull(tmp_path, before) is None
    (tmp_path / "one-too-many").touch()
    assert "new entries" in watcher._overfull(tmp_path, before)
    for path in tmp_path.iterdir():
        path.unlink()
    (tmp_path / "fill").write_bytes(b"x" * (watcher.BYTES + 1))  # where Landlock is missing
    assert watcher._overfull(tmp_path, set()) is not None


THREADS = TRY + """
import threading
release, started = threading.Event(), 0
try:
    for _ in range(1200):
        threading.Thread(target=release.wait).start()
        started += 1
except RuntimeError as exc:
    error = str(exc)
release.set()
print(json.dumps({"started": started, "error": error}))"""


@pytest.mark.skipif(os.geteuid() != 0, reason="as another user RLIMIT_NPROC bounds threads")
def test_threads_are_capped_even_as_root(box):
    if watcher.hierarchy() is None:  # nothing would bound them: the launcher refuses
        code, _, err = run(box, "print('ran')")
        assert code and "RLIMIT_NPROC does not bind" in err
        return
    settings = write_settings(box, limits={"threads": 64})
    launcher = subprocess.Popen([sys.executable, "-I", "-S", sandbox.__file__, str(settings),
                                 sys.executable, "-c", textwrap.dedent(THREADS), "-f",
                                 str(box["connection"])], cwd=box["own"])
    assert launcher.wait(timeout=60) == 0
    seen = json.loads(box["out"].read_text().strip().splitlines()[-1])
    # bwrap, its reaper and the kernel's own threads count too: pids.max is per sandbox
    assert 40 <= seen["started"] < 64 and seen["error"] == "can't start new thread"
    group = Path(watcher.PIDS) / watcher.GROUP
    deadline = time.monotonic() + 15
    while list(group.glob(f"kernel-{launcher.pid}-*")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not list(group.glob(f"kernel-{launcher.pid}-*"))  # removed once the sandbox is gone


def test_a_root_grader_with_no_pids_cgroup_is_refused(monkeypatch, tmp_path):
    monkeypatch.setattr(watcher, "PIDS", str(tmp_path / "no-such-hierarchy"))
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert "RLIMIT_NPROC does not bind" in watcher.unbounded_threads()
    assert "RLIMIT_NPROC does not bind" in sandbox.unavailable()
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert watcher.unbounded_threads() is None


DESCRIPTORS = TRY + """
import stat
def targets(folder):
    found = {}
    for name in sorted(os.listdir(folder)):
        try:
            found[name] = os.readlink(f"{folder}/{name}")
        except OSError as exc:
            found[name] = type(exc).__name__
    return found
def readable(folder):
    text = ""
    for name in os.listdir(folder):
        try:
            if stat.S_ISREG(os.stat(f"{folder}/{name}").st_mode):
                text += open(f"{folder}/{name}", errors="replace").read()
        except OSError:
            pass
    return text
own, reaper = targets("/proc/self/fd"), targets("/proc/1/fd")
seen = readable("/proc/self/fd") + readable("/proc/1/fd")
print(json.dumps({"own": own, "reaper": reaper, "seen": seen}))"""


def test_a_kernel_holds_no_descriptor_but_its_own(box, tmp_path):
    """What jupyter_client hands the launcher: nbgrader's log (shared by every student of the
    shard) as stdout and stderr, and here one more inheritable file."""
    shard_log, secret = tmp_path / "autograde.log", tmp_path / "secret.txt"
    shard_log.write_text("[AutogradeApp] bob/ex graded in 12.3 s\n")
    secret.write_text(SECRET)
    settings = write_settings(box)
    with open(shard_log, "a") as log, open(secret) as extra:
        done = subprocess.run([sys.executable, "-I", "-S", sandbox.__file__, str(settings),
                               sys.executable, "-c", textwrap.dedent(DESCRIPTORS), "-f",
                               str(box["connection"])], cwd=box["own"], stdout=log,
                              stderr=log, pass_fds=[extra.fileno()], timeout=60)
    assert done.returncode == 0, box["out"].read_text()
    seen = json.loads(box["out"].read_text().strip().splitlines()[-1])
    own = {fd: target for fd, target in seen["own"].items() if target != "FileNotFoundError"}
    assert own == {"0": "/dev/null", "1": str(box["out"]), "2": str(box["out"])}
    assert "bob" not in seen["seen"] and SECRET not in seen["seen"]
    # bwrap's reaper holds what the launcher gave bwrap; the kernel may not even read which
    # (the reaper is outside its Landlock domain)
    assert set(seen["reaper"].values()) <= {"PermissionError", "/dev/null", str(box["out"])}
    assert "bob/ex" not in box["out"].read_text()


def test_memory_and_cpu_are_capped(box):
    seen = outcome(box, TRY + """
print(json.dumps({"memory": attempt(lambda: len(bytearray(1 << 30)))}))""",
                   limits={"memory_mb": 512})
    assert seen["memory"] == "MemoryError"
    code, _, _ = run(box, "while True: pass", limits={"cpu_seconds": 1}, timeout=30)
    assert code == 128 + signal.SIGXCPU  # bwrap passes the kernel's death on


def test_the_instructors_variables_stay_outside(box):
    seen = outcome(box, TRY + "print(json.dumps({**os.environ, 'reaper': attempt(lambda: "
                        "open('/proc/1/environ', 'rb').read().decode())}))",
                   env={"OPENAI_API_KEY": "sk-instructor", "LANG": "C.UTF-8"})
    assert "OPENAI_API_KEY" not in seen and seen["LANG"] == "C.UTF-8"
    # bwrap's own process, pid 1 in the sandbox: out of the kernel's Landlock domain, so not
    # even readable (where Landlock is missing: readable, and its environment empty)
    assert seen["reaper"] in ("PermissionError", "allowed: ''")
    assert seen["HOME"] == seen["TMPDIR"] == "/tmp"


def test_the_whole_sandbox_dies_with_its_parent(box):
    marker = f"sandboxed-{os.getpid()}-{time.time_ns()}"
    settings = write_settings(box)
    code = f"import threading, time; threading.Thread(target=time.sleep, args=(60,)).start(); " \
           f"print('{marker}', flush=True); time.sleep(60)"
    process = subprocess.Popen([sys.executable, "-I", "-S", sandbox.__file__, str(settings),
                                sys.executable, "-c", code, "-f", str(box["connection"])],
                               cwd=box["own"])
    deadline = time.monotonic() + 30
    while marker not in (box["out"].read_text() if box["out"].exists() else ""):
        assert time.monotonic() < deadline and process.poll() is None
        time.sleep(0.05)
    assert _processes(marker)
    process.kill()  # the launcher became bwrap: this is what jupyter_client does to a kernel
    process.wait()
    deadline = time.monotonic() + 10
    while _processes(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _processes(marker)


def _processes(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and marker.encode() in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except OSError:
            pass
    return found


def test_the_launcher_refuses_what_it_cannot_contain(box, tmp_path):
    box["connection"].write_text(json.dumps({"transport": "tcp", "ip": "127.0.0.1"}))
    code, _, err = run(box, "print('ran')")
    assert code and "transport = 'ipc'" in err
    box["connection"].write_text(json.dumps({"transport": "ipc", "ip": "kernel-ipc"}))
    code, _, err = run(box, "print('ran')")  # jupyter_client's default: relative to each cwd
    assert code and "an absolute path" in err
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    box["connection"].write_text(json.dumps({"transport": "ipc", "ip": str(shared / "k-ipc")}))
    code, _, err = run(box, "print('ran')")
    assert code and "is shared" in err


def test_unavailable_says_why(monkeypatch, tmp_path):
    assert sandbox.unavailable("/nonexistent/bwrap").startswith("bubblewrap is not installed")
    failing = tmp_path / "bwrap"
    failing.write_text("#!/bin/sh\necho 'No permissions to create new namespace' >&2\nexit 1\n")
    failing.chmod(0o755)
    assert "user namespaces" in sandbox.unavailable(str(failing))
    assert "No permissions" in sandbox.unavailable(str(failing))
    monkeypatch.setattr(sys, "platform", "darwin")
    assert sandbox.unavailable() == "the sandbox needs Linux (this is darwin)"


def test_bad_limits_and_machines_are_named():
    with pytest.raises(ValueError, match="memory_gb"):
        sandbox.settings(readable=[], hidden=[], limits={"memory_gb": 1})
    with pytest.raises(OSError, match="riscv64"):
        seccomp.program("riscv64")


@pytest.mark.slow
def test_nbclient_runs_a_notebook_in_it_and_interrupts_a_cell(box, tmp_path, monkeypatch):
    """What nbgrader's Execute does: a kernel by name, over ipc, a cell past its time
    interrupted (by message: a signal would reach bwrap, not the kernel) and the next cell run."""
    import nbformat
    from nbclient import NotebookClient
    from traitlets.config import Config

    settings = tmp_path / "sandbox.json"
    settings.write_text(json.dumps(sandbox.settings(readable=KIT, hidden=[box["shard"]])))
    monkeypatch.setenv("JUPYTER_PATH", kernelspec.write(str(tmp_path / "specs"), settings))
    notebook = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("import os, course.exercises\nprint(os.getcwd(), os.getuid())"),
        nbformat.v4.new_code_cell("import time\ntime.sleep(60)"),
        nbformat.v4.new_code_cell("print('still here')"),
        # No debugger in a graded kernel, and the notebook's folder is not on sys.path.
        nbformat.v4.new_code_cell("import sys\nprint(sorted(m for m in sys.modules if "
                                  "'pydevd' in m or (sys.modules[m] and 'debugpy' in m)), "
                                  "'' in sys.path, os.getcwd() in sys.path)")])
    ipc = {"transport": "ipc", "ip": str(box["runtime"] / "kernel")}
    client = NotebookClient(notebook, kernel_name="python3", timeout=3, allow_errors=True,
                            interrupt_on_timeout=True, config=Config({"KernelManager": ipc}),
                            resources={"metadata": {"path": str(box["own"])}})
    client.execute()
    first, second, third, fourth = (cell.outputs for cell in notebook.cells)
    assert first[0]["text"] == f"{box['own']} {sandbox.UID}\n"
    assert second[-1]["ename"] == "KeyboardInterrupt"
    assert third[0]["text"] == "still here\n"
    assert fourth[0]["text"] == "[] False False\n"


def test_the_grader_keeps_a_bounded_share_of_a_kernels_output(box, tmp_path, monkeypatch):
    """nbgrader's Execute as the shards run it (`BoundedExecute`), on a sandboxed kernel: the
    notebook's first outputs up to the limit and one note; past it, each cell's error and stderr
    still there (shortened), so nbgrader fails those cells as it would; a message over the size
    limit fails its own cell and no other; and no cell's source in the kernel's history."""
    import nbformat
    from traitlets.config import Config

    from grader.bounded import CUT, CUT_PART, LOST, PART, SHORT, BoundedExecute

    settings = tmp_path / "sandbox.json"
    settings.write_text(json.dumps(sandbox.settings(readable=KIT, hidden=[box["shard"]])))
    monkeypatch.setenv("JUPYTER_PATH", kernelspec.write(str(tmp_path / "specs"), settings))
    cells = ["secret = 'hidden test argument 1234'",
             "print(repr(In), repr(_ih))",
             "print('z' * (9 << 20))",  # one message over MESSAGE_BYTES
             "print('after')",
             "print('p' * 150_000)",  # one output over PART
             "for _ in range(30):\n    display({'text/plain': 'x' * 50_000}, raw=True)",
             "print('dropped')",
             "import sys\nprint('e' * 5_000, file=sys.stderr)\nprint('more', file=sys.stderr)",
             "raise ValueError('v' * 100_000)"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    ipc = {"transport": "ipc", "ip": str(box["runtime"] / "kernel")}
    execute = BoundedExecute(config=Config({"KernelManager": ipc}), kernel_name="python3",
                             timeout=30, iopub_timeout=3)
    execute.preprocess(notebook, {"metadata": {"path": str(box["own"])}})
    outputs = [cell.outputs for cell in notebook.cells]
    assert outputs[1][0]["text"] == "[''] ['']\n"  # run without history: no source in In
    assert [o["ename"] for o in outputs[2]] == ["OutputLost"]
    assert outputs[2][0]["evalue"] == LOST
    assert outputs[3][0]["text"] == "after\n"  # the next cell's messages arrive as ever
    assert outputs[4][0]["text"] == "p" * PART + CUT_PART
    displays = [o for o in outputs[5] if o["output_type"] == "display_data"]
    assert 5 <= len(displays) <= 7  # what is left of 500,000 characters, 50,000 each
    assert outputs[5][-1]["text"] == CUT.format(limit=500_000)
    assert outputs[6] == []  # past the limit: dropped
    assert len(outputs[7]) == 1 and outputs[7][0]["name"] == "stderr"
    assert outputs[7][0]["text"] == "e" * SHORT  # the first stderr of the cell, shortened
    assert [o["output_type"] for o in outputs[8]] == ["error"]
    assert outputs[8][0]["ename"] == "ValueError" and len(outputs[8][0]["evalue"]) == SHORT
    kept = sum(len(json.dumps(o)) for cell in outputs for o in cell)
    assert kept < 600_000
