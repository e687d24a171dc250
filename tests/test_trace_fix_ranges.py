"""`rulesdb trace --fix` on ranges: a range whose members all moved to one range is rewritten
in the form it was written; any other stale range is left, with the reason."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.trace.fix import plan, rewritten
from rulesdb.trace.scan import Citation, scan
from rulesdb.trace.status import Checked, Checker

from trace_helpers import LANGUAGES, RANGES, copy_bundled_db, parses, write_range_tree


@pytest.fixture(scope="module")
def db_path(bundled_db, tmp_path_factory) -> Path:
    return copy_bundled_db(bundled_db, tmp_path_factory)


def run(*args: str):
    return CliRunner().invoke(cli, [*args])


def statuses(root: Path, db_path: Path) -> Counter:
    result = run("trace", str(root), "--json", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    return Counter(row["status"] for row in json.loads(result.output))


def test_write_rewrites_every_range_whose_members_moved_together(db_path, tmp_path):
    expected = write_range_tree(tmp_path)
    parsed = {path: parses(path) for path in expected}
    before = statuses(tmp_path, db_path)
    assert before["renumbered"] > 0 and set(before) == {"renumbered"}
    result = run("trace", str(tmp_path), "--fix", "--write", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    assert (f"rewrote {len(LANGUAGES) * (len(RANGES) + 2)} renumbered citations in "
            f"{len(LANGUAGES)} files") in result.output
    assert "not touched" not in result.output
    for path, text in expected.items():
        assert path.read_text() == text, path
        assert parses(path) == parsed[path], path
    after = statuses(tmp_path, db_path)
    assert after == Counter(ok=sum(before.values()))  # 0 renumbered, none lost


def test_the_diff_shows_each_range_once(db_path, tmp_path):
    write_range_tree(tmp_path)
    result = run("trace", str(tmp_path / "src" / "py"), "--fix", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    removed = [line[1:] for line in result.stdout.splitlines()
               if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in result.stdout.splitlines()
             if line.startswith("+") and not line.startswith("+++")]
    assert removed == [" " * 8 + old.format(c="#") for old, _ in RANGES]
    assert added == [" " * 8 + new.format(c="#") for _, new in RANGES]


def test_a_range_whose_members_moved_apart_or_not_all_is_left_with_the_reason(db_path,
                                                                              tmp_path):
    source = tmp_path / "apart.py"
    text = "# rules 502.9a-c\n# rules 502.9e-h\n# CR 502.7a-c\n"
    source.write_text(text)
    result = run("trace", str(tmp_path), "--fix", "--json", "--db", str(db_path))
    assert result.exit_code == 0, result.output
    fixed = json.loads(result.stdout)
    assert fixed["rewritten"] == [{"file": "apart.py", "line": 3, "old": "502.7a-c",
                                   "new": "702.16a-c"}]
    assert fixed["not_touched"] == [
        {"file": "apart.py", "line": 1, "column": 9, "cited": "502.9a-c",
         "status": "renumbered", "suggestion": "702.19a, 702.19b, 702.19d",
         "reason": "its members moved apart: the new numbers are not one range in the form "
                   "it was written"},
        {"file": "apart.py", "line": 2, "column": 9, "cited": "502.9e-h",
         "status": "renumbered", "suggestion": "702.19e, 702.19g",
         "reason": "a range whose members did not all move (502.9g outside_coverage, "
                   "502.9h outside_coverage)"},
    ]
    assert source.read_text() == text  # --fix alone writes nothing
    written = run("trace", str(tmp_path), "--fix", "--write", "--db", str(db_path))
    assert written.exit_code == 0, written.output
    assert source.read_text() == "# rules 502.9a-c\n# rules 502.9e-h\n# CR 702.16a-c\n"
    assert ("not touched: apart.py:1:9 502.9a-c renumbered → 702.19a, 702.19b, 702.19d: "
            "its members moved apart") in written.output


def citation(cited: str, number: str, start: int = 2) -> Citation:
    return Citation("f.py", 1, None, cited, number, "marker", False, None, "", "", start + 1,
                    start, start + len(cited))


# (as written, the members' current numbers, what --fix writes: None = left as is)
FORMS = [
    ("727.2a–c", ["728.2a", "728.2b", "728.2c"], "728.2a–c"),
    ("727.2a - c", ["728.2a", "728.2b", "728.2c"], "728.2a - c"),
    ("727.2a-727.2c", ["728.2a", "728.2b", "728.2c"], "728.2a-728.2c"),
    ("727.2a to 727.2b", ["728.2a", "728.2b"], "728.2a to 728.2b"),
    ("119.9–10", ["120.9", "120.10"], "120.9–10"),
    ("119.9–119.10", ["120.9", "120.10"], "120.9–120.10"),
    ("306-307", ["406", "407"], "406-407"),
    ("727.2a–c", ["728.2a", "728.3b", "728.2c"], None),  # not one range
    ("727.2a–c", ["728.2b", "728.2c", "728.2d"], "728.2b–d"),  # all moved one letter on
    ("727.2a–c", ["728.2a", "728.2b", "728.2b"], None),  # two became one
    ("727.2a–c", ["728.2", "728.3", "728.4"], None),  # a range of rules now: not letters
    ("119.9–10", ["120.9", "121.1"], None),  # across two sections: no short end
]


@pytest.mark.parametrize(("cited", "moved", "expected"), FORMS)
def test_a_range_keeps_its_form(cited, moved, expected):
    from rulesdb.numbers import expand_range
    from rulesdb.trace.cite import ITEM

    item = ITEM.fullmatch(cited)
    numbers = expand_range(item["start"], item["end"] or item["end2"])
    assert len(numbers) == len(moved)
    items = [(citation(cited, number), Checked("renumbered", None, None, new))
             for number, new in zip(numbers, moved, strict=True)]
    done = plan(items, "2026-01-16")
    text = f"# {cited}\n"
    if expected is None:
        assert done.edits == {}
        (left,) = done.untouched
        assert left.suggestion == ", ".join(moved)
    else:
        assert done.untouched == []
        assert rewritten(text, done.edits["f.py"]) == f"# {expected}\n"


def test_an_edition_hint_before_a_range_is_moved_on_too():
    cited = "502.9a-b"
    text = f"# 20091005 - {cited}\n"
    start = text.index(cited)
    items = [(Citation("f.py", 1, None, cited, old, "hint", False, "2009-10-05", "", "",
                       start + 1, start, start + len(cited)),
              Checked("renumbered", None, None, new))
             for old, new in (("502.9a", "702.19a"), ("502.9b", "702.19b"))]
    assert rewritten(text, plan(items, "2026-01-16").edits["f.py"]) == \
        "# 20260116 - 702.19a-b\n"


def test_the_held_out_ranges_move_on_at_full_history(history_db, tmp_path):
    """727.2a–c and 727.5a–c (chapter 7's rules of 2025 before a rule was put before them)
    are 728.2a–c and 728.5a–c in cr-2026-01-16."""
    text = '# CR 727.2a–c and 727.5a–c\ndef f():\n    """See rules 727.2a-727.2c."""\n'
    (tmp_path / "engine.py").write_text(text)
    conn = sqlite3.connect(f"file:{history_db}?mode=ro", uri=True)
    checker = Checker(conn, "cr-2026-01-16")
    items = [(c, checker.check(c)) for c in scan(tmp_path, checker.known, workers=1).citations]
    assert Counter(v.status for _, v in items) == Counter(renumbered=9)
    done = plan(items, "2026-01-16")
    assert done.untouched == []
    assert rewritten(text, done.edits["engine.py"]) == (
        '# CR 728.2a–c and 728.5a–c\ndef f():\n    """See rules 728.2a-728.2c."""\n')
    conn.close()
