"""Batch work (`rulesdb build`, `add`, `fetch`, the scan of `trace`) with Python's cyclic garbage
collector paused.

A build or an add makes millions of small objects (tokens, bags of words, rows) that live
until it ends and form almost no reference cycles (about 400 for the six corpus releases).
The collector's repeated passes over them cost 10–15% of the run. While paused, objects are
still freed by reference counting as usual; the few cycles are collected when it resumes.
Forked workers inherit the pause.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for the block (as it was before, after it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
