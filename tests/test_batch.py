"""Batch work pauses the cyclic garbage collector and gives it back as it was."""

from __future__ import annotations

import gc

import pytest

from rulesdb.db.batch import collector_paused
from rulesdb.errors import InputError
from rulesdb.sources.add import add_files


@pytest.mark.parametrize("before", [True, False])
def test_the_collector_is_off_inside_and_as_before_after_even_on_errors(before):
    (gc.enable if before else gc.disable)()
    try:
        with pytest.raises(RuntimeError), collector_paused():
            assert not gc.isenabled()
            raise RuntimeError("fails inside")
        assert gc.isenabled() is before
    finally:
        gc.enable()


def test_a_failed_add_gives_the_collector_back(tmp_path):
    gc.enable()
    (tmp_path / "x.txt").write_text("not the rules")
    with pytest.raises(InputError):
        add_files(tmp_path / "rules.db", [tmp_path / "x.txt"])
    assert gc.isenabled()
