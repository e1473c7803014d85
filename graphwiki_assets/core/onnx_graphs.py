"""Transformer models as ONNX graphs: exported once from PyTorch, then run without it.

The sentence encoder (``embeddings_onnx``) and the NLI cross-encoder (``nli``) are both a
Hugging Face model called by keyword whose answer is one named output; both are exported the
same way and run in the same kind of session.
"""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path
from typing import Any


def export_keyword_model(
    model: Any, features: Any, names: list[str], output: str, output_axes: dict[int, str], target: Path
) -> None:
    """``model`` traced on ``features`` (its inputs ``names``, by keyword) into ``target``,
    with ``output`` (an attribute of what it returns) as the graph's one output."""
    import torch

    class Positional(torch.nn.Module):
        """Called by keyword, so the tracer's positional inputs land on the right names."""

        def __init__(self, inner: Any):
            super().__init__()
            self.inner = inner

        def forward(self, *tensors: Any) -> Any:
            return getattr(self.inner(**dict(zip(names, tensors))), output)

    wrapped = Positional(model).eval()
    target.parent.mkdir(parents=True, exist_ok=True)
    # Written beside the target and renamed: two processes exporting at once never read half a file.
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".onnx.tmp")
    os.close(fd)
    try:
        with torch.inference_mode(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tracer's notes on constants: each caller checks the outputs
            torch.onnx.export(
                wrapped,
                tuple(features[n] for n in names),
                tmp,
                input_names=names,
                output_names=[output],
                dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in names}, output: output_axes},
                opset_version=17,
                dynamo=False,
            )
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would keep the graph from other users of a shared cache
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def cpu_session(path: Path, threads: int) -> Any:
    """An ONNX Runtime session on the CPU whose threads do not spin: spinning intra-op threads
    burn the CPU that Neo4j, the lease thread and the other askers of a busy server need, and
    stall each other when one is descheduled."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = max(1, threads)
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    options.log_severity_level = 3
    return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
