"""The NLI pairs the model is trained and measured on, vendored: about 29,700 of them.

No model hub or dataset host is reachable from this project's machines, and the usual copies
of SNLI and MultiNLI are hundreds of megabytes. Two public repositories keep small parts:

- e-SNLI (Camburu et al., 2018) keeps SNLI's dev and test splits as tokenised text files
  (``s1``, ``s2``, ``labels``): 19,666 pairs of image captions. SNLI is CC BY-SA 4.0.
- TaxiNLI (Joshi et al., 2020) annotates 10,071 MultiNLI pairs and repeats their text: ten
  genres (government, fiction, telephone, letters, travel...), closer to the claims a
  knowledge base holds than captions are. Released under the Computational Use of Data
  Agreement v1.0; MultiNLI's own text is mostly the OANC (free) with CC BY-SA 3.0 fiction.

``vendor`` turns those files, each checked against its sha256, into one gzipped TSV beside
this module (1.2 MB), which ``load_pairs`` checks again before use (data/README.md).

The held-out slice is chosen by premise, not by pair: SNLI writes three hypotheses for each
premise, and a premise seen in training would make the held-out numbers look better than
they are on new text.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

LABELS = ("entailment", "neutral", "contradiction")  # the model's output order

VENDORED = Path(__file__).parent / "data" / "nli_pairs.tsv.gz"
VENDORED_SHA256 = "9cda3d9478b8fae0ece2411ca192d21347693d4947c15a01c42e9b46eeb5e467"

# e-SNLI at commit 7b585a3f077fdea899780eb0473940522ae44a2e, folder dataset/eSNLI/.
ESNLI_COMMIT = "7b585a3f077fdea899780eb0473940522ae44a2e"
ESNLI_FILES = {
    "s1.dev": "28a398b5478b10b4b851d4bb5b2e5767171519add6586015ed50b9436df11d00",
    "s2.dev": "a8c59709630b64ba103f7784c0cb7104a6baf23234562487264d9634714f5d2b",
    "labels.dev": "d164d72435c3289fe53cb01e983f7c06e104bf192c0cae9caf2e99bf2e15f974",
    "s1.test": "62cb8107dc3c56a4376e5e521842be24e0d61c92c346b94917da2bbf2a47d8be",
    "s2.test": "1174f3ad30a3c30fc0f9eeffc1b3b6a79e0514026c5a658968a8e2a324b311a1",
    "labels.test": "e25c363e5cc70d5494d6e6555d8053eced22dca836e0f03067530eaad3d4f5f5",
}

# TaxiNLI at commit 60d89b03293c47b99288e24853a4cd3426bea437, file taxinli10k.tsv.
TAXINLI_COMMIT = "60d89b03293c47b99288e24853a4cd3426bea437"
TAXINLI_SHA256 = "941fe241f5bc673a5248a86511f6e6368658a9b6c61a0ea8068411b8561521b2"

# Tenths of each source's premises held out (never trained on), chosen by a hash of the
# premise so the slice depends neither on a seed nor on the order of the file. SNLI's held-out
# premises come from its test split only.
HELD_OUT_TENTHS = {"snli-test": 3, "mnli": 2}


class NliDataError(RuntimeError):
    pass


@dataclass(frozen=True)
class Pair:
    premise: str
    hypothesis: str
    label: int  # an index into LABELS
    source: str  # "snli-dev", "snli-test" or "mnli"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def detokenize(text: str) -> str:
    """e-SNLI's files are tokenised ("does n't", "man 's", "packages ."); the model will read
    plain sentences, so the tokeniser's spaces are taken out again."""
    text = text.strip().replace("``", '"').replace("''", '"')
    text = re.sub(r" (n't|'s|'re|'ve|'ll|'d|'m)\b", r"\1", text)
    text = re.sub(r" ([.,!?;:%)])", r"\1", text)
    text = re.sub(r"([($]) ", r"\1", text)
    return re.sub(r"\s+", " ", text)


