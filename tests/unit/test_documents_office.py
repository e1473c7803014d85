"""PDF and Word files are read as documents: prose under its headings with the page it is
on, a running header, page numbers and a table's cells never read as prose, a hyphenated
word joined, the title and date the file gives itself; a file that cannot be read (locked,
scanned, damaged) is refused alone with the reason."""

from __future__ import annotations

import datetime as dt

import pytest

from graphwiki_assets.core.documents import DOCX, PDF, SOURCE_SUFFIXES, read_binary
from graphwiki_assets.core.documents.formats import TEXT_SUFFIXES
from graphwiki_assets.core.sources import SourceRejected, collect, read_source
from tests.support.office_files import RUNNING_HEADER, encrypted, memo_docx, report_pdf


def test_a_pdf_is_read_as_headed_passages_with_their_pages_and_without_its_layout():
    document = read_binary(report_pdf(), PDF)
    assert document.title == "Harbour Tide Report"
    by_page = {p.section[-1]: p for p in document.passages}
    assert set(by_page) == {"p. 1", "p. 2", "p. 3"}
    assert by_page["p. 2"].section == ("The Quillon gauge", "p. 2")
    assert by_page["p. 3"].section == ("The Quillon gauge", "p. 3")  # a heading reaches over the page break
    everything = " ".join(p.text for p in document.passages)
    assert "with the new information from all the gauges." in everything  # "infor-" + "mation"
    assert RUNNING_HEADER not in everything and "Page 2 of 3" not in everything
    assert "Gauges and readings" not in everything  # a heading is a section, not prose


def test_a_table_of_contents_is_no_prose_and_the_pages_after_it_keep_their_numbers():
    document = read_binary(report_pdf(contents=True), PDF)
    everything = " ".join(p.text for p in document.passages)
    assert "...." not in everything and "Index" not in everything and "Contents" not in everything
    by_page = {p.section[-1]: p for p in document.passages}
    assert set(by_page) == {"p. 2", "p. 3", "p. 4"}
    assert by_page["p. 3"].section == ("The Quillon gauge", "p. 3")


def test_a_pdf_source_is_dated_by_its_own_metadata(tmp_path):
    path = tmp_path / "report.pdf"
    path.write_bytes(report_pdf())
    source = read_source(path)
    assert source.format == PDF and source.title == "Harbour Tide Report"
    assert source.date == dt.date(2000, 1, 1) and source.date_source == "properties"
    assert "Quillon is a tide gauge" in source.text and source.document is not None
    assert read_source(path).sha256 == source.sha256  # the same file is the same source


@pytest.mark.parametrize(
    "make,reason",
    [
        (lambda: encrypted(report_pdf()), "encrypted"),
        (lambda: report_pdf(text_layer=False), "no text layer"),
        (lambda: b"%PDF-1.7\n" + b"\x00garbage" * 50, "cannot be read"),
    ],
    ids=["encrypted", "scanned", "damaged"],
)
def test_a_pdf_that_cannot_be_read_is_refused_with_the_reason(tmp_path, make, reason):
    path = tmp_path / "bad.pdf"
    path.write_bytes(make())
    with pytest.raises(SourceRejected, match=reason):
        read_source(path)


def test_a_word_file_is_read_as_sections_prose_and_table_rows():
    document = read_binary(memo_docx(), DOCX)
    assert document.title == "Pier Maintenance Memo"
    sections = {p.text: p.section for p in document.passages}
    assert sections["Ilse Marrow leads the works for the harbour authority."] == (
        "Pier Maintenance Memo",
        "Schedule",
        "Contacts",
    )
    assert sections["Divers inspect the pilings first."] == ("Pier Maintenance Memo", "Schedule")
    assert [dict(r.cells) for r in document.rows] == [
        {"Team": "Divers", "Lead": "Oren Vale"},
        {"Team": "Crane", "Lead": "Pia Lund"},
    ]
    assert not any("Oren Vale" in p.text for p in document.passages)  # a row is no sentence
    assert document.metadata == {"modified": "2023-03-20", "created": "2023-03-14"}


def test_a_damaged_word_file_is_refused_with_the_reason(tmp_path):
    path = tmp_path / "memo.docx"
    path.write_bytes(memo_docx()[:400])
    with pytest.raises(SourceRejected, match="Word file cannot be read"):
        read_source(path)


def test_pdf_and_word_are_found_in_folders_but_only_text_may_be_sent_as_text(tmp_path):
    (tmp_path / "report.pdf").write_bytes(report_pdf())
    (tmp_path / "memo.docx").write_bytes(memo_docx())
    files, refused, _ = collect([tmp_path])
    assert sorted(f.name for f in files) == ["memo.docx", "report.pdf"] and refused == []
    assert {".pdf", ".docx"} <= set(SOURCE_SUFFIXES) and not {".pdf", ".docx"} & set(TEXT_SUFFIXES)


def test_a_file_no_reader_takes_is_named_with_the_reason_not_passed_over(tmp_path):
    (tmp_path / "notes.md").write_text("# Notes\n\nQuillon is a tide gauge.\n", encoding="utf-8")
    (tmp_path / "chart.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / ".hidden.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    files, refused, _ = collect([tmp_path])
    assert [f.name for f in files] == ["notes.md"]
    assert [(r.path.rsplit("/", 1)[-1], r.reason, r.unread) for r in refused] == [
        ("chart.png", "no reader takes .png files", True)
    ]


@pytest.mark.parametrize(
    "line,day",
    [
        ("Published 14 March 2023 by the harbour office", dt.date(2023, 3, 14)),
        ("Last updated: 2023-03-20", dt.date(2023, 3, 20)),
        ("Dated March 2, 2021.", dt.date(2021, 3, 2)),
        ("The gauge was installed in 2019.", None),
    ],
)
def test_a_document_without_dated_properties_is_dated_by_its_dateline(line, day):
    from graphwiki_assets.core.documents.dates import document_date

    date, by = document_date({}, ["Harbour Memo", line], "memo.docx", None)
    assert (date, by) == ((day, "opening_lines") if day else (None, ""))
