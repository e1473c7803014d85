"""Two claims that share a concept can only contradict when they are about the same subject:
not the same product at two releases, not two files each speaking of itself."""

from __future__ import annotations

from graphwiki_assets.core.ingest.comparable import comparable, other_releases, releases


def test_a_name_at_two_releases_is_two_subjects():
    a = "Quillet 3 stores its settings in the home folder."
    b = "In Quillet 2, settings were stored beside the binary."
    assert other_releases(a, b) == "quillet"
    assert not comparable(a, b, same_file=False)


def test_the_same_release_or_no_release_stays_comparable():
    assert comparable("Quillet 3 is written in Rust.", "Quillet 3 is written in Go.", same_file=False)
    assert comparable("Quillet is written in Rust.", "Quillet is written in Go.", same_file=False)
    # overlapping releases: one claim names both
    assert comparable("Quillet 2 and Quillet 3 read TOML.", "Quillet 3 reads YAML.", same_file=False)


def test_a_count_after_a_name_is_no_release():
    assert releases("Quillet 5 times faster than before") == {}
    assert releases("Upgrade to Quillet v2.1 today") == {"quillet": {"2.1"}}


def test_a_source_speaking_of_itself_is_compared_only_within_its_file():
    a = "This is part 4 of 7 of our series on packaging."
    b = "This is part 2 of 7 of our series on packaging."
    assert not comparable(a, b, same_file=False)
    assert comparable(a, b, same_file=True)
    assert not comparable("Here we show the three steps.", "Quillet needs two steps.", same_file=False)
