#!/usr/bin/env python3
"""Build evals/er/products_{dev,test}.jsonl from the Amazon-Google product-matching benchmark.

Source: megagonlabs/ditto, data/er_magellan/Structured/Amazon-Google/test.txt
(commit 52985564a93fb11308439516d3e17a033d43ec8f), the DeepMatcher/Magellan "Structured"
Amazon-Google test split serialized by Ditto as
    COL title VAL ... COL manufacturer VAL ... COL price VAL ... \t <same for right> \t <0|1>

Usage:
    python3 make_products.py SRC_DIR [OUT_DIR]

SRC_DIR holds test.txt extracted from the repository, e.g.
    git --git-dir=<mirror> show 52985564a93fb11308439516d3e17a033d43ec8f:data/er_magellan/Structured/Amazon-Google/test.txt > SRC_DIR/test.txt
OUT_DIR defaults to the directory of this script. Standard library only; output is deterministic.
"""

import json
import os
import random
import re
import sys

SEED = 13
N_SAME = 60
N_NONMATCH = 60
CONTEXT_MAX = 240
DOMAIN = "products"

_FIELD = re.compile(r"COL (\S+) VAL")
_WORD = re.compile(r"[a-z0-9]+")


def parse_record(text):
    """'COL title VAL x COL manufacturer VAL y ...' -> [(attr, value), ...] in source order."""
    parts = _FIELD.split(text)
    # parts: [prefix, attr1, val1, attr2, val2, ...]
    return [(parts[i], parts[i + 1].strip()) for i in range(1, len(parts) - 1, 2)]


def to_entity(fields):
    d = dict(fields)
    name = d.get("title", "").strip()
    ctx = "; ".join(f"{k}: {v}" for k, v in fields if k != "title" and v)
    return {"name": name, "context": ctx[:CONTEXT_MAX]}


def title_words(fields):
    return {w for w in _WORD.findall(dict(fields).get("title", "").lower()) if len(w) >= 4}


def nonmatch_label(fa, fb):
    ma = dict(fa).get("manufacturer", "").strip().lower()
    mb = dict(fb).get("manufacturer", "").strip().lower()
    if ma and ma == mb:
        return "related"
    if len(title_words(fa) & title_words(fb)) >= 2:
        return "related"
    # the Google side rarely names a manufacturer; a title's first word is then its brand
    first = lambda f: (_WORD.findall(dict(f).get("title", "").lower()) or [""])[0]  # noqa: E731
    if first(fa) and first(fa) == first(fb):
        return "related"
    return "unrelated"


def load_pairs(path):
    pos, neg, seen = [], [], set()
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            line = line.rstrip("\n")
            if not line.strip():
                continue
            left, right, label = line.split("\t")
            key = (left.strip(), right.strip())
            if key in seen:  # the split contains a few verbatim duplicate lines
                continue
            seen.add(key)
            pair = (parse_record(left), parse_record(right))
            (pos if label.strip() == "1" else neg).append(pair)
    return pos, neg


def row(pair, label):
    fa, fb = pair
    return {"domain": DOMAIN, "label": label, "a": to_entity(fa), "b": to_entity(fb)}


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    src = argv[1]
    out = argv[2] if len(argv) > 2 else os.path.dirname(os.path.abspath(__file__))
    pos, neg = load_pairs(os.path.join(src, "test.txt"))

    rng = random.Random(SEED)
    same = [row(p, "same") for p in rng.sample(pos, N_SAME)]
    other = [row(p, nonmatch_label(*p)) for p in rng.sample(neg, N_NONMATCH)]
    rng.shuffle(same)
    rng.shuffle(other)
    hs, ho = N_SAME // 2, N_NONMATCH // 2
    dev = same[:hs] + other[:ho]
    test = same[hs:] + other[ho:]
    rng.shuffle(dev)
    rng.shuffle(test)

    # dev is the half rules may be tuned on, test the half that is only reported
    for fname, rows, split in (("products_dev.jsonl", dev, "tune"), ("products_test.jsonl", test, "report")):
        with open(os.path.join(out, fname), "w", encoding="utf-8", newline="\n") as fh:
            for r in rows:
                fh.write(json.dumps({**r, "split": split}, ensure_ascii=False) + "\n")
        counts = {}
        for r in rows:
            counts[r["label"]] = counts.get(r["label"], 0) + 1
        print(fname, len(rows), dict(sorted(counts.items())))


if __name__ == "__main__":
    main(sys.argv)
