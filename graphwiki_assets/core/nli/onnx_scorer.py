"""The NLI cross-encoder run by ONNX Runtime: no PyTorch in the processes that only score.

Pairs are read in runs of similar lengths, so a run pads to its own longest pair rather than
to the longest of the call (SNLI-like claims are 20-60 word pieces; a stray long one would
otherwise make every row of its batch that long).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from graphwiki_assets.core.nli.model import ONNX_FILE, TOKENIZER_FILE
from graphwiki_assets.core.onnx_graphs import cpu_session

# Word pieces a pair is cut to: claims are sentences; the model was trained at this length.
MAX_PAIR_TOKENS = 128


class OnnxNli:
    def __init__(self, folder: Path, threads: int = 1, onnx_file: str = ONNX_FILE):
        from tokenizers import Tokenizer

        self._session = cpu_session(folder / onnx_file, threads)
        self._inputs = [i.name for i in self._session.get_inputs()]
        tokenizer = Tokenizer.from_file(str(folder / TOKENIZER_FILE))
        tokenizer.enable_truncation(max_length=MAX_PAIR_TOKENS, strategy="longest_first")
        tokenizer.no_padding()  # each run is padded to its own longest pair below
        self._tokenizer = tokenizer

    def logits(self, pairs: list[tuple[str, str]], batch_size: int = 32) -> np.ndarray:
        """One row of logits (entailment, neutral, contradiction) per pair, in input order."""
        out = np.zeros((len(pairs), 3), dtype=np.float32)
        if not pairs:
            return out
        encodings = self._tokenizer.encode_batch(list(pairs))
        order = sorted(range(len(pairs)), key=lambda i: len(encodings[i].ids))
        for start in range(0, len(order), max(1, batch_size)):
            run = order[start : start + batch_size]
            out[run] = self._run([encodings[i] for i in run])
        return out

    def _run(self, encodings: list) -> np.ndarray:
        width = max(len(e.ids) for e in encodings)
        feed = {
            "input_ids": np.zeros((len(encodings), width), dtype=np.int64),
            "attention_mask": np.zeros((len(encodings), width), dtype=np.int64),
            "token_type_ids": np.zeros((len(encodings), width), dtype=np.int64),
        }
        for row, e in enumerate(encodings):
            n = len(e.ids)
            feed["input_ids"][row, :n] = e.ids
            feed["attention_mask"][row, :n] = 1
            feed["token_type_ids"][row, :n] = e.type_ids
        (logits,) = self._session.run(["logits"], {k: v for k, v in feed.items() if k in self._inputs})
        return logits
