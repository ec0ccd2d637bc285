"""nbgrader's Execute with bounds on what a graded kernel can make the grader hold.

A shard's nbgrader runs `BoundedExecute` in Execute's place (`bounded_steps`, named in the
config `grader.shard` writes): it keeps a notebook's first OUTPUT_LIMIT characters of output,
then a note (each cell's first error and stderr still kept, shortened, so nbgrader still fails
those cells), cuts any one part of an output at PART characters as it arrives, refuses any
message over MESSAGE_BYTES unread (the cell that sent it fails alone), and runs cells without
history (`In` stays empty), and notes each cell that ran past the time limit (`TIMEOUTS`, beside
the kernels' cell logs: the batch reports them and does not run them again on a retry). It grades
nothing and changes nothing else nbgrader does.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import zmq
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_core.utils import run_sync
from nbclient.exceptions import CellTimeoutError
from nbformat import NotebookNode
from nbgrader.preprocessors import Execute
from traitlets import Integer, default

from grader.kernel_log import digest, settings

OUTPUT_LIMIT = 500_000
"""Characters of output kept per notebook (five times PART)."""
PART = 100_000
"""Characters kept of any one part of an output (a stream's text, a display's data...)."""
MESSAGE_BYTES = 8 << 20
"""The largest message the grading process takes from a kernel; a bigger one is refused unread."""
QUEUED = 4
"""Messages each of the client's sockets may hold unread: with MESSAGE_BYTES, the most memory a
kernel can make it hold while it is busy (a kernel's side queues in the kernel's own memory)."""
SHORT = 1_000
"""Characters kept of each part of an error or stderr output past the limit: enough to say what
went wrong, and nbgrader still scores the cell as failed."""
CUT = ("\n... output cut by the batch grader: this notebook printed more than {limit:,} "
       "characters; the rest of its output is not kept (errors are, shortened) ...\n")
CUT_PART = "\n... output cut by the batch grader ...\n"
TIMEOUTS = "timeouts.jsonl"
"""A line of JSON per cell stopped at the time limit, in the folder above the cell logs."""
LOST = ("The grader did not receive all of this cell's output: the kernel sent a message over "
        f"{MESSAGE_BYTES >> 20} MB, which the grader refuses unread. The cell counts as failed.")


class BoundedKernelClient(AsyncKernelClient):
    """jupyter_client's client whose every socket refuses a message over MESSAGE_BYTES and
    queues at most QUEUED. ZeroMQ refuses by dropping the connection, unread, and does not
    connect again: `dropped` says when it did, for the caller to start a fresh client."""

    @default("context")
    def _bounded_context(self) -> zmq.asyncio.Context:
        context = zmq.asyncio.Context()
        self._created_context = True
        context.setsockopt(zmq.MAXMSGSIZE, MESSAGE_BYTES)  # defaults for the sockets it makes
        context.setsockopt(zmq.RCVHWM, QUEUED)
        return context

    def start_channels(self, *args: Any, **kwargs: Any) -> None:
        super().start_channels(*args, **kwargs)
        self._monitors = [self._monitor(channel.socket)
                          for channel in (self.shell_channel, self.iopub_channel)]

    def _monitor(self, socket: zmq.Socket) -> zmq.Socket:
        address = f"inproc://dropped-{id(socket)}"
        socket.monitor(address, zmq.EVENT_DISCONNECTED)
        pair = zmq.Context.shadow(self.context.underlying).socket(zmq.PAIR)  # read without await
        pair.connect(address)
        return pair

    def dropped(self) -> bool:
        """Whether the shell's or IOPub's connection was dropped since the last look."""
        found = False
        for pair in getattr(self, "_monitors", []):
            while pair.poll(0):
                pair.recv_multipart()
                found = True
        return found

    def stop_channels(self) -> None:
        for pair in getattr(self, "_monitors", []):
            pair.close(linger=0)
        self._monitors = []
        super().stop_channels()


class BoundedExecute(Execute):
    """nbgrader's Execute with bounds on what the kernel can make the grading process hold."""

    output_limit = Integer(OUTPUT_LIMIT, help="characters of output kept per notebook: the "
                           "first outputs, then a note").tag(config=True)
    iopub_timeout = Integer(10, help="seconds to wait for a cell's last output after its reply "
                            "(nbclient's 4 is short on a loaded machine)").tag(config=True)

    def reset_execution_trackers(self) -> None:
        super().reset_execution_trackers()
        self._spent = 0
        self._cut = False
        self._marked: set[tuple[int, str]] = set()

    def preprocess(self, nb: Any, resources: Any = None, km: Any = None) -> Any:
        self._where = dict((resources or {}).get("nbgrader") or {})  # whose notebook this is
        return super().preprocess(nb, resources, km)

    async def _async_handle_timeout(self, timeout: int, cell: Any = None) -> Any:
        """nbclient's (interrupt the kernel, give the cell a timeout error), and a note of which
        cell it was, for the instructor's report and the batch's retries."""
        folder = settings().get("progress")
        if folder and cell is not None:
            where = getattr(self, "_where", {})
            line = {"student": where.get("student"), "assignment": where.get("assignment"),
                    "notebook": where.get("notebook"), "seconds": timeout,
                    "cell": cell.get("metadata", {}).get("nbgrader", {}).get("grade_id") or "",
                    "index": self.nb.cells.index(cell) if cell in self.nb.cells else None,
                    "digest": digest(cell.get("source") or "")}
            with open(os.path.join(os.path.dirname(folder), TIMEOUTS), "a") as log:
                log.write(json.dumps(line) + "\n")
        return await super()._async_handle_timeout(timeout, cell)

    def create_kernel_manager(self) -> Any:
        manager = super().create_kernel_manager()
        manager.client_factory = BoundedKernelClient
        return manager

    async def async_execute_cell(self, cell: Any, cell_index: int,
                                 execution_count: int | None = None,
                                 store_history: bool = False) -> Any:
        """Run a cell without history, whatever the caller asks: the kernel's `In` and `_ih`
        then hold no cell (a student's `print(In)` printed the hidden tests' arguments; IPython
        still keeps each cell's source in `linecache`, for tracebacks). A cell whose message
        was refused fails alone, and the dropped connection is made again before the next."""
        count = execution_count or self.code_cells_executed + 1
        await self._connected()
        try:
            cell = await super().async_execute_cell(cell, cell_index, count, store_history=False)
        except CellTimeoutError as error:
            # "Timeout waiting for IOPub output": the cell's last message never came. Refused
            # for its size, the cell fails alone; anything else (a kernel still busy past its
            # interrupt) gives the notebook up, as in nbgrader, and the batch grades it again
            # without that cell.
            if "IOPub" not in str(error) or not await self._connected():
                raise
            self._reader.cancel()  # it would take the next cell's messages
            cell.outputs.append(NotebookNode(output_type="error", ename="OutputLost",
                                             evalue=LOST, traceback=[LOST]))
            self.nb.cells[cell_index] = cell
        await self._connected()
        return cell

    async def _connected(self) -> bool:
        """A fresh client on the same kernel if the present one lost a connection (says so)."""
        if not self.kc.dropped():
            return False
        self.log.warning("A message from the kernel was over %d bytes; connecting again",
                         MESSAGE_BYTES)
        self.kc.stop_channels()
        self.kc = self.km.client()
        self.kc.start_channels()
        await self.kc.wait_for_ready(timeout=self.startup_timeout)
        self.kc.allow_stdin = False
        return True

    execute_cell = run_sync(async_execute_cell)  # nbclient's points at its own coroutine

    async def _async_poll_output_msg(self, parent_msg_id: str, cell: Any, cell_index: int) -> None:
        self._reader = asyncio.current_task()  # nbclient keeps this task to itself
        return await super()._async_poll_output_msg(parent_msg_id, cell, cell_index)

    def process_message(self, msg: dict[str, Any], cell: Any, cell_index: int) -> Any:
        """nbclient's, for as long as the notebook's output fits; past it, only each cell's
        first error and first stderr stream get through, shortened, so nbgrader still fails
        them, and the note saying the rest was cut."""
        kind = msg["msg_type"]
        if kind in ("status", "execute_input"):  # they store nothing; "idle" ends the cell
            return super().process_message(msg, cell, cell_index)
        size = _size(msg["content"]) + sum(len(b) for b in msg.get("buffers") or [])
        if self._spent + size <= self.output_limit:
            self._spent += size
            _shorten(msg["content"], PART, note=CUT_PART)
            return super().process_message(msg, cell, cell_index)
        left, self._spent = self.output_limit - self._spent, self.output_limit
        failure = _failure(msg)
        kept = None
        if failure and (cell_index, failure) not in self._marked:
            self._marked.add((cell_index, failure))
            _shorten(msg["content"], max(left, SHORT), lines=10)
            kept = super().process_message(msg, cell, cell_index)
        elif kind == "stream" and left > 0:  # the output that crosses the line, in part
            _shorten(msg["content"], left)
            kept = super().process_message(msg, cell, cell_index)
        if not self._cut:
            self._cut = True
            cell.outputs.append(NotebookNode(output_type="stream", name="stdout",
                                             text=CUT.format(limit=self.output_limit)))
        return kept

    def on_cell_executed(self, **kwargs: Any) -> None:
        """nbgrader's (it adds the reply's error when the outputs lack it), counted and, past
        the limit, shortened like any error."""
        outputs = kwargs["cell"].outputs
        before = len(outputs)
        super().on_cell_executed(**kwargs)
        for output in outputs[before:]:
            if self._spent + _size(output) > self.output_limit:
                _shorten(output, SHORT, lines=10)
            self._spent = min(self.output_limit, self._spent + _size(output))