def _checked(path: Path, pin: str) -> bytes:
    data = path.read_bytes()
    if sha256_bytes(data) != pin:
        raise NliDataError(f"{path} does not match its pin {pin}")
    return data


def esnli_rows(folder: Path) -> list[tuple[str, str, str, str]]:
    """(source, premise, hypothesis, label) of SNLI's dev and test splits, from e-SNLI's
    ``dataset/eSNLI`` folder."""
    texts = {name: _checked(folder / name, pin).decode("utf-8").splitlines() for name, pin in ESNLI_FILES.items()}
    rows = []
    for split in ("dev", "test"):
        for s1, s2, label in zip(texts[f"s1.{split}"], texts[f"s2.{split}"], texts[f"labels.{split}"], strict=True):
            if label.strip() in LABELS:  # SNLI's pairs without a majority label ("-") are dropped
                rows.append((f"snli-{split}", detokenize(s1), detokenize(s2), label.strip()))
    return rows


def taxinli_rows(path: Path) -> list[tuple[str, str, str, str]]:
    """(source, premise, hypothesis, label) of TaxiNLI's MultiNLI pairs (MultiNLI's gold label,
    not TaxiNLI's re-annotation)."""
    lines = _checked(path, TAXINLI_SHA256).decode("utf-8").splitlines()
    header = lines[0].split("\t")
    at = {name: header.index(name) for name in ("prem", "hyp", "label")}
    rows = []
    for line in lines[1:]:
        cells = line.split("\t")
        premise, hypothesis, label = (" ".join(cells[at[k]].split()) for k in ("prem", "hyp", "label"))
        if label in LABELS and premise and hypothesis:
            rows.append(("mnli", premise, hypothesis, label))
    return rows


def vendor(esnli_folder: Path, taxinli_file: Path, target: Path = VENDORED) -> str:
    """Writes the vendored TSV; returns its sha256."""
    rows = ["source\tpremise\thypothesis\tlabel"]
    rows += ["\t".join(r) for r in esnli_rows(esnli_folder) + taxinli_rows(taxinli_file)]
    payload = ("\n".join(rows) + "\n").encode("utf-8")
    target.parent.mkdir(parents=True, exist_ok=True)
    # mtime=0 and no file name in the header: the same input gives the same bytes and sha256
    with open(target, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
        gz.write(payload)
    return sha256_bytes(target.read_bytes())


def load_pairs(path: Path = VENDORED, sha256: str = VENDORED_SHA256) -> list[Pair]:
    lines = gzip.decompress(_checked(path, sha256)).decode("utf-8").splitlines()[1:]
    pairs = []
    for line in lines:
        source, premise, hypothesis, label = line.split("\t")
        pairs.append(Pair(premise, hypothesis, LABELS.index(label), source))
    return pairs


def is_held_out(pair: Pair) -> bool:
    bucket = int(hashlib.sha256(pair.premise.encode("utf-8")).hexdigest(), 16) % 10
    return bucket < HELD_OUT_TENTHS.get(pair.source, 0)


def split_pairs(pairs: list[Pair]) -> tuple[list[Pair], list[Pair]]:
    """(train, held_out): no premise of the held-out slice occurs in the training pairs."""
    held = [p for p in pairs if is_held_out(p)]
    held_premises = {p.premise for p in held}
    train = [p for p in pairs if not is_held_out(p) and p.premise not in held_premises]
    return train, held


def main() -> None:
    parser = argparse.ArgumentParser(description="Rebuild the vendored NLI pairs from e-SNLI's and TaxiNLI's files.")
    parser.add_argument("esnli", type=Path, help=f"e-SNLI's dataset/eSNLI folder (commit {ESNLI_COMMIT})")
    parser.add_argument("taxinli", type=Path, help=f"TaxiNLI's taxinli10k.tsv (commit {TAXINLI_COMMIT})")
    args = parser.parse_args()
    print(vendor(args.esnli, args.taxinli))


if __name__ == "__main__":
    main()
