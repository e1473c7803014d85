"""PDF and Word files made for tests with the libraries that write them (reportlab,
python-docx): a three-page report with a running header, page numbers and a word
hyphenated across a line, and a memo with a title, headings, a list and a table."""

from __future__ import annotations

import datetime as dt
import io

REPORT_PAGES = [
    (
        "Gauges and readings",
        [
            "The Varn harbour gauges record the tide every ten minutes and send the readings to the",
            "regional office, where the tidal model is corrected each morning with the new infor-",
            "mation from all the gauges.",
            "The model predicts high water to within four centimetres.",
        ],
    ),
    (
        "The Quillon gauge",
        [
            "Quillon is a tide gauge installed on pier nine in 2019. It replaced an older float",
            "gauge that had drifted by several centimetres over its last decade of service.",
            "Quillon reports to the regional office by radio.",
        ],
    ),
    (
        None,
        [
            "The regional office publishes the corrected tables every Monday for the following week.",
            "Pilots use the tables to plan the passage of deep ships through the channel.",
        ],
    ),
]
RUNNING_HEADER = "Varn Harbour Authority - Tide Report 2023"


CONTENTS = [
    ("Gauges and readings", 2),
    ("The Quillon gauge", 3),
    ("Tables", 4),
    ("Pilots", 4),
    ("Radio", 3),
    ("Index", 5),
]


def report_pdf(text_layer: bool = True, contents: bool = False) -> bytes:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=A4, invariant=1)  # invariant: the same bytes each run, dated 2000-01-01
    c.setTitle("Harbour Tide Report")
    width, height = A4
    if contents:  # a table of contents first: headings and their pages
        c.setFont("Helvetica-Bold", 16)
        c.drawString(72, height - 90, "Contents")
        c.setFont("Helvetica", 11)
        for n, (entry, page) in enumerate(CONTENTS):
            c.drawString(72, height - 130 - 18 * n, f"{entry} {'.' * 20} {page}")
        c.showPage()
    for number, (heading, lines) in enumerate(REPORT_PAGES, start=1 + contents):
        if not text_layer:  # a scanned page: marks, no text
            c.rect(72, 400, 300, 200, fill=1)
            c.showPage()
            continue
        c.setFont("Helvetica", 9)
        c.drawString(72, height - 40, RUNNING_HEADER)
        y = height - 90
        if heading:
            c.setFont("Helvetica-Bold", 16)
            c.drawString(72, y, heading)
            y -= 28
        c.setFont("Helvetica", 11)
        for line in lines:
            c.drawString(72, y, line)
            y -= 15
        c.setFont("Helvetica", 9)
        c.drawString(width / 2, 30, f"Page {number} of {len(REPORT_PAGES)}")
        c.showPage()
    c.save()
    return out.getvalue()


def encrypted(pdf: bytes, password: str = "secret") -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.encrypt(password)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def memo_docx() -> bytes:
    import docx

    document = docx.Document()
    document.core_properties.created = dt.datetime(2023, 3, 14, 9, 30)
    document.core_properties.modified = dt.datetime(2023, 3, 20, 17, 0)
    document.add_heading("Pier Maintenance Memo", level=0)
    document.add_heading("Schedule", level=1)
    document.add_paragraph("The north pier closes for repairs in April. Ferries berth at pier nine meanwhile.")
    document.add_paragraph("Divers inspect the pilings first.", style="List Bullet")
    document.add_heading("Contacts", level=2)
    document.add_paragraph("Ilse Marrow leads the works for the harbour authority.")
    table = document.add_table(rows=3, cols=2)
    for row, cells in zip(table.rows, [("Team", "Lead"), ("Divers", "Oren Vale"), ("Crane", "Pia Lund")], strict=True):
        row.cells[0].text, row.cells[1].text = cells
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
