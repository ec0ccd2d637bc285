"""The kernelspec a shard's nbgrader starts its kernels from: each one under the sandbox's
launcher (`grader.sandbox`), with ipykernel's own launcher inside. It only writes the spec.

Why a kernelspec and not a KernelManager subclass: nbgrader 0.9.6's Execute passes
`kernel_manager_class` as an argument, which beats configuration.
"""

from __future__ import annotations

import json
import os
import sys

from grader import sandbox

KERNEL = "import sys; sys.modules['debugpy'] = None; from ipykernel import kernelapp; " \
    "kernelapp.launch_new_instance()"
"""A graded kernel: ipykernel's own launcher (-P: the notebook's folder is not on sys.path, so a
student's file cannot stand in for a module), without the debugger. Nobody attaches one to a
graded kernel, and importing debugpy was a fifth of each kernel's start (0.08 CPU-seconds)."""


def write(folder: str, settings_file: str, *, python: str | None = None,
          name: str = "python3") -> str:
    """Write a kernelspec `name` whose kernels start in the sandbox; return the folder to put
    first on JUPYTER_PATH. Interrupts go as messages: a signal to bwrap would not reach the
    kernel in its own session."""
    python = python or sys.executable
    spec = os.path.join(folder, "kernels", name)
    os.makedirs(spec, exist_ok=True)
    argv = [python, "-I", "-S", os.path.abspath(sandbox.__file__), os.path.abspath(settings_file),
            python, "-P", "-c", KERNEL, "-f", "{connection_file}"]
    with open(os.path.join(spec, "kernel.json"), "w") as handle:
        json.dump({"argv": argv, "display_name": "Python 3 (sandboxed)", "language": "python",
                   "interrupt_mode": "message", "metadata": {"debugger": False}}, handle)
    return folder
