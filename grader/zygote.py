"""Fresh kernels without the start-up cost: a warm process forks a new kernel for each notebook.

`python zygote.py serve SOCKET` imports ipykernel, IPython and the grading code once, then
forks one child per request; the child takes the requester's stdio, folder and environment and
becomes a brand-new kernel (no student code ever runs in the server, so each kernel starts from
the same untouched state a fresh process would reach after the same imports). `python
zygote.py launch -f CONNECTION ...` is the kernelspec's command: a small stand-in that asks
for a kernel, forwards signals to it and exits with its status, so jupyter_client manages it like
any kernel; if the stand-in is killed, the server kills its kernel. Run as a script, not imported:
the stand-in must start fast. POSIX only; the batch uses plain kernels elsewhere.
"""

import json
import os
import selectors
import signal
import socket
import sys

ENV = "AGENT_LOOP_KIT_ZYGOTE"
"""The server's socket path, for the stand-ins (set by the shard)."""

WARM = ("ipykernel.kernelapp", "IPython", "harness.grading")


def launch(argv):
    """The kernelspec command: get a kernel forked, pass signals on, exit with its status."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(os.environ[ENV])
    request = {"argv": ["ipykernel_launcher", *argv], "cwd": os.getcwd(), "env": dict(os.environ)}
    socket.send_fds(client, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
    replies = client.makefile("rb")
    pid = int(replies.readline() or 0)
    if not pid:
        os._exit(1)
    def forward(number, frame):
        try:
            os.kill(pid, number)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGQUIT, signal.SIGHUP, signal.SIGUSR1,
                   signal.SIGUSR2):
        signal.signal(signum, forward)
    line = replies.readline().split()
    code = int(line[1]) if len(line) == 2 else 1
    os._exit(code if code >= 0 else 128 - code)


def serve(path):
    """Warm up, then fork a kernel per request until killed."""
    import importlib

    for name in WARM:
        importlib.import_module(name)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path + ".tmp")
    server.listen(64)
    os.rename(path + ".tmp", path)  # the socket appears only once the server is ready
    selector = selectors.DefaultSelector()
    selector.register(server, selectors.EVENT_READ)
    kernels = {}  # connection -> pid
    while True:
        for key, _ in selector.select(timeout=0.1):
            if key.fileobj is server:
                connection, _ = server.accept()
                pid = _fork(connection, server, kernels)
                if pid:
                    kernels[connection] = pid
                    selector.register(connection, selectors.EVENT_READ)
            else:  # a stand-in went away (killed): its kernel goes too
                _kill(kernels.pop(key.fileobj, 0))
                selector.unregister(key.fileobj)
                key.fileobj.close()
        _reap(kernels, selector)


def _fork(connection, server, kernels):
    message, fds, _, _ = socket.recv_fds(connection, 1 << 20, 3)
    request = json.loads(message)
    pid = os.fork()
    if pid == 0:  # the new kernel
        try:
            server.close()
            for other in kernels:
                other.close()
            connection.close()
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
            os.closerange(3, 1 << 16)
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            sys.argv = request["argv"]
            parent = request["env"].get("JPY_PARENT_PID")
            if parent:  # read at import time by ipykernel, so once in the server: pass it on
                sys.argv.append(f"--IPKernelApp.parent_handle={parent}")
            for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGCHLD):
                signal.signal(signum, signal.default_int_handler if signum == signal.SIGINT
                              else signal.SIG_DFL)
            from ipykernel import kernelapp

            kernelapp.launch_new_instance()
            code = 0
        except BaseException:  # noqa: BLE001 (whatever happens, the child must not return)
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code)
    for fd in fds:
        os.close(fd)
    connection.sendall(f"{pid}\n".encode())
    return pid


def _reap(kernels, selector):
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if not pid:
            return
        code = os.waitstatus_to_exitcode(status)
        for connection, kernel in list(kernels.items()):
            if kernel == pid:
                del kernels[connection]
                selector.unregister(connection)
                try:
                    connection.sendall(f"exit {code}\n".encode())
                except OSError:
                    pass
                connection.close()


def _kill(pid):
    if pid:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def serve_command(path):
    """The command that starts the server on socket `path`. `-P`: this folder is not put on
    sys.path, so the kernels forked from it see the same modules a fresh kernel would."""
    return [sys.executable, "-P", os.path.abspath(__file__), "serve", path]


def kernelspec(folder, python):
    """Write a `python3` kernelspec that starts kernels through the server; return its folder
    (put it first on JUPYTER_PATH)."""
    spec = os.path.join(folder, "kernels", "python3")
    os.makedirs(spec, exist_ok=True)
    argv = [python, "-I", "-S", os.path.abspath(__file__), "launch", "-f", "{connection_file}"]
    with open(os.path.join(spec, "kernel.json"), "w") as handle:
        json.dump({"argv": argv, "display_name": "Python 3 (ipykernel)", "language": "python",
                   "interrupt_mode": "signal", "metadata": {"debugger": False}}, handle)
    return folder


if __name__ == "__main__":
    if sys.argv[1:2] == ["serve"]:
        serve(sys.argv[2])
    else:
        launch(sys.argv[2:])
