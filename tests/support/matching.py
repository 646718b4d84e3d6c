"""The subset comparison the conformance cases use (``shared/README.md``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

MULTISET_KEYS = {"prize"}
"""Lists compared as multisets (records.md, Jokers Kill: prize piles are compared as multisets)."""


def mismatches(expected: Any, actual: Any, path: str = "", key: str = "") -> list[str]:
    """Every place where ``actual`` does not contain ``expected``: objects by the keys listed, lists element by
    element with the same length, numbers exact.

    >>> mismatches({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2, "c": 3}], "d": 4})
    []
    >>> mismatches({"a": [1, 2]}, {"a": [1]})
    ['a: expected a list of 2, got 1']
    """
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{path or '<top>'}: expected an object, got {actual!r}"]
        out: list[str] = []
        for k, v in expected.items():
            sub = f"{path}.{k}" if path else str(k)
            if k not in actual:
                out.append(f"{sub}: missing")
            else:
                out.extend(mismatches(v, actual[k], sub, str(k)))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return [f"{path}: expected a list, got {actual!r}"]
        if len(expected) != len(actual):
            return [f"{path}: expected a list of {len(expected)}, got {len(actual)}"]
        if key in MULTISET_KEYS and all(isinstance(x, str) for x in expected + actual):
            return [] if Counter(expected) == Counter(actual) else [f"{path}: {actual} != {expected}"]
        out = []
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            out.extend(mismatches(e, a, f"{path}[{i}]", key))
        return out
    if type(expected) is not type(actual) and not (
        isinstance(expected, (int, float)) and isinstance(actual, (int, float)) and not isinstance(actual, bool)
    ):
        return [f"{path}: expected {expected!r}, got {actual!r}"]
    return [] if expected == actual else [f"{path}: expected {expected!r}, got {actual!r}"]
