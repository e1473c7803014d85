"""The embedding floor: word pieces counted as the model reads them (cut at its limit) and
divided by the encoder's own rate, printed as JSON by `graphwiki bench embed-floor`."""

from __future__ import annotations

import json

from graphwiki_assets.cli.main import main
from graphwiki_assets.core.cpu_time import cores

RECORDS = [
    {"id": "a", "title": "Quillmere", "text": "Quillmere is a harbour town on the Vell coast."},
    {"id": "b", "title": "Orrin Vask", "text": "Orrin Vask founded the Quillmere glassworks. " * 80},
    {"id": "c", "title": "", "text": "Short."},
]


def test_the_floor_is_the_sources_word_pieces_over_the_encoders_rate(tmp_path, capsys, embedder):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    assert main(["bench", "embed-floor", "--corpus", str(corpus), "--sample", "2"]) == 0
    out = json.loads(capsys.readouterr().out)

    assert out["sources"] == 3
    # The long source is cut where the model cuts it; the others are read whole.
    assert out["sources_at_model_limit"] == 1
    # A title the text does not open with is put in front of it, as ingest does.
    texts = [RECORDS[0]["text"], "Orrin Vask\n\n" + RECORDS[1]["text"], "Short."]
    expected = embedder.word_pieces(texts)
    assert expected[1] == embedder.max_word_pieces
    assert out["word_pieces"] == sum(expected)
    assert len(out["encoder_runs"]) == 3 and all(r["seconds"] > 0 for r in out["encoder_runs"])
    assert out["floor_seconds"] == round(out["word_pieces"] / out["word_pieces_per_second"], 1)
    # What reading costs in CPU, all the encoder's threads: what an ingest sharing the cores pays.
    assert all(r["cpu_seconds"] > 0 for r in out["encoder_runs"])
    assert out["cpu_seconds_per_1k_word_pieces"] > 0 and out["cores"] == cores()
