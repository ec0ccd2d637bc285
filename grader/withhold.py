"""The kit as a graded kernel sees it: the reference for the exercise being graded, withheld.

Code in a graded kernel can import, read and run anything the kernel can see, and change the
checks that run beside it, so no check in that kernel can stop it from handing the exercise to
the reference (a wrapper around it, `getattr`, `importlib`, reading the kit's source and running
it, swapping functions between cells). So the kernel does not get the reference at all.
`build(assignment)` copies the kit's packages into a folder of its own with every function that
`course.exercises.WITHHELD` and the exercise's own `WITHHELD` name replaced by one that raises a
RuntimeError saying so (the signature and docstring kept, the body gone), and `binds(assignment)`
says which copy stands for which of the kit's folders; the sandbox mounts them there, over the
originals, for that assignment's kernels only. The grading process, which runs no student code,
has the whole kit (`grader.verdict`).

It does not decide what the reference of an exercise is (each exercise's sub-package says so),
and it copies no student's file.
"""

from __future__ import annotations

import ast
import atexit
import compileall
import functools
import importlib
import shutil
import tempfile
from pathlib import Path

from course.exercises import CHECK_MODULES
from course.exercises.ownwork import KIT_PACKAGES, kit_folders

MESSAGE = ("{name} is withheld while this notebook is graded: the grade is for your own code, "
           "so the kit's reference for this exercise is not here. Write it in your solution "
           "cell (the lessons show how).")


def withheld(assignment: str) -> tuple[str, ...]:
    """The dotted names withheld from `assignment`'s kernels: modules (every function and method
    in them), classes (every method) or functions."""
    from course import exercises

    names = list(exercises.WITHHELD)
    if assignment in CHECK_MODULES:
        module = importlib.import_module(f"course.exercises.{CHECK_MODULES[assignment]}")
        names += getattr(module, "WITHHELD", ())
    return tuple(names)


@functools.cache
def build(assignment: str) -> dict[str, Path]:
    """The kit's packages with `assignment`'s withheld names stubbed, by package name (built once
    per process, in a temporary folder removed when it ends)."""
    root = Path(tempfile.mkdtemp(prefix=f"withheld-{assignment}-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    copies = {}
    for package, folder in zip(KIT_PACKAGES, kit_folders(), strict=True):
        copies[package] = root / package
        shutil.copytree(folder, copies[package],
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    targets = _targets(withheld(assignment), copies)
    for path, names in targets.items():
        path.write_text(stubbed(path.read_text(), names, module=_module_name(path, root)))
    compileall.compile_dir(str(root), quiet=1)  # a sandboxed kernel cannot write bytecode
    return copies


def binds(assignment: str) -> dict[str, str]:
    """The withheld copy of each kit folder, by the folder it stands for (for the sandbox)."""
    copies = build(assignment)
    return {str(folder): str(copies[package])
            for package, folder in zip(KIT_PACKAGES, kit_folders(), strict=True)}


def _targets(names: tuple[str, ...], copies: dict[str, Path]) -> dict[Path, set[str] | None]:
    """Each module file to change, and the names to stub in it (None: every function)."""
    found: dict[Path, set[str] | None] = {}
    for name in names:
        package, *rest = name.split(".")
        base = copies[package].joinpath(*rest)
        if base.is_dir():  # a package: every module in it
            for path in sorted(base.rglob("*.py")):
                found[path] = None
        elif base.with_suffix(".py").is_file():  # a module
            found[base.with_suffix(".py")] = None
        else:  # a function or class of a module (or a method: module.Class.method)
            for split in range(len(rest) - 1, 0, -1):
                module = copies[package].joinpath(*rest[:split]).with_suffix(".py")
                if module.is_file():
                    wanted = found.setdefault(module, set())
                    if wanted is not None:
                        wanted.add(".".join(rest[split:]))
                    break
            else:
                raise ValueError(f"withheld name {name!r} is neither a module nor in one: "
                                 "check the exercise's WITHHELD")
    return found


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def stubbed(source: str, names: set[str] | None, *, module: str) -> str:
    """`source` with the functions `names` (qualified within the module; None: all of them)
    replaced by stubs that raise a RuntimeError naming them (a builtin: a stub imports nothing).

    Example:
        >>> print(stubbed("def f(x):\\n    return x\\n", None, module="m").splitlines()[1][:39])
            raise RuntimeError("m.f is withheld
    """
    tree = ast.parse(source)
    missing = set(names or ())
    for qualified, node in _functions(tree):
        if names is not None and qualified not in names and \
                not any(qualified.startswith(n + ".") for n in names):
            continue
        missing -= {n for n in missing if qualified == n or qualified.startswith(n + ".")}
        docstring = ast.get_docstring(node, clean=False)
        message = MESSAGE.format(name=f"{module}.{qualified}")
        raise_ = ast.parse(f"raise RuntimeError({message!r})").body
        node.body = ([ast.Expr(ast.Constant(docstring))] if docstring else []) + raise_
        node.decorator_list = [d for d in node.decorator_list if _keeps(d)]
    if missing:
        raise ValueError(f"{module}: no function or class named {sorted(missing)} to withhold")
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def _functions(tree: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method of a module, by its qualified name (nested ones go with the
    function they are in)."""
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    pending: list[tuple[str, ast.AST]] = [("", tree)]
    while pending:
        prefix, node = pending.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found.append((prefix + child.name, child))
            elif isinstance(child, ast.ClassDef):
                pending.append((f"{prefix}{child.name}.", child))
    return found


def _keeps(decorator: ast.expr) -> bool:
    """Decorators that shape what a function is (a property, a class or static method) stay;
    the ones that wrap what it does (a cache, the grader's hook) go with the body."""
    name = decorator.id if isinstance(decorator, ast.Name) else \
        decorator.attr if isinstance(decorator, ast.Attribute) else ""
    return name in {"property", "staticmethod", "classmethod", "setter", "abstractmethod"}
