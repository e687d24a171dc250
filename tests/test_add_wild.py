"""`rulesdb add` of releases as they turn up in the wild beyond the official files: saved
by other editors, copied from a web page, passed through old tools. Each gives the rows the
plain release gives, and says what it mended."""

from __future__ import annotations

import json
import re

import pytest
import sqlite_utils

from rulesdb.ingest.cr_text import parse
from rulesdb.ingest.decode import MAC_ROMAN, decode
from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import ParseError

from conftest import corpus_files, needs_corpus
from test_add import EXPECTED_TEXTS, add, release, texts

ODD_SPACES = "no-break or other odd spaces read as spaces"


def _glossary(db_path) -> list[tuple]:
    db = sqlite_utils.Database(db_path)
    return db.execute("SELECT term, aliases, definition, obsolete FROM glossary "
                      "ORDER BY position").fetchall()


def _numbers_then(text: str, space: str) -> str:
    """`text` with `space` after every rule number and every "Example:" label."""
    return re.sub(r"(?m)^(\d{1,3}(?:\.\d+[a-z]?)?\.?|Example:) ", lambda m: m[1] + space, text)


_LEVEL = re.compile(r"(\d{3}\.\d+\.)|(\d{3}\.\d+[a-z]) |(Example:)|(\d{3}\. |These rules)")


def _indented_by_level(text: str) -> str:
    """`text` as a reformatted copy met in the wild has it: each rule indented by its level,
    examples deeper still, the contents' sections and the date line by three spaces."""
    indents = ("   ", "      ", "            ", "   ")
    out = []
    for line in text.split("\n"):
        level = _LEVEL.match(line)
        out.append(indents[level.lastindex - 1] + line if level else line)
    return "\n".join(out)


def _read_as_cp1252(data: bytes) -> str:
    """What a tool that takes UTF-8 bytes for cp1252 reads (its five unused bytes, as 0x9D of
    "”", become C1 control characters)."""
    return "".join(chr(b) if b in (0x81, 0x8D, 0x8F, 0x90, 0x9D) else bytes([b]).decode("cp1252")
                   for b in data)


# (variant of the release's text to bytes, the start of a warning it must give, or None)
WILD = {
    "UTF-16 little-endian without a byte-order mark": (
        lambda t: t.replace("\n", "\r\n").encode("utf-16-le"), None),
    "UTF-16 big-endian without a byte-order mark": (
        lambda t: t.replace("\n", "\r\n").encode("utf-16-be"), None),
    "UTF-32 with a byte-order mark": (lambda t: t.encode("utf-32"), None),
    "LF and CRLF mixed": (
        lambda t: "".join(line + ("\n" if i % 3 else "\r\n")
                          for i, line in enumerate(t.split("\n"))).encode(), None),
    # converted twice: every line ends in CR CR LF, so a blank line follows each line
    "CR CR LF (double-spaced)": (
        lambda t: t.replace("\n", "\r\r\n").encode(), "the glossary is double-spaced"),
    "double-spaced with LF": (
        lambda t: t.replace("\n", "\n\n").encode("utf-8-sig"), "the glossary is double-spaced"),
    "Mac OS Roman with CR line ends (a classic Mac file)": (
        lambda t: t.replace("\n", "\r").encode("mac_roman"), "the file is in Mac OS Roman"),
    "Ctrl-Z closing the file": (lambda t: t.replace("\n", "\r\n").encode("cp1252") + b"\x1a",
                                None),
    "page breaks before chapters and a line of them": (
        lambda t: t.replace("\n7. ", "\n\f7. ").replace("\nGlossary\n", "\n\f\nGlossary\n")
        .encode(), None),
    "tabs after the numbers": (lambda t: _numbers_then(t, "\t").encode(), None),
    "no-break spaces after the numbers": (
        lambda t: _numbers_then(t, "\u00a0").encode(), ODD_SPACES),
    "no-break spaces everywhere (copied from a web page)": (
        lambda t: t.replace(" ", "\u00a0").encode(), ODD_SPACES),
    "trailing spaces and indented lines": (
        lambda t: "\n".join(f" {line}  " if line else line for line in t.split("\n")).encode(),
        None),
    "UTF-8 read as cp1252 and saved again": (
        lambda t: _read_as_cp1252(("\ufeff" + t).encode()).encode(), "the file is UTF-8 that"),
    "UTF-8 read as cp1252 and saved again in part (a copy pieced together)": (
        lambda t: (t[:t.index("\nGlossary\n")] + _read_as_cp1252(
            t[t.index("\nGlossary\n"):].encode())).encode(), "lines that were UTF-8 read as"),
    "zero-width spaces and soft hyphens (a copy of a web page)": (
        lambda t: t.replace("Trample", "Tram\u00adple\u200b").replace("rules", "ru\u2060les")
        .encode(), "invisible characters (zero-width spaces, soft hyphens) removed: "),
    "indented by level (a reformatted copy)": (
        lambda t: _indented_by_level(t).encode(), None),
    "blank lines holding spaces": (
        lambda t: "\n".join(line or " \t " for line in t.split("\n")).encode(), None),
}


