"""Benchmarks for agent-loop-kit: `python -m bench` runs them all; figures in bench/README.md."""
