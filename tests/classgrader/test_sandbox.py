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

from grader import sandbox, seccomp

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
    return {"own": own, "neighbour": neighbour, "shard": shard, "course": course,
            "library": library, "runtime": runtime, "connection": connection}


def run(box, code, *, limits=None, env=None, timeout=60, **options):
    """Run `code` in a fresh python through the launcher; return (exit code, stdout, stderr)."""
    config = sandbox.settings(readable=[*KIT, GRADER, box["library"]],
                              hidden=[box["shard"], box["course"], box["library"] / "private"],
                              limits=limits, **options)
    settings = box["shard"].parent / "sandbox.json"
    settings.write_text(json.dumps(config))
    done = subprocess.run([sys.executable, "-I", "-S", sandbox.__file__, str(settings),
                           sys.executable, "-c", textwrap.dedent(code), "-f",
                           str(box["connection"])], cwd=box["own"], capture_output=True,
                          text=True, timeout=timeout, env={**os.environ, **(env or {})})
    return done.returncode, done.stdout, done.stderr


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


def test_each_kernel_may_append_to_its_own_log_and_no_other(box, tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "bob.ex.log").write_text("bob's cells\n")
    seen = outcome(box, TRY + f"""
def append():
    with open({str(logs / "alice.ex.log")!r}, "a") as log:
        return log.write("start 1\\n")
print(json.dumps({{"own": attempt(append),
                  "other": attempt(lambda: open({str(logs / "bob.ex.log")!r}).read())}}))""",
                   logs=logs)
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


def test_memory_and_cpu_are_capped(box):
    seen = outcome(box, TRY + """
print(json.dumps({"memory": attempt(lambda: len(bytearray(1 << 30)))}))""",
                   limits={"memory_mb": 512})
    assert seen["memory"] == "MemoryError"
    code, _, _ = run(box, "while True: pass", limits={"cpu_seconds": 1}, timeout=30)
    assert code == 128 + signal.SIGXCPU  # bwrap passes the kernel's death on


def test_the_instructors_variables_stay_outside(box):
    seen = outcome(box, "import json, os; print(json.dumps({**os.environ, 'reaper': "
                        "open('/proc/1/environ', 'rb').read().decode()}))",
                   env={"OPENAI_API_KEY": "sk-instructor", "LANG": "C.UTF-8"})
    assert "OPENAI_API_KEY" not in seen and seen["LANG"] == "C.UTF-8"
    assert "sk-instructor" not in seen["reaper"]  # bwrap's own process, pid 1 in the sandbox
    assert seen["HOME"] == seen["TMPDIR"] == "/tmp"


def test_the_whole_sandbox_dies_with_its_parent(box):
    marker = f"sandboxed-{os.getpid()}-{time.time_ns()}"
    config = sandbox.settings(readable=KIT, hidden=[box["shard"]])
    settings = box["shard"].parent / "sandbox.json"
    settings.write_text(json.dumps(config))
    code = f"import threading, time; threading.Thread(target=time.sleep, args=(60,)).start(); " \
           f"print('{marker}', flush=True); time.sleep(60)"
    process = subprocess.Popen([sys.executable, "-I", "-S", sandbox.__file__, str(settings),
                                sys.executable, "-c", code, "-f", str(box["connection"])],
                               cwd=box["own"], stdout=subprocess.PIPE, text=True)
    assert process.stdout.readline().strip() == marker
    assert _processes(marker)
    process.kill()  # the launcher became bwrap: this is what jupyter_client does to a kernel
    process.wait()
    process.stdout.close()
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
    monkeypatch.setenv("JUPYTER_PATH", sandbox.kernelspec(str(tmp_path / "specs"), settings))
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
