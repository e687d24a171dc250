"""The Magic Tournament Rules transcribed as JSON (rulesdb.ingest.policy_json): a small
transcription, its errors, and the shipped November 10, 2025 edition."""

from __future__ import annotations

import json

import pytest

from rulesdb.ingest.lossless import lossless_mismatch
from rulesdb.ingest.model import ParseError
from rulesdb.ingest.policy_json import parse_files

from policy_helpers import MTR, parsed, parsed_json

INDEX = {"title": "Magic Tournament Rules", "document_type": "mtr",
         "metadata": {"effective_date": "November 10, 2025"},
         "sections": [{"section_number": 4, "title": "4. Communication",
                       "section_key": "mtr_section_4"},
                      {"section_number": "F", "title": "Appendix F—Rules Enforcement Levels",
                       "section_key": "mtr_appendix_f"}]}
SECTION = {"section_number": 4, "title": "4. Communication", "rules": [
    {"number": "4.1", "title": "Player Communication",
     "content": "Status information is tracked by the affected\nplayer. It consists of:\n\n"
                "• Life total.\n• Counters.\n\nA DCI- sanctioned rule."}]}
APPENDIX = {"section_number": "F", "title": "Appendix F—Rules Enforcement Levels", "rules": [
    {"number": "F", "title": "Rules Enforcement Levels",
     "content": "Appendix F—Rules Enforcement Levels\n\nProgram Rules Enforcement Level\n\n"
                "All trademarks are property of Wizards of the Coast LLC.\n\n© 2025 MARVEL"}]}


def files(**changes) -> dict[str, bytes]:
    found = {"mtr_index.json": INDEX, "mtr_section_4.json": SECTION,
             "mtr_appendix_f.json": APPENDIX, **changes}
    return {name: data if isinstance(data, bytes) else json.dumps(data).encode()
            for name, data in found.items() if data is not None}


def test_a_transcription_read_into_the_policy_document_items() -> None:
    doc = parse_files(files())
    assert [(r.number, r.kind, r.parent, r.title, r.text) for r in doc.rules] == [
        ("4", "chapter", None, "Communication", "Communication"),
        ("4.1", "section", "4", "Player Communication",
         "Status information is tracked by the affected player. It consists of:\n"
         "• Life total.\n• Counters.\nA DCI-sanctioned rule."),
        ("F", "appendix", None, "Rules Enforcement Levels", "Program Rules Enforcement Level")]
    assert [(p.name, p.text) for p in doc.parts] == [
        ("title", "Magic Tournament Rules"), ("effective date", "Effective November 10, 2025"),
        ("credits", "All trademarks are property of Wizards of the Coast LLC.\n© 2025 MARVEL")]
    assert (doc.meta.kind, doc.meta.effective_date, doc.meta.covers) == (
        "tournament_rules", "2025-11-10", ("4-4", "F-F"))
    assert doc.warnings == (
        "1 line breaks the transcription kept inside a sentence read as spaces",
        "1 spaces the transcription left after a hyphen where a printed line broke dropped")
    assert lossless_mismatch(doc, spacing=False) is None


@pytest.mark.parametrize(("changes", "message"), [
    ({"mtr_index.json": None}, "no index file"),
    ({"mtr_section_4.json": None}, "mtr_section_4.json: listed in the index but not found"),
    ({"mtr_section_4.json": b"{not json"}, "mtr_section_4.json: not JSON"),
    ({"mtr_section_4.json": [1, 2]}, "mtr_section_4.json: not a JSON object"),
    ({"mtr_section_4.json": {"rules": [{"title": "x"}]}}, "rules\\[0\\] has no number"),
    ({"mtr_index.json": {**INDEX, "document_type": "cr"}}, "document_type 'cr' is neither"),
    ({"mtr_index.json": {**INDEX, "metadata": {"effective_date": "soon"}}},
     "effective_date 'soon' is not a date"),
])
def test_a_broken_transcription_is_refused_naming_its_file(changes, message) -> None:
    with pytest.raises(ParseError, match=message):
        parse_files(files(**changes))


def test_the_shipped_edition_has_every_numbered_paragraph_of_the_next_one() -> None:
    doc = parsed_json()
    assert (doc.meta.effective_date, doc.meta.covers) == ("2025-11-10", ("1-10", "A-F"))
    newer = [(r.number, r.kind, r.title) for r in parsed(MTR).rules if r.kind != "preface"]
    assert [(r.number, r.kind, r.title) for r in doc.rules] == newer
    assert lossless_mismatch(doc, spacing=False) is None
    assert doc.parts[-1].name == "credits"
    assert doc.warnings == (
        "80 line breaks the transcription kept inside a sentence read as spaces",
        "5 spaces the transcription left after a hyphen where a printed line broke dropped")
