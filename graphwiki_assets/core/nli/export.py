"""The trained cross-encoder as ONNX, float and int8, so scoring needs no PyTorch."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from graphwiki_assets.core.onnx_graphs import export_keyword_model


def export_onnx(model: Any, tokenizer: Any, target: Path) -> None:
    """``model``: the CrossEncoder's AutoModelForSequenceClassification; logits out."""
    features = tokenizer(["A probe premise."], ["A probe hypothesis."], return_tensors="pt")
    names = ["input_ids", "attention_mask", "token_type_ids"]
    export_keyword_model(model, features, names, "logits", {0: "batch"}, target)


def quantize_int8(source: Path, target: Path) -> None:
    """Dynamic int8 weights (activations stay float): about a quarter of the size, and faster
    matrix products on a CPU without a vector-float advantage."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8, per_channel=True)
