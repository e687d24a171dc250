"""`rulesdb fetch` against a local HTTP server on 127.0.0.1 (never the internet)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from collections.abc import Iterator
from datetime import date
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
import sqlite_utils
from click.testing import CliRunner

from rulesdb.cli import cli
from rulesdb.sources.fetch import release_url, web_address

from forms_helpers import docx, pdf
from test_add import release

RELEASE = release().replace("\n", "\r\n").encode("utf-8-sig")
PAGE = b"""<!DOCTYPE html><html><body>
<a href="https://elsewhere.example/2024/downloads/MagicCompRules%2020241004.txt">old</a>
<a href="/2025/downloads/MagicCompRules%2020250606.txt">TXT</a>
<a href="/rules.pdf">PDF</a></body></html>"""

# as the rules page writes its links: the space of the file name as it is
PAGE_AS_WRITTEN = b"""<!DOCTYPE html><html><body>
<p><a class="cta" href="/2025/downloads/MagicCompRules 20250606.txt">TXT</a>
<a href='/2024/downloads/MagicCompRules 20241004.txt'>older</a>
<a href="/2025/downloads/MagicCompRules 20250606.pdf">PDF</a>
<a href="/2025/downloads/MagicCompRules 20250606.docx">DOCX</a></p></body></html>"""

# path -> (status, content type, body, seconds to wait before answering, send Content-Length)
ROUTES: dict[str, tuple[int, str, bytes, float, bool]] = {
    "/2025/downloads/MagicCompRules%2020250606.txt": (200, "text/plain", RELEASE, 0, True),
    "/en/rules": (200, "text/html; charset=utf-8", PAGE, 0, True),
    "/en/rules-as-written": (200, "text/html; charset=utf-8", PAGE_AS_WRITTEN, 0, True),
    "/2025/downloads/MagicCompRules%2020250101.txt": (200, "text/html", PAGE, 0, True),
    "/2025/downloads/MagicCompRules%2020250102.txt": (200, "text/plain", PAGE, 0, True),
    "/2025/downloads/MagicCompRules%2020250103.txt": (200, "text/plain", RELEASE, 3, True),
    "/2025/downloads/MagicCompRules%2020250104.txt": (200, "text/plain", RELEASE * 100, 0, True),
    "/2025/downloads/MagicCompRules%2020250105.txt": (200, "text/plain", RELEASE * 100, 0, False),
    "/2025/downloads/MagicCompRules%2020250106.txt": (200, "text/plain",
                                                      b"Just some text.\r\n", 0, True),
    "/2025/downloads/MagicCompRules%2020250107.txt": (500, "text/plain", b"oops", 0, True),
}
# releases published in other forms only, and one in every form (the text is taken)
ROUTES["/2023/downloads/MagicCompRules%2020230203.docx"] = (
    200, "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    docx(release("February 3, 2023").split("\n")), 0, True)
ROUTES["/2023/downloads/MagicCompRules%2020230203.pdf"] = (
    200, "application/pdf", b"%PDF-1.7 never asked for: the .docx comes first", 0, True)
ROUTES["/images/magic/tcg/resources/rules/MagicCompRules_20140501.pdf"] = (
    200, "application/pdf", pdf(release("May 1, 2014"), width=300, lines_per_page=14), 0, True)
for _form in ("docx", "pdf"):
    ROUTES[f"/2025/downloads/MagicCompRules%2020250606.{_form}"] = (
        200, "application/octet-stream", b"not asked for: the text comes first", 0, True)
PAGE_OF_FORMS = b"""<!DOCTYPE html><html><body>
<a href="/2022/downloads/MagicCompRules 20221118.txt">older TXT</a>
<a href="/2023/downloads/MagicCompRules 20230203.pdf">PDF</a>
<a href="/2023/downloads/MagicCompRules 20230203.docx">DOCX</a></body></html>"""
ROUTES["/en/rules-without-text"] = (200, "text/html", PAGE_OF_FORMS, 0, True)
# older releases where Wizards put them (and one not where its date says)
OLD_RELEASES = {
    "2017-07-07": "/2017/downloads/MagicCompRules_20170707.txt",
    "2016-09-30": "/2016/docs/MagicCompRules_20160930.txt",
    "2014-07-18": "/images/magic/tcg/resources/rules/MagicCompRules_20140718.txt",
    "2018-01-19": "/2018/downloads/MagicCompRules_20180119.txt",
}
# a release whose file name no pattern gives (as one of August 2016 was named)
ODD_NAME = "/2016/docs/MagicCompRules_CN2_Update_20160826.txt"
ROUTES[ODD_NAME] = (200, "text/plain; charset=utf-16",
                    release("August 26, 2016").encode("utf-16"), 0, True)
for _day, _path in OLD_RELEASES.items():
    _printed = f"{date.fromisoformat(_day):%B} {date.fromisoformat(_day).day}, {_day[:4]}"
    ROUTES[_path] = (200, "text/plain", release(_printed).encode("cp1252"), 0, True)


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        status, kind, body, wait, length = ROUTES.get(
            self.path, (404, "text/html", b"<html>Not found</html>", 0, True))
        time.sleep(wait)
        self.send_response(status)
        self.send_header("Content-Type", kind)
        if length:
            self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):  # the client gave up
            self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def fetch(server: str, db, *args: str):
    return CliRunner().invoke(cli, ["fetch", "--db", str(db), "--media-url", server,
                                    "--rules-page", f"{server}/en/rules", *args])


def test_release_url():
    assert release_url(date(2025, 6, 6)) == (
        "https://media.wizards.com/2025/downloads/MagicCompRules%2020250606.txt")


def test_fetch_a_date(server, tmp_path):
    db = tmp_path / "rules.db"
    result = fetch(server, db, "--date", "2025-06-06")
    assert result.exit_code == 0, result.output
    url = f"{server}/2025/downloads/MagicCompRules%2020250606.txt"
    assert result.output.splitlines()[:2] == [
        f"downloaded {url}",
        "cr-2025-06-06: added from MagicCompRules 20250606.txt: 12 rules, 1 examples, "
        "4 glossary entries"]
    row = sqlite_utils.Database(db)["documents"].get("cr-2025-06-06")
    assert (row["file"], row["file_date"]) == ("MagicCompRules 20250606.txt", "2025-06-06")
    assert row["source"].endswith(f"added from {url}")


@pytest.mark.parametrize("day", list(OLD_RELEASES))
def test_fetch_an_older_release_where_wizards_put_it(server, tmp_path, day):
    db = tmp_path / "rules.db"
    result = fetch(server, db, "--date", day, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["url"] == f"{server}{OLD_RELEASES[day]}"
    row = sqlite_utils.Database(db)["documents"].get(f"cr-{day}")
    assert (row["file"], row["file_date"]) == (OLD_RELEASES[day].rsplit("/", 1)[1], day)


def test_a_missing_release_names_every_address_tried(server, tmp_path):
    result = fetch(server, tmp_path / "rules.db", "--date", "2016-02-03")
    assert result.exit_code == 1
    assert result.output == (
        "Error: no release file dated 2016-02-03 at any address Wizards has used, in any form: "
        f"{server}/2016/docs/MagicCompRules_20160203.txt|docx|doc|rtf|pdf: HTTP 404 Not Found; "
        f"{server}/2016/downloads/MagicCompRules%2020160203.txt|docx|doc|rtf|pdf: HTTP 404 "
        "Not Found; "
        f"{server}/2016/downloads/MagicCompRules_20160203.txt|docx|doc|rtf|pdf: HTTP 404 Not "
        "Found; "
        f"{server}/images/magic/tcg/resources/rules/MagicCompRules_20160203.txt|docx|doc|rtf|"
        "pdf: HTTP 404 Not Found\n")


@pytest.mark.parametrize(("day", "path"), [
    ("2023-02-03", "/2023/downloads/MagicCompRules%2020230203.docx"),
    ("2014-05-01", "/images/magic/tcg/resources/rules/MagicCompRules_20140501.pdf"),
    ("2025-06-06", "/2025/downloads/MagicCompRules%2020250606.txt"),
])
def test_fetch_takes_a_release_in_another_form_when_there_is_no_text(server, tmp_path, day,
                                                                      path):
    db = tmp_path / "rules.db"
    result = fetch(server, db, "--date", day, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["url"], [(d["id"], d["rules"]) for d in data["documents"]]) == (
        f"{server}{path}", [(f"cr-{day}", 12)])


def test_fetch_latest_takes_the_newest_release_in_its_first_form(server, tmp_path):
    result = CliRunner().invoke(cli, ["fetch", "--db", str(tmp_path / "rules.db"),
                                      "--rules-page", f"{server}/en/rules-without-text", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["url"] == \
        f"{server}/2023/downloads/MagicCompRules%2020230203.docx"


def test_fetch_latest_follows_the_newest_link_of_the_rules_page(server, tmp_path):
    result = fetch(server, tmp_path / "rules.db", "--latest", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["url"] == f"{server}/2025/downloads/MagicCompRules%2020250606.txt"
    assert [d["action"] for d in data["documents"]] == ["added"]
    again = fetch(server, tmp_path / "rules.db", "--json")  # --latest is the default
    assert [d["action"] for d in json.loads(again.output)["documents"]] == ["unchanged"]


def test_a_dry_run_downloads_and_checks_but_writes_nothing(server, tmp_path):
    result = fetch(server, tmp_path / "rules.db", "--date", "2025-06-06", "--dry-run", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["dry_run"], [d["action"] for d in data["documents"]]) == (True, ["added"])
    assert list(tmp_path.iterdir()) == []
    broken = fetch(server, tmp_path / "rules.db", "--date", "2025-01-06", "--dry-run")
    assert broken.exit_code == 2 and "no numbered rule found" in broken.output


def test_fetch_latest_reads_links_written_with_a_space(server, tmp_path):
    result = CliRunner().invoke(cli, ["fetch", "--db", str(tmp_path / "rules.db"),
                                      "--rules-page", f"{server}/en/rules-as-written", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["url"] == f"{server}/2025/downloads/MagicCompRules%2020250606.txt"
    assert [d["action"] for d in data["documents"]] == ["added"]


@pytest.mark.parametrize(("written", "requested"), [
    ("https://media.wizards.com/2025/downloads/MagicCompRules 20250606.txt",
     "https://media.wizards.com/2025/downloads/MagicCompRules%2020250606.txt"),
    ("https://media.wizards.com/2025/downloads/MagicCompRules%2020250606.txt",
     "https://media.wizards.com/2025/downloads/MagicCompRules%2020250606.txt"),
    (" http://127.0.0.1:8/a b/MagicCompRules 2025.txt?x=1&y=2 ",
     "http://127.0.0.1:8/a%20b/MagicCompRules%202025.txt?x=1&y=2"),
])
def test_web_address(written, requested):
    assert web_address(written) == requested


FAILURES = {
    "404": ("2025-06-07", [], 1,
            "MagicCompRules%2020250607.txt|docx|doc|rtf|pdf: HTTP 404 Not Found"),
    "server error": ("2025-01-07", [], 2, "HTTP 500 Internal Server Error"),
    "timeout": ("2025-01-03", ["--timeout", "0.5"], 2, "no answer within 0.5 s"),
    "too large (Content-Length)": ("2025-01-04", ["--max-mb", "0.1"], 2,
                                   "bytes, more than the 104857 allowed"),
    "too large (streamed)": ("2025-01-05", ["--max-mb", "0.1"], 2,
                             "more than the 104857 bytes allowed"),
    "html content type": ("2025-01-01", [], 2, "the server sent a web page (text/html)"),
    "html body": ("2025-01-02", [], 2, "the server sent a web page, not a rules text file"),
    "not a CR": ("2025-01-06", [], 2, "MagicCompRules 20250106.txt: line 1, column 1: no "
                                      "numbered rule found"),
}


@pytest.mark.parametrize("case", list(FAILURES))
def test_failures_are_one_clear_line_and_leave_the_database_untouched(server, tmp_path, case):
    day, extra, code, message = FAILURES[case]
    db = tmp_path / "rules.db"
    fetch(server, db, "--date", "2025-06-06")
    before = db.read_bytes()
    result = fetch(server, db, "--date", day, *extra)
    assert result.exit_code == code, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    assert message in lines[0]
    assert db.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["rules.db"]


def test_no_database_is_created_when_the_download_fails(server, tmp_path):
    result = fetch(server, tmp_path / "rules.db", "--date", "2025-06-07")
    assert result.exit_code == 1
    assert not (tmp_path / "rules.db").exists()


def test_a_rules_page_without_a_link(server, tmp_path):
    result = CliRunner().invoke(cli, ["fetch", "--db", str(tmp_path / "r.db"), "--rules-page",
                                      f"{server}/rules.pdf"])
    assert result.exit_code == 1
    assert "HTTP 404" in result.output


def test_nothing_listens(tmp_path):
    result = CliRunner().invoke(cli, ["fetch", "--db", str(tmp_path / "r.db"), "--media-url",
                                      "http://127.0.0.1:9", "--date", "2025-06-06"])
    assert result.exit_code == 2
    assert result.output.startswith("Error: http://127.0.0.1:9/2025/downloads/"
                                    "MagicCompRules%2020250606.txt: cannot connect: ")


@pytest.mark.parametrize("given", [["--latest", "--date", "2025-06-06"],
                                   ["--url", "http://127.0.0.1:9/x.txt", "--latest"],
                                   ["--date", "2025-06-06", "--url", "http://127.0.0.1:9/x.txt"]])
def test_one_of_date_latest_and_url(tmp_path, given):
    result = CliRunner().invoke(cli, ["fetch", "--db", str(tmp_path / "r.db"), *given])
    assert result.exit_code == 2
    assert result.output == "Error: give one of --date, --latest and --url\n"


def test_fetch_a_release_named_otherwise_by_its_address(server, tmp_path):
    db = tmp_path / "rules.db"
    url = f"{server}{ODD_NAME}"
    result = fetch(server, db, "--url", url, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["url"], [d["id"] for d in data["documents"]]) == (url, ["cr-2016-08-26"])
    row = sqlite_utils.Database(db)["documents"].get("cr-2016-08-26")
    assert (row["file"], row["file_date"]) == ("MagicCompRules_CN2_Update_20160826.txt",
                                               "2016-08-26")
    missing = fetch(server, db, "--url", f"{server}/nothing/here.txt")
    assert missing.exit_code == 1
    assert missing.output == f"Error: {server}/nothing/here.txt: HTTP 404 Not Found\n"