@pytest.mark.parametrize("variant", list(WILD))
def test_a_release_from_the_wild_gives_the_plain_release_rows(tmp_path, variant):
    (tmp_path / "plain").mkdir()
    plain_result, plain_db = add(tmp_path / "plain", release().encode(), "x.txt")
    assert plain_result.exit_code == 0, plain_result.output
    transform, warning = WILD[variant]
    (tmp_path / "wild").mkdir()
    result, db_path = add(tmp_path / "wild", transform(release()), "x.txt", "--json")
    assert result.exit_code == 0, result.output
    assert texts(db_path, "cr-2025-06-06") == EXPECTED_TEXTS
    assert _glossary(db_path) == _glossary(plain_db)
    assert len(_glossary(db_path)) == 4
    warnings = json.loads(result.output)["documents"][0]["warnings"]
    if warning is not None:
        assert any(w.startswith(warning) for w in warnings), warnings
    else:
        mended = ("the glossary is", ODD_SPACES, "invisible", "the file is UTF-8")
        assert not any(w.startswith(mended) for w in warnings), warnings


@pytest.mark.parametrize(("printed", "name", "date_text"), [
    pytest.param("effective as\nof June\u00a06,2025.", "x.txt",
                 "These rules are effective as\nof June 6,2025.", id="odd-spaces-line-break"),
    pytest.param("effective as of June 6, 2025", "MagicCompRules.txt",
                 "These rules are effective as of June 6, 2025", id="no-period"),
])
def test_the_printed_date_is_read_as_printed(tmp_path, printed, name, date_text):
    text = release().replace("effective as of June 6, 2025.", printed)
    result, db_path = add(tmp_path, text.encode(), name)
    assert result.exit_code == 0, result.output
    row = sqlite_utils.Database(db_path)["documents"].get("cr-2025-06-06")
    assert row["date_text"] == date_text


def test_odd_spaces_are_reported_once_and_doubled_spaces_a_few_times(tmp_path):
    # a no-break space before each space: read as a space, every line has doubled spaces
    text = release().replace(" ", "\u00a0 ")
    result, _ = add(tmp_path, text.encode(), "x.txt", "--json")
    assert result.exit_code == 0, result.output
    warnings = json.loads(result.output)["documents"][0]["warnings"]
    odd = [w for w in warnings if w.startswith(ODD_SPACES)]
    assert odd == [f"{ODD_SPACES}: {text.count(chr(0xa0))}, the first on line 1"]
    assert len([w for w in warnings if w.startswith("doubled spaces in line")]) == 3, warnings
    more = [w for w in warnings
            if re.fullmatch(r"\d+ more like: doubled spaces in line at offset \d+: '.*'", w)]
    assert len(more) == 1, warnings


