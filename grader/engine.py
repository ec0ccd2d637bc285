"""Where shards run, and the progress line the instructor watches.

`LocalEngine` runs shards in threads of this process (each shard's work is in its own processes, so
threads only wait). `DaskEngine` sends them to a Dask cluster: a `LocalCluster` on this machine for
`--scheduler local`, or the scheduler at an address; workers need this package and nbgrader
installed, and `distributed` (the `grader` extra) is imported only here. On both, each shard
reports each notebook it finishes (on Dask as an event through the scheduler, `log_event`), so
the count moves per notebook, not per shard. Both yield `(index, result)` as shards finish; a
shard that raised yields {"error": ...}. `Progress` prints done/total notebooks, a bar, the
elapsed time and an ETA on stderr, redrawn on a clock of its own (so neither freezes while a long
notebook runs), standard library only.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, TextIO

Shard = Callable[..., dict[str, Any]]


class Progress:
    """`done/total [#####.....] 42% 0:01:10 elapsed, ETA 0:01:35` on one line, updated in place
    on a terminal (redrawn every second, so the clock runs while nothing finishes) and, when the
    stream is a file or a pipe, at most every `every` seconds when the count moves."""

    TICK = 1.0
    """Seconds between two redraws on a terminal."""

    def __init__(self, total: int, *, label: str = "grading", stream: TextIO | None = None,
                 quiet: bool = False, every: float = 5.0):
        self.total, self.label, self.quiet, self.every = total, label, quiet, every
        self.stream = stream if stream is not None else sys.stderr
        self.started = time.monotonic()
        self._counts: dict[Any, int] = {}
        self._final: set[Any] = set()
        self._lock = threading.Lock()
        self._printed, self._shown = 0.0, -1
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self._stop = threading.Event()
        self._clock: threading.Thread | None = None

    def start(self) -> None:
        """Redraw on a clock (on a terminal) until `close()`."""
        if self.tty and not self.quiet and self._clock is None:
            self._clock = threading.Thread(target=self._tick, daemon=True)
            self._clock.start()

    def close(self) -> None:
        self._stop.set()
        if self._clock is not None:
            self._clock.join()

    def _tick(self) -> None:
        while not self._stop.wait(self.TICK):
            with self._lock:
                if self.done < self.total:
                    self._show(end="\r")

    @property
    def done(self) -> int:
        return min(self.total, sum(self._counts.values()))

    def update(self, key: Any, count: int, *, final: bool = False) -> None:
        """Shard `key` has finished `count` submissions so far (`final`: for good)."""
        with self._lock:
            if key in self._final or (count == self._counts.get(key, 0) and not final):
                return
            if final:
                self._final.add(key)
            self._counts[key] = count
            now, done = time.monotonic(), self.done
            if done != self._shown and (self.tty or now - self._printed > self.every
                                        or done == self.total):
                self._printed, self._shown = now, done
                self._show(end="\r" if self.tty and self.done < self.total else "\n")

    def line(self) -> str:
        elapsed = time.monotonic() - self.started
        done, total = self.done, max(self.total, 1)
        width = 30
        bar = "#" * (width * done // total) + "." * (width - width * done // total)
        # From the rate so far, measured now: while nothing finishes the rate falls and the ETA
        # grows, so a stalled run shows as one instead of a frozen estimate.
        eta = _clock(elapsed / done * (self.total - done)) if done else "?"
        return (f"{self.label}: {done}/{self.total} [{bar}] {100 * done // total}% "
                f"{_clock(elapsed)} elapsed, ETA {eta}")

    def _show(self, end: str) -> None:
        if not self.quiet:
            self.stream.write(self.line() + end)
            self.stream.flush()


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class LocalEngine:
    """Shards in `jobs` threads; each shard's nbgrader and grading process run as processes of
    their own."""

    def __init__(self, jobs: int):
        self.jobs = max(1, jobs)

    @property
    def slots(self) -> int:
        return self.jobs

    def describe(self) -> str:
        return f"{self.jobs} local shards at a time"

    def run(self, shard: Shard, payloads: list[dict[str, Any]], progress: Progress,
            offset: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
        def one(index: int, payload: dict[str, Any]) -> dict[str, Any]:
            return shard(payload, lambda n: progress.update(offset + index, n))

        with ThreadPoolExecutor(self.jobs) as pool:
            futures = {pool.submit(one, i, p): i for i, p in enumerate(payloads)}
            for future in as_completed(futures):
                index = futures[future]
                try:
                    result = future.result()
                except Exception as exc:  # a shard that broke: its students are retried
                    result = {"error": f"{type(exc).__name__}: {exc}"}
                yield index, result

    def close(self) -> None:
        pass


def _reporting(shard: Shard, payload: dict[str, Any], topic: str, index: int) -> dict[str, Any]:
    """A shard on a Dask worker, telling the client (through the scheduler) each time its count
    of finished notebooks moves."""
    from distributed import get_worker

    worker = get_worker()
    return shard(payload, lambda count: worker.log_event(topic, {"index": index,
                                                                 "count": count}))


class DaskEngine:
    """Shards as tasks on a Dask cluster (`address` "local" starts a LocalCluster here)."""

    def __init__(self, address: str, jobs: int):
        from distributed import Client, LocalCluster

        self.cluster = None
        if address == "local":
            self.cluster = LocalCluster(n_workers=max(1, jobs), threads_per_worker=1,
                                        processes=True, dashboard_address=None)
            self.client = Client(self.cluster)
        else:
            self.client = Client(address)
            self.client.wait_for_workers(1, timeout=120)

    @property
    def slots(self) -> int:
        threads = sum(self.client.nthreads().values())
        return max(1, threads)

    def describe(self) -> str:
        workers = self.client.nthreads()
        return (f"Dask at {self.client.scheduler.address}: {len(workers)} workers, "
                f"{sum(workers.values())} threads")

    def run(self, shard: Shard, payloads: list[dict[str, Any]], progress: Progress,
            offset: int = 0) -> Iterator[tuple[int, dict[str, Any]]]:
        from distributed import as_completed as completed

        topic = f"grading-progress-{time.time_ns()}"
        self.client.subscribe_topic(topic, lambda event: progress.update(
            offset + event[1]["index"], event[1]["count"]))
        futures = {self.client.submit(_reporting, shard, payload, topic, i, pure=False,
                                      key=f"grade-shard-{offset + i}-{time.time_ns()}"): i
                   for i, payload in enumerate(payloads)}
        try:
            yield from self._completed(futures, completed)
        finally:
            self.client.unsubscribe_topic(topic)

    def _completed(self, futures: dict[Any, int], completed: Any
                   ) -> Iterator[tuple[int, dict[str, Any]]]:
        for future in completed(list(futures)):
            index = futures[future]
            try:
                result = future.result()
            except Exception as exc:  # a worker that died or a shard that raised
                result = {"error": f"{type(exc).__name__}: {exc}"}
            yield index, result

    def close(self) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()
