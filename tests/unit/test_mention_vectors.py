"""A mention's stage-1 vector: its name's and its identity text's unit vectors, mixed by words."""

import numpy as np
import pytest

from graphwiki_assets.core.ingest.mention_vectors import mention_parts, mention_vectors, mixed


class CountingEncoder:
    """Unit vectors from a fixed table; remembers every call."""

    def __init__(self, table: dict[str, list[float]]):
        self.table = {t: np.asarray(v, dtype=np.float32) / np.linalg.norm(v) for t, v in table.items()}
        self.calls: list[list[str]] = []

    def __call__(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        return np.asarray([self.table[t] for t in texts])


def test_a_mention_without_an_identity_is_its_name_alone():
    assert mention_parts("Quill Reactor", "  ") == ["Quill Reactor"]
    encode = CountingEncoder({"Quill Reactor": [1, 2, 2]})
    assert np.allclose(mention_vectors(encode, [("Quill Reactor", "")])[0], np.array([1, 2, 2]) / 3)


def test_each_part_weighs_as_many_words_as_it_has_and_the_result_is_a_unit_vector():
    encode = CountingEncoder({"Ada": [1, 0, 0], "A mathematician.": [0, 1, 0]})
    [row] = mention_vectors(encode, [("Ada", "A mathematician.")])
    assert np.allclose(row, np.array([1, 2, 0]) / 5**0.5) and np.linalg.norm(row) == pytest.approx(1.0)


def test_every_distinct_text_is_encoded_once_in_one_call():
    sentence = "Ada met Charles in London."
    encode = CountingEncoder({"Ada": [1, 0, 0], "Charles": [0, 0, 1], sentence: [0, 1, 0]})
    rows = mention_vectors(encode, [("Ada", sentence), ("Charles", sentence), ("Ada", sentence)])
    assert encode.calls == [["Ada", sentence, "Charles"]]
    assert np.allclose(rows[0], rows[2])


def test_two_names_with_one_description_stay_as_close_as_the_description_makes_them():
    """An acronym and its expansion, described alike, are near: the description is most of the text."""
    about = "The lease a worker holds while it writes a batch."
    encode = CountingEncoder({"WL": [1, 0, 0], "work lease": [0, 0, 1], about: [0, 1, 0]})
    a, b = mention_vectors(encode, [("WL", about), ("work lease", about)])
    assert float(a @ b) > 0.95


def test_mixing_opposite_parts_does_not_divide_by_zero():
    v = np.array([1.0, 0.0], dtype=np.float32)
    assert np.allclose(mixed(["up", "down"], [v, -v]), [0.0, 0.0])
