"""Check Grounding: request JSON in, response JSON out (DESIGN §2 semantics, §5 pipeline).

claims -> groundingCheckRequired -> fact chunks -> BM25 candidates -> embed only what is needed (cached by
content hash) -> score (claim, unit) pairs -> claim score = max over units -> cite the best unit of each fact
at or above the threshold -> supportScore = mean claim score over the claims that need a check.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .claims import Claim, segment_claims
from .config import EngineConfig
from .evidence import BM25, Chunk, EmbeddingCache, FactInfo, Unit, chunk_facts, text_key
from .lexical import Analysis, Number, analyse
from .models import CrossEncoderScorer, Embedder, Encoded, SentenceTransformerEmbedder
from .schema import CheckRequest, Fact, RequestError, parse_request
from .verify import EvidenceView, FeatureVerifier, pair_features

ENGINE_VERSION = "0.1.0"


@dataclass
class _Prepared:
    """The model-free part of one request, computed before anything is embedded."""

    request: CheckRequest
    claims: list[Claim]
    claim_analyses: list[Analysis]
    chunks: list[Chunk]
    infos: list[FactInfo]
    candidates: dict[int, list[int]] = field(default_factory=dict)  # claim index -> chunk indices
    fact_stems: list[frozenset[str]] = field(default_factory=list)
    fact_numbers: list[list[Number]] = field(default_factory=list)


@dataclass
class ScoredUnit:
    unit: Unit
    score: float
    features: list[float] | None = None


@dataclass
class ClaimResult:
    claim: Claim
    score: float | None  # None when no check was required
    units: list[ScoredUnit]


class Engine:
    """The grounding checker. Models load lazily, once, and stay on the instance."""

    def __init__(self, config: EngineConfig | None = None) -> None:
        self.config = config or EngineConfig()
        self._lock = threading.Lock()
        self._embedder: Embedder | None = self.config.embedder
        self._features: FeatureVerifier | None = None
        self._cross: CrossEncoderScorer | None = None
        self._cache = EmbeddingCache(self.config.cache_size)

    # --- models ---------------------------------------------------------------------------------

    @property
    def model_id(self) -> str:
        if self.config.embedder is not None:
            emb = str(getattr(self.config.embedder, "name", "custom-embedder"))
        elif self.config.embedder_path:
            emb = Path(self.config.embedder_path).name
        else:
            emb = "all-MiniLM-L6-v2"
        if self.config.verifier == "cross-encoder":
            return f"{emb}+cross-encoder:{Path(self.config.cross_encoder_path or '').name}"
        return f"{emb}+{self._feature_verifier().version}"

    def _feature_verifier(self) -> FeatureVerifier:
        if self._features is None:
            self._features = FeatureVerifier(self.config.verifier_path)
        return self._features

    def _load(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = SentenceTransformerEmbedder(
                    self.config.embedder_path, self.config.num_threads, self.config.batch_size
                )
            if self.config.verifier == "cross-encoder" and self._cross is None:
                self._cross = CrossEncoderScorer(
                    self.config.cross_encoder_path or "",
                    self.config.cross_encoder_label_map,
                    self.config.num_threads,
                )
            if self.config.verifier == "features":
                self._feature_verifier()
            return self._embedder

    def warm_up(self) -> None:
        """Load every model now and run one tiny request (the first forward pass is slow)."""
        self._load()
        self.check(
            {
                "answerCandidate": "Warm-up sentence number 1.",
                "facts": [{"factText": "Warm-up sentence number 1."}],
            }
        )

    # --- public API -----------------------------------------------------------------------------

    def check(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """One Check Grounding request (parsed JSON) -> the response JSON. Raises RequestError."""
        return self.check_many([payload])[0]

    def check_many(
        self, payloads: Sequence[Mapping[str, Any]], *, return_errors: bool = False
    ) -> list[dict[str, Any]]:
        """Several requests with their embedding work shared. With return_errors, an invalid request
        yields its Google-style error body in its place instead of raising."""
        prepared: list[_Prepared | RequestError] = []
        for payload in payloads:
            try:
                req = parse_request(payload, self.config.default_citation_threshold)
            except RequestError as exc:
                if not return_errors:
                    raise
                prepared.append(exc)
                continue
            prepared.append(self._prepare(req, segment_claims(req.answer)))
        valid = [p for p in prepared if isinstance(p, _Prepared)]
        encodings = self._encode_all(valid)
        out: list[dict[str, Any]] = []
        for p in prepared:
            if isinstance(p, RequestError):
                out.append(p.to_json())
            else:
                out.append(_respond(p, self._score(p, encodings, keep_features=False)))
        return out

    def claim_features(
        self, claim_texts: Sequence[str], facts: Sequence[Fact]
    ) -> list[list[ScoredUnit]]:
        """For training and evaluation: each claim text (not re-segmented) against all its candidate
        units, with the feature vector and current score of each."""
        claims = [Claim(0, len(t.encode()), t, True) for t in claim_texts]
        req = CheckRequest("", list(facts), self.config.default_citation_threshold)
        prep = self._prepare(req, claims)
        results = self._score(prep, self._encode_all([prep]), keep_features=True)
        return [r.units for r in results]

    # --- pipeline -------------------------------------------------------------------------------

    def _prepare(self, req: CheckRequest, claims: list[Claim]) -> _Prepared:
        chunks, infos = chunk_facts(req.facts)
        analyses = [analyse(c.text) for c in claims]
        prep = _Prepared(req, claims, analyses, chunks, infos)
        stems: list[set[str]] = [set() for _ in req.facts]
        prep.fact_numbers = [[] for _ in req.facts]
        for c in chunks:
            stems[c.fact].update(c.analysis.stems)
            prep.fact_numbers[c.fact].extend(c.analysis.numbers)
        prep.fact_stems = [frozenset(s) for s in stems]
        required = [i for i, c in enumerate(claims) if c.check_required]
        if not chunks or not required:
            return prep
        if len(chunks) <= self.config.embed_all_limit:
            every = list(range(len(chunks)))
            prep.candidates = {i: every for i in required}
            return prep
        bm25 = BM25([c.analysis for c in chunks])
        k = max(2, min(self.config.retrieval_k, self.config.max_embedded_chunks // len(required)))
        for i in required:
            a = analyses[i]
            top = bm25.top(a.stems, k)
            prep.candidates[i] = sorted(top)
        return prep

    def _needed_texts(self, prep: _Prepared) -> Iterable[str]:
        facts_used: set[int] = set()
        for ci, chunk_ids in prep.candidates.items():
            yield prep.claims[ci].text
            for idx in chunk_ids:
                yield prep.chunks[idx].text
                facts_used.add(prep.chunks[idx].fact)
        for fi in facts_used:
            if prep.infos[fi].attribute_text:
                yield prep.infos[fi].attribute_text

    def _encode_all(self, preps: Sequence[_Prepared]) -> dict[str, Encoded]:
        found: dict[str, Encoded] = {}
        missing: dict[str, str] = {}
        for prep in preps:
            for text in self._needed_texts(prep):
                key = text_key(text)
                if key in found or key in missing:
                    continue
                hit = self._cache.get(key)
                if hit is not None:
                    found[key] = hit
                else:
                    missing[key] = text
        if missing:
            embedder = self._load()
            with self._lock:
                encoded = embedder.encode(list(missing.values()))
                for key, enc in zip(missing, encoded, strict=True):
                    found[key] = enc
                    self._cache.put(key, enc)
        elif self.config.verifier == "cross-encoder" and any(p.candidates for p in preps):
            self._load()
        return found

    def _units(self, prep: _Prepared, chunk_ids: list[int]) -> list[Unit]:
        units = [Unit(prep.chunks[i].fact, i, i) for i in chunk_ids]
        chosen = set(chunk_ids)
        for i in chunk_ids:
            j = i + 1
            if j in chosen and prep.chunks[j].fact == prep.chunks[i].fact:
                units.append(Unit(prep.chunks[i].fact, i, j))
        return units

    def _score(
        self, prep: _Prepared, encodings: Mapping[str, Encoded], *, keep_features: bool
    ) -> list[ClaimResult]:
        results: list[ClaimResult] = []
        for ci, claim in enumerate(prep.claims):
            if not claim.check_required:
                results.append(ClaimResult(claim, None, []))
                continue
            units = self._units(prep, prep.candidates.get(ci, []))
            if not units:
                results.append(ClaimResult(claim, 0.0, []))
                continue
            feats: list[list[float]] | None = None
            if self.config.verifier == "cross-encoder" and not keep_features:
                assert self._cross is not None
                pairs = [(_unit_text(prep, u, with_attributes=True), claim.text) for u in units]
                scores = self._cross.score(pairs)
            else:
                claim_enc = encodings[text_key(claim.text)]
                feats = [
                    pair_features(prep.claim_analyses[ci], claim_enc, _evidence(prep, u, encodings))
                    for u in units
                ]
                scores = self._feature_verifier().score(np.asarray(feats))
            scored = [
                ScoredUnit(u, float(s), feats[k] if keep_features and feats else None)
                for k, (u, s) in enumerate(zip(units, scores, strict=True))
            ]
            results.append(ClaimResult(claim, max(s.score for s in scored), scored))
        return results


def _evidence(prep: _Prepared, unit: Unit, encodings: Mapping[str, Encoded]) -> EvidenceView:
    chunks = prep.chunks[unit.first : unit.last + 1]
    info = prep.infos[unit.fact]
    attr_enc = encodings.get(text_key(info.attribute_text)) if info.attribute_text else None
    return EvidenceView(
        [c.analysis for c in chunks],
        [encodings[text_key(c.text)] for c in chunks],
        info.attribute_analysis,
        attr_enc,
        prep.fact_stems[unit.fact],
        prep.fact_numbers[unit.fact],
    )


def _unit_text(prep: _Prepared, unit: Unit, *, with_attributes: bool = False) -> str:
    first, last = prep.chunks[unit.first], prep.chunks[unit.last]
    text = prep.request.facts[unit.fact].text[first.start : last.end]
    info = prep.infos[unit.fact]
    if with_attributes and info.attribute_text:
        return f"{info.attribute_text}. {text}"
    return text


def _citation_rank(su: ScoredUnit) -> tuple[bool, float]:
    return (su.unit.first == su.unit.last, su.score)


def _respond(prep: _Prepared, results: list[ClaimResult]) -> dict[str, Any]:
    threshold = prep.request.citation_threshold
    cited_chunks: list[dict[str, Any]] = []
    chunk_index: dict[tuple[int, int, int], int] = {}
    cited_facts: list[int] = []
    claims_json: list[dict[str, Any]] = []
    for res in results:
        claim = res.claim
        entry: dict[str, Any] = {
            "startPos": claim.start_byte,
            "endPos": claim.end_byte,
            "claimText": claim.text,
        }
        if claim.check_required:
            # One unit per fact that reaches the threshold: a single sentence when one suffices (the
            # smallest supporting chunk), the adjacent pair only when the claim needs both sentences.
            best: dict[int, ScoredUnit] = {}
            for su in res.units:
                if su.score < threshold:
                    continue
                current = best.get(su.unit.fact)
                if current is None or _citation_rank(su) > _citation_rank(current):
                    best[su.unit.fact] = su
            indices: list[int] = []
            for su in sorted(best.values(), key=lambda s: (-s.score, s.unit.first)):
                key = (su.unit.fact, su.unit.first, su.unit.last)
                if key not in chunk_index:
                    chunk_index[key] = len(cited_chunks)
                    item: dict[str, Any] = {
                        "chunkText": _unit_text(prep, su.unit),
                        "source": str(su.unit.fact),
                    }
                    attrs = prep.infos[su.unit.fact].attributes
                    if attrs:
                        item["sourceMetadata"] = dict(attrs)
                    cited_chunks.append(item)
                    if su.unit.fact not in cited_facts:
                        cited_facts.append(su.unit.fact)
                indices.append(chunk_index[key])
            entry["citationIndices"] = indices
        entry["groundingCheckRequired"] = claim.check_required
        if prep.request.enable_claim_level_score and res.score is not None:
            entry["score"] = round(res.score, 4)
        claims_json.append(entry)
    scores = [r.score for r in results if r.score is not None]
    # Nothing that needs a check means nothing unsupported.
    support = float(np.mean(scores)) if scores else 1.0
    return {
        "supportScore": round(support, 4),
        "citedChunks": cited_chunks,
        "citedFacts": [{"chunkText": prep.request.facts[f].text} for f in cited_facts],
        "claims": claims_json,
    }


_ENGINES: dict[str, Engine] = {}
_ENGINES_LOCK = threading.Lock()


def get_engine(config: EngineConfig | None = None) -> Engine:
    """One Engine per distinct configuration per process (models are loaded once)."""
    config = config or EngineConfig()
    key = config.cache_key()
    with _ENGINES_LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = Engine(config)
        return engine
