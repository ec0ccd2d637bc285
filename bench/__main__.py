"""Run every benchmark in this folder and print its figures."""

import importlib
import pkgutil

import bench

for module in sorted(m.name for m in pkgutil.iter_modules(bench.__path__)):
    if not module.startswith("_"):
        print(f"== bench.{module}")
        importlib.import_module(f"bench.{module}").main()