@pytest.mark.parametrize(("data", "where"), [
    pytest.param(b"\x00" * 8 + b"100.1. Text.\n", "byte 0: binary content (control "
                 "character 0x00 at line 1, column 1)", id="leading-nul"),
    pytest.param(release().encode() + b"\x00\x00", "byte {size}: binary content (control "
                 "character 0x00 at line {lines}, column 1)", id="nul-padding"),
    pytest.param(b"\xff\xfe" + release().replace("Trample\n", "Tram\x02ple\n", 1)
                 .encode("utf-16-le"), "byte {at}: binary content (control character 0x02 at "
                 "line {line}, column {column})", id="control-in-utf-16"),
])
def test_binary_content_is_refused_at_its_byte_and_line(tmp_path, data, where):
    text = release()
    trample = text.index("Trample\n")
    where = where.format(size=len(text.encode()), lines=text.count("\n") + 1,
                         at=2 + 2 * (trample + 4), line=text[:trample].count("\n") + 1,
                         column=trample - text.rfind("\n", 0, trample) + 4)
    result, db_path = add(tmp_path, data, "x.txt")
    assert result.exit_code == 2
    assert result.output.strip().startswith(f"Error: x.txt: {where}"), result.output
    assert not db_path.exists()


# the variants that change how a real release's lines are read (the others are covered by
# the synthetic release above)
REAL = ["UTF-32 with a byte-order mark", "CR CR LF (double-spaced)",
        "page breaks before chapters and a line of them",
        "no-break spaces everywhere (copied from a web page)",
        "indented by level (a reformatted copy)", "UTF-8 read as cp1252 and saved again",
        "UTF-8 read as cp1252 and saved again in part (a copy pieced together)"]


def _parsed(doc) -> tuple:
    return (doc.meta.effective_date,
            [(r.number, r.text, [e.text for e in r.examples]) for r in doc.rules],
            [(g.heading, g.definition, g.aliases, g.obsolete, [e.text for e in g.examples])
             for g in doc.glossary])


@needs_corpus
@pytest.mark.parametrize("variant", REAL)
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_a_real_release_from_the_wild_parses_as_the_release(path, variant):
    text = decode(path.read_bytes())
    transform, _ = WILD[variant]
    doc = parse(transform(text))
    assert lossless_mismatch(doc) is None
    plain = parse(path.read_bytes())
    assert _parsed(doc) == _parsed(plain)
    # a slip on every line is told a few times, then counted
    assert len(doc.warnings) <= len(plain.warnings) + 12, doc.warnings


def test_two_releases_joined_in_one_file_are_refused(tmp_path):
    first, second = release(), release("February 7, 2025")
    result, db_path = add(tmp_path, (first + "\n" + second).encode(), "both.txt")
    assert result.exit_code == 2
    line = (first + "\n" + second).split("\n").index("100.1. These Magic rules apply to any "
                                                      "Magic game with two or more players.", 60)
    assert result.output.strip() == (
        f"Error: both.txt: line {line + 1}, column 1: a second rules text (effective February 7, "
        "2025, 7 numbered rules) follows the Credits: add each release from its own file")
    assert not db_path.exists()


def test_a_numbered_line_or_two_in_the_credits_is_credits_text(tmp_path):
    credits = "Credits\n\n100.1. A stray line.\n702.19a Another one.\n"
    result, db_path = add(tmp_path, release(**{"Credits\n\n": credits}).encode())
    assert result.exit_code == 0, result.output
    _, plain_db = add(tmp_path, release().encode(), "plain.txt", db=tmp_path / "plain.db")
    assert texts(db_path, "cr-2025-06-06") == texts(plain_db, "cr-2025-06-06")


@needs_corpus
def test_real_releases_joined_in_one_file_are_refused():
    first, *_, last = corpus_files()
    joined = decode(first.read_bytes()) + "\r\n" + decode(last.read_bytes())
    printed = re.search(r"as of (.+?)\.?$", parse(last.read_bytes()).meta.date_text)[1]
    with pytest.raises(ParseError, match=rf"a second rules text \(effective {printed}, \d+ "
                       "numbered rules\\)"):
        parse(joined.encode())


@needs_corpus
@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: p.name)
def test_a_real_release_saved_on_a_classic_mac_reads_as_the_release(path):
    text = decode(path.read_bytes())
    try:
        mac = text.replace("\n", "\r").encode("mac_roman")
    except UnicodeEncodeError as exc:
        pytest.skip(f"holds {exc.object[exc.start]!r}, which Mac OS Roman lacks")
    notes = []
    assert decode(mac, notes) == text
    assert notes == ([] if text.isascii() else [MAC_ROMAN])