def _failure(msg: dict[str, Any]) -> str | None:
    """"error" or "stderr" for the outputs that fail a test cell in nbgrader, else None."""
    if msg["msg_type"] == "error":
        return "error"
    if msg["msg_type"] == "stream" and msg["content"].get("name") == "stderr":
        return "stderr"
    return None


def _shorten(content: Any, chars: int, *, note: str = "", lines: int | None = None) -> None:
    """Cut, in place, each part of an output that nbformat keeps (a stream's text, an error's
    name, value and traceback lines, a display's data) to `chars` characters, `note` after a
    cut; keep the last `lines` of a traceback."""

    def cut(text: Any) -> Any:
        return text[:chars] + note if isinstance(text, str) and len(text) > chars else text

    for key in ("text", "ename", "evalue"):
        if key in content:
            content[key] = cut(content[key])
    if isinstance(content.get("traceback"), list):
        kept = content["traceback"] if lines is None else content["traceback"][-lines:]
        content["traceback"] = [cut(line) for line in kept]
    if isinstance(content.get("data"), dict):
        content["data"] = {kind: cut(value) for kind, value in content["data"].items()}


def _size(value: Any) -> int:
    """Characters in the strings (keys too) of a message's content: what keeping it costs.
    A loop, not recursion: the kernel chooses how deep its JSON goes."""
    total, stack = 0, [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            total += len(item)
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            total += 8
    return total


def bounded_steps(section: Any) -> list[Any]:
    """A course config's `Autograde.autograde_preprocessors` (nbgrader's own where it sets none)
    with `BoundedExecute` in Execute's place: what a shard's config sets."""
    from nbgrader.converters.autograde import Autograde

    steps = section.autograde_preprocessors if "autograde_preprocessors" in section else \
        Autograde.class_traits()["autograde_preprocessors"].default()
    named = [getattr(step, "__name__", str(step).rsplit(".", 1)[-1]) for step in steps]
    return ["grader.bounded.BoundedExecute" if name == "Execute" else step
            for name, step in zip(named, steps, strict=True)]
