"""Benchmarks for agent-loop-kit. Run them all with `python -m bench`; figures in bench/README.md."""
