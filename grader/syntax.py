"""Code as the near-copy finder sees it (`grader.copies`): normalised syntax, without the
names, formatting and comments a copier changes.

`functions(source)` gives each function of a cell as its whole tree's tokens (names numbered by
first appearance); `statements(source)` gives each as a bag of its statements (every name one
placeholder, order not counted), which `overlap` compares. Every walk keeps its own stack, so an
expression of any depth is read. Nothing here reads a file or runs code: it parses.
"""

from __future__ import annotations

import ast
import builtins
import textwrap
from collections import Counter
from difflib import SequenceMatcher
from typing import Any

_SKIPPED_FIELDS = {"returns", "annotation", "type_comment", "decorator_list"}
_BUILTINS = set(dir(builtins))


def tokens(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The function's normalised syntax tree, in pre-order, as a list of strings. The walk keeps
    its own stack: an expression of any depth is read (Python's stack would not hold one of a
    thousand terms)."""
    names: dict[str, str] = {}

    def name(text: str) -> str:
        return text if text in _BUILTINS else names.setdefault(text, f"v{len(names)}")

    found: list[str] = []
    pending: list[ast.AST] = [function]
    while pending:
        node = pending.pop()
        found.append(type(node).__name__)
        if isinstance(node, ast.Name):
            found.append(name(node.id))
        elif isinstance(node, ast.arg):
            found.append(name(node.arg))
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.append(name(node.name))
        elif isinstance(node, ast.Attribute):
            found.append(node.attr)
        elif isinstance(node, ast.Constant):
            short = not isinstance(node.value, str) or len(node.value) <= 20
            found.append(repr(node.value) if short else "str")
        pending += reversed(_children(node))  # the first child is visited next
    return found


def _children(node: ast.AST) -> list[ast.AST]:
    """A node's children in field order, without annotations, decorators and docstrings."""
    children: list[ast.AST] = []
    for field, value in ast.iter_fields(node):
        if field in _SKIPPED_FIELDS:
            continue
        items = value if isinstance(value, list) else [value]
        if field == "body" and _docstring(items):
            items = items[1:]
        children += [item for item in items if isinstance(item, ast.AST)]
    return children


def _docstring(body: list[Any]) -> bool:
    first = body[0] if body else None
    return isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
        and isinstance(first.value.value, str)


class TooDeep(Exception):
    """A solution cell Python's parser cannot hold in memory (nesting thousands deep)."""


def _defined(source: str) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function and method defined at the top of `source`, by (qualified) name; [] when it
    does not parse (a cell with IPython magics or a syntax error is simply not compared). Raises
    `TooDeep` when the parser gives up on its depth."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError):
        return []
    except (RecursionError, MemoryError) as exc:  # the parser's guards for its own stack
        raise TooDeep(f"{type(exc).__name__} in Python's parser") from None
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            found += [(f"{node.name}.{m.name}", m) for m in node.body
                      if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef)]
    return found


def functions(source: str) -> dict[str, list[str]]:
    """Each function of `source` (`_defined`) as its normalised tree's tokens, by name."""
    return {name: tokens(function) for name, function in _defined(source)}


def similarity(left: list[str], right: list[str]) -> float:
    """difflib's ratio of two token sequences: 1.0 for the same normalised tree (the measure
    before `overlap`, kept for comparing the two)."""
    return SequenceMatcher(None, left, right, autojunk=False).ratio()


Bag = Counter[tuple[str, ...]]


def statements(source: str) -> dict[str, Bag]:
    """Each function of `source` (`_defined`) as the bag of its statements, each without the
    statements nested in it and with every name one placeholder (order does not count)."""
    found = {}
    for name, function in _defined(source):
        bag: Bag = Counter()
        for node in ast.walk(function):  # a loop of its own: any depth is read
            if isinstance(node, ast.stmt) and node is not function and not (
                    isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)):
                bag[tuple(_statement(node))] += 1
        found[name] = bag
    return found


def _statement(node: ast.stmt) -> list[str]:
    """One statement's own syntax nodes in pre-order (not the statements in its body)."""
    found: list[str] = []
    pending: list[ast.AST] = [node]
    while pending:
        item = pending.pop()
        found.append(type(item).__name__)
        if isinstance(item, ast.Name | ast.arg):
            name = item.id if isinstance(item, ast.Name) else item.arg
            found.append(name if name in _BUILTINS else "_")
        elif isinstance(item, ast.Attribute):
            found.append(item.attr)
        elif isinstance(item, ast.Constant):
            short = not isinstance(item.value, str) or len(item.value) <= 20
            found.append(repr(item.value) if short else "str")
        pending += reversed([child for child in _children(item)
                             if not isinstance(child, ast.stmt)])
    return found


def overlap(left: Bag, right: Bag) -> float:
    """The share of the two bags' syntax nodes that are in statements both hold (Dice's
    coefficient, each statement weighted by its size): 1.0 for the same statements."""
    def size(bag: Bag) -> int:
        return sum(len(key) * count for key, count in bag.items())

    total = size(left) + size(right)
    return 2 * size(left & right) / total if total else 0.0


def alike(left: Bag, right: Bag, threshold: float) -> float:
    """The overlap if it reaches `threshold`, else 0.0 (the sizes bound it first)."""
    sizes = sorted(sum(len(k) * n for k, n in bag.items()) for bag in (left, right))
    if not sizes[1] or 2 * sizes[0] / (sizes[0] + sizes[1]) < threshold:
        return 0.0
    score = overlap(left, right)
    return score if score >= threshold else 0.0
