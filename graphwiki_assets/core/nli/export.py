"""The trained cross-encoder as ONNX, float and int8, so scoring needs no PyTorch."""

from __future__ import annotations

import os
import tempfile
import warnings
from pathlib import Path
from typing import Any


def export_onnx(model: Any, tokenizer: Any, target: Path) -> None:
    """``model``: the CrossEncoder's AutoModelForSequenceClassification; logits out."""
    import torch

    features = tokenizer(["A probe premise."], ["A probe hypothesis."], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]

    class Positional(torch.nn.Module):
        """Called by keyword, so the tracer's positional inputs land on the right names."""

        def __init__(self, inner: Any):
            super().__init__()
            self.inner = inner

        def forward(self, *tensors: Any) -> Any:
            return self.inner(**dict(zip(names, tensors))).logits

    wrapped = Positional(model).eval()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, suffix=".onnx.tmp")
    os.close(fd)
    try:
        with torch.inference_mode(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # tracer notes on constants; train.py compares the outputs
            torch.onnx.export(
                wrapped,
                tuple(features[n] for n in names),
                tmp,
                input_names=names,
                output_names=["logits"],
                dynamic_axes={**{n: {0: "batch", 1: "tokens"} for n in names}, "logits": {0: "batch"}},
                opset_version=17,
                dynamo=False,
            )
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would keep the model from other users of a shared cache
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def quantize_int8(source: Path, target: Path) -> None:
    """Dynamic int8 weights (activations stay float): about a quarter of the size, and faster
    matrix products on a CPU without a vector-float advantage."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8, per_channel=True)
