"""The harness's cost per replayed call, against bare vcrpy replay of the same cassette.

Bare: an httpx client posts each recorded body inside vcrpy's stock `use_cassette` (default
matchers) and parses the JSON reply. Harness: `offline.replay.replay` (semantic JSON matching,
network guard) with the reference loop and a provider adapter mapping each transcript to wire JSON
and back. Both replay bench_press (4 calls) on each provider; the figure is the median per call.
"""

from __future__ import annotations

import statistics
import time

import httpx
import vcr

from harness import providers
from offline import replay

SCENARIO = "bench_press"
ROUNDS = 30


def _bare(provider: str) -> float:
    exchanges = replay.load_interactions(provider, SCENARIO)
    path = replay.cassette_path(provider, SCENARIO)
    started = time.perf_counter()
    with httpx.Client(verify=False) as client, vcr.VCR(record_mode="none").use_cassette(
            str(path), serializer="yaml"):
        for exchange in exchanges:
            client.post(exchange["url"], json=exchange["request"]).json()
    return (time.perf_counter() - started) / len(exchanges)


def _harness(provider: str) -> float:
    started = time.perf_counter()
    with replay.replay(provider, SCENARIO) as session:
        result = session.run()
    return (time.perf_counter() - started) / result.turns


def main() -> None:
    print(f"scenario: {SCENARIO}, median of {ROUNDS} rounds, per replayed call")
    for provider in providers.PROVIDERS:
        _bare(provider), _harness(provider)  # warm imports and caches
        bare = statistics.median(_bare(provider) for _ in range(ROUNDS))
        ours = statistics.median(_harness(provider) for _ in range(ROUNDS))
        print(f"{provider:<17} bare vcrpy {bare * 1e3:6.2f} ms   harness {ours * 1e3:6.2f} ms"
              f"   overhead {(ours - bare) * 1e3:+6.2f} ms ({ours / bare:.1f}x)")


if __name__ == "__main__":
    main()
