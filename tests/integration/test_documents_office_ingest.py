"""PDF and Word files beside markdown in one folder: each becomes a source dated by its own
metadata, its claims record where in the file they were read (a PDF's page, a Word file's
headings) on their DERIVED_FROM, an answer cites "report.pdf, p. 2" and a wiki page "[1, p. 2]"; a running header,
a page number or a table cell never becomes a claim; a file no reader takes is named in the
command's report and does not fail it."""

from __future__ import annotations

import json

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.concepts.card import concept_card
from graphwiki_assets.core.query import ask
from graphwiki_assets.core.wiki.page import render_page
from tests.support.ingest import ingest
from tests.support.office_files import RUNNING_HEADER, memo_docx, report_pdf


def _folder(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "report.pdf").write_bytes(report_pdf())
    (folder / "memo.docx").write_bytes(memo_docx())
    return folder


def test_pdf_and_word_claims_know_their_page_and_section(store, embedder, settings, offline_llm, tmp_path):
    folder = _folder(tmp_path)
    report = ingest(store, embedder, settings, sorted(folder.iterdir())).as_dict()
    assert report["sources"]["new"] == 2 and report["sources"]["failed"] == 0
    sources = {
        r["name"]: r
        for r in store.query(
            "MATCH (s:Source) RETURN split(s.path, '/')[-1] AS name, toString(s.date) AS date, s.date_source AS by"
        )
    }
    assert sources["report.pdf"]["date"] == "2000-01-01" and sources["memo.docx"]["date"] == "2023-03-20"
    assert {s["by"] for s in sources.values()} == {"properties"}
    places = store.query(
        "MATCH (cl:Claim)-[d:DERIVED_FROM]->(s:Source) RETURN cl.text AS text, d.section AS section, "
        "split(s.path, '/')[-1] AS file"
    )
    by_text = {p["text"]: p for p in places}
    quillon = next(p for t, p in by_text.items() if t.startswith("Quillon is a tide gauge"))
    assert quillon["file"] == "report.pdf" and quillon["section"] == "The Quillon gauge > p. 2"
    marrow = next(p for t, p in by_text.items() if t.startswith("Ilse Marrow leads"))
    assert marrow["section"] == "Pier Maintenance Memo > Schedule > Contacts"
    claims = " ".join(by_text)
    assert RUNNING_HEADER not in claims and "Page 2 of 3" not in claims and "Oren Vale" not in claims

    answer = ask(store, embedder, offline_llm, "What is Quillon?", shape="what_is", entities=["Quillon"]).as_dict()
    cited = {s["cited_as"] for s in answer["sources"]}
    assert "report.pdf, p. 2" in cited
    page = render_page(concept_card(store, "Quillon"), stems={})
    assert "Quillon is a tide gauge installed on pier nine in 2019." in page and ", p. 2]" in page


def test_the_command_names_a_file_no_reader_takes_and_still_succeeds(store, cli_env, tmp_path, capsys):
    folder = _folder(tmp_path)
    (folder / "chart.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    code = main(["ingest", str(folder), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["sources"]["new"] == 2 and data["sources"]["skipped"] == 1
    assert [(p["path"].rsplit("/", 1)[-1], p["reason"]) for p in data["problems"]] == [
        ("chart.png", "no reader takes .png files")
    ]
