"""Check Grounding: request JSON in, response JSON out (semantics: grounding/README.md).

claims (byte spans) -> groundingCheckRequired -> claims read in context (a leading "It" takes the previous
subject, for scoring only) -> fact sentences -> BM25 candidates per claim -> embed only the best few
(cached by content hash) -> coverage of every part of the claim over the candidates' union
(support.py) -> the window cross-encoder (windows.py) -> calibrated head (head.py) -> cite the smallest
set of candidates that backs every part, if the claim reaches the threshold -> supportScore = mean claim
probability over the claims that need a check.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .analysis import Analysis, analyse
from .candidates import Candidate
from .claims import Claim, segment_claims, strip_markers
from .config import EngineConfig
from .context import needs_antecedent, resolve
from .evidence import BM25, Chunk, EmbeddingCache, FactInfo, chunk_facts, text_key
from .head import Head
from .models import CrossEncoderScorer, Embedder, Encoded, SentenceTransformerEmbedder
from .schema import CheckRequest, Fact, RequestError, parse_request
from .support import capped, claim_features, cover
from .windows import WindowVerifier, verifier_version, windows

ENGINE_VERSION = "0.7.45"


@dataclass
class _Prepared:
    """The model-free part of one request, computed before anything is embedded."""

    request: CheckRequest
    claims: list[Claim]
    scoring_texts: list[str]  # claim text read in context
    analyses: list[Analysis]  # of the scoring texts
    chunks: list[Chunk]
    infos: list[FactInfo]
    ranked: dict[int, list[int]] = field(default_factory=dict)  # claim -> chunk ids, best first
    embedded: dict[int, int] = field(default_factory=dict)  # claim -> how many of ranked to embed


@dataclass
class ClaimResult:
    claim: Claim
    score: float | None  # None when no check was required
    cited: list[list[int]]  # groups of adjacent chunk ids (same fact) that back the claim
    features: list[float] | None = None
    candidates: list[int] = field(default_factory=list)


class Engine:
    """The grounding checker. Models load lazily, once, and stay on the instance."""

    def __init__(self, config: EngineConfig | None = None) -> None:
        self.config = config or EngineConfig()
        self._lock = threading.Lock()
        self._embedder: Embedder | None = self.config.embedder
        self._head: Head | None = None
        self._plain_head: Head | None = None
        self._windows: WindowVerifier | None = None
        self._cross: CrossEncoderScorer | None = None
        self._cache = EmbeddingCache(self.config.cache_size)

    # --- models ---------------------------------------------------------------------------------

    @property
    def stacked(self) -> bool:
        """Only our own window cross-encoder has a head fitted over its scores."""
        return self.config.verifier == "stacked"

    @property
    def model_id(self) -> str:
        if self.config.embedder is not None:
            emb = str(getattr(self.config.embedder, "name", "custom-embedder"))
        elif self.config.embedder_path:
            emb = Path(self.config.embedder_path).name
        else:
            emb = "all-MiniLM-L6-v2"
        head = self._get_head().version
        if self.config.verifier == "cross-encoder":
            name = Path(self.config.cross_encoder_path or "").name
            return f"{emb}+{head}+cross-encoder:{name}"
        if self.config.verifier == "stacked":
            return f"{emb}+{head}+{verifier_version(self.config.verifier_path)}"
        return f"{emb}+{head}"

    def _get_head(self) -> Head:
        if self._head is None:
            self._head = Head(self.config.head_path, stacked=self.stacked)
        return self._head

    def _features_head(self) -> Head:
        """The head without the cross-encoder, for claims past `max_cross_pairs`."""
        if not self.stacked:
            return self._get_head()
        if self._plain_head is None:
            self._plain_head = Head(self.config.head_path, stacked=False)
        return self._plain_head

    def _load_windows(self) -> WindowVerifier:
        with self._lock:
            if self._windows is None:
                self._windows = WindowVerifier(
                    self.config.verifier_path,
                    self.config.num_threads,
                    precision=self.config.embed_precision,
                )
            return self._windows

    def _load(self) -> Embedder:
        with self._lock:
            if self._embedder is None:
                self._embedder = _shared_embedder(self.config)
            if self.config.verifier == "cross-encoder" and self._cross is None:
                self._cross = CrossEncoderScorer(
                    self.config.cross_encoder_path or "",
                    self.config.cross_encoder_label_map,
                    self.config.num_threads,
                )
            embedder = self._embedder
        self._get_head()
        if self.config.verifier == "stacked":
            self._load_windows()
        return embedder

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
                req = parse_request(
                    payload,
                    self.config.default_citation_threshold,
                    self.config.max_facts,
                    self.config.max_fact_chars,
                )
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
                out.append(_respond(p, self._score(p, encodings)))
        return out

    def analyse_claims(
        self, claim_texts: Sequence[str], facts: Sequence[Fact], *, in_context: bool = False
    ) -> list[ClaimResult]:
        """For training and evaluation: each claim text (not re-segmented, every one checked) against
        the facts, with its feature vector (coverage, then the cross-encoder's when stacked)."""
        claims = [Claim(0, len(t.encode()), t, True) for t in claim_texts]
        req = CheckRequest("", list(facts), self.config.default_citation_threshold)
        prep = self._prepare(req, claims, in_context=in_context)
        return self._score(prep, self._encode_all([prep]))

    def analyse_answer(self, answer: str, facts: Sequence[Fact]) -> list[ClaimResult]:
        """For training and evaluation: the answer segmented and read as `check` reads it; each claim
        that needs a check and has candidates carries its feature vector."""
        req = CheckRequest(answer, list(facts), self.config.default_citation_threshold)
        prep = self._prepare(req, segment_claims(answer))
        return self._score(prep, self._encode_all([prep]))

    def rule_inputs(
        self, facts: Sequence[Fact], *, claims: Sequence[str] = (), answer: str | None = None
    ) -> list[tuple[int, str, Analysis, list[Candidate]]]:
        """For measuring the rules (`bench/rules.py`): each claim that needs a check, by its index
        among the claims, as it is scored (the text read in context, its analysis) with its BM25
        candidates, unembedded. `claims` are read as `analyse_claims` reads them, `answer` as
        `check` segments it."""
        if answer is not None:
            req = CheckRequest(answer, list(facts), self.config.default_citation_threshold)
            prep = self._prepare(req, segment_claims(answer))
        else:
            req = CheckRequest("", list(facts), self.config.default_citation_threshold)
            listed = [Claim(0, len(t.encode()), t, True) for t in claims]
            prep = self._prepare(req, listed, in_context=False)
        return [
            (ci, prep.scoring_texts[ci], prep.analyses[ci], self._candidates(prep, ci, {}))
            for ci in sorted(prep.ranked)
        ]

    # --- pipeline -------------------------------------------------------------------------------

    def _prepare(
        self, req: CheckRequest, claims: list[Claim], *, in_context: bool = True
    ) -> _Prepared:
        chunks, infos = chunk_facts(req.facts)
        texts = [c.text for c in claims]
        texts = resolve(texts) if in_context else [strip_markers(t) or t for t in texts]
        prep = _Prepared(req, claims, texts, [analyse(t) for t in texts], chunks, infos)
        required = [i for i, c in enumerate(claims) if c.check_required]
        if not chunks or not required:
            return prep
        bm25 = BM25([c.stems for c in chunks])
        embed_k = max(1, min(self.config.embed_k, self.config.max_embedded_chunks // len(required)))
        for i in required:
            prep.ranked[i] = bm25.candidates(prep.analyses[i].stems, self.config.retrieval_k)
            prep.embedded[i] = embed_k
        return prep

    def _needed_texts(self, prep: _Prepared) -> Iterable[str]:
        for ci, ranked in prep.ranked.items():
            yield prep.scoring_texts[ci]
            for idx in ranked[: prep.embedded[ci]]:
                yield prep.chunks[idx].text

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
        elif any(p.ranked for p in preps):
            self._load()
        return found

    def _candidates(
        self, prep: _Prepared, ci: int, encodings: Mapping[str, Encoded]
    ) -> list[Candidate]:
        out: list[Candidate] = []
        for rank, idx in enumerate(prep.ranked.get(ci, [])):
            chunk = prep.chunks[idx]
            info = prep.infos[chunk.fact]
            enc = encodings.get(text_key(chunk.text)) if rank < prep.embedded[ci] else None
            attrs = info.attribute_analysis if info.attribute_text else None
            earlier = [
                prep.chunks[j]
                for j in (idx - 1, idx - 2)
                if j >= 0 and prep.chunks[j].fact == chunk.fact
            ]
            out.append(
                Candidate(idx, chunk.analysis, attrs, enc, earlier, chunk.items, chunk.section)
            )
        return out

    def _window_text(self, prep: _Prepared, ids: Sequence[int]) -> str:
        facts_seen: list[int] = []
        parts: list[str] = []
        for idx in ids:
            fact = prep.chunks[idx].fact
            if fact not in facts_seen and prep.infos[fact].attribute_text:
                parts.append(prep.infos[fact].attribute_text + ".")
            facts_seen.append(fact)
            parts.append(prep.chunks[idx].text)
        return " ".join(parts)

    def _cross_features(self, prep: _Prepared, todo: list[int]) -> dict[int, list[float]]:
        """[best window logit, top window logit] per claim, all claims' windows in one batch. Within
        `max_cross_pairs`: three windows per claim, else one (the top five), else none for the rest."""
        cap = self.config.max_cross_pairs
        per_claim = 3 if 3 * len(todo) <= cap else 1
        pairs: list[tuple[str, str]] = []
        owners: list[int] = []
        for ci in todo[: max(0, cap // per_claim)]:
            ranked = prep.ranked[ci][: prep.embedded[ci]]
            order = [(prep.chunks[i].fact, prep.chunks[i].position) for i in ranked]
            spans = windows(list(range(len(ranked))), order)
            for window in spans if per_claim == 3 else spans[-1:]:
                text = self._window_text(prep, [ranked[k] for k in window])
                pairs.append((prep.scoring_texts[ci], text))
                owners.append(ci)
        if not pairs:
            return {}
        if self.config.verifier == "cross-encoder":
            assert self._cross is not None
            probs = np.clip(self._cross.score([(w, c) for c, w in pairs]), 1e-4, 1 - 1e-4)
            logits = np.log(probs / (1 - probs))
        else:
            logits = self._load_windows().logits(pairs)
        out: dict[int, list[float]] = {}
        for ci, value in zip(owners, logits, strict=True):
            if ci not in out:
                out[ci] = [float(value), float(value)]
            else:
                out[ci][0] = max(out[ci][0], float(value))
        return out

    def _score(self, prep: _Prepared, encodings: Mapping[str, Encoded]) -> list[ClaimResult]:
        todo = [ci for ci in prep.ranked if prep.ranked[ci]]
        use_cross = self.config.verifier != "features"
        cross = self._cross_features(prep, todo) if use_cross and todo else {}
        results: list[ClaimResult] = []
        facts = [c.fact for c in prep.chunks]
        for ci, claim in enumerate(prep.claims):
            if not claim.check_required:
                results.append(ClaimResult(claim, None, []))
                continue
            cands = self._candidates(prep, ci, encodings)
            if not cands:
                results.append(ClaimResult(claim, 0.0, []))
                continue
            claim_enc = encodings.get(text_key(prep.scoring_texts[ci]))
            feats = claim_features(prep.analyses[ci], prep.scoring_texts[ci], claim_enc, cands)
            if ci in cross and self.stacked:
                feats = feats + cross[ci]
                score = float(self._get_head().score(feats)[0])
            else:
                score = float(self._features_head().score(feats)[0])
                if ci in cross:
                    # A user's NLI / MiniCheck-style model has no head fitted over it: its best
                    # window and the coverage head count equally, in log-odds.
                    p = min(max(score, 1e-4), 1 - 1e-4)
                    z = (math.log(p / (1 - p)) + cross[ci][0]) / 2
                    score = 1.0 / (1.0 + math.exp(-z))
            score = capped(score, feats)
            chosen = [
                cands[k].chunk
                for k in cover(
                    prep.analyses[ci], cands, facts, antecedent=_antecedents(prep, cands)
                )
            ]
            chosen = _with_antecedents(prep, chosen)
            results.append(ClaimResult(claim, score, _groups(prep, chosen), feats, prep.ranked[ci]))
        return results


def _antecedents(prep: _Prepared, cands: Sequence[Candidate]) -> dict[int, int]:
    """For each candidate that opens with a pronoun, the candidate that is the sentence before it in
    its fact, where there is one: `_with_antecedents` cites the two together."""
    position = {c.chunk: k for k, c in enumerate(cands)}
    out: dict[int, int] = {}
    for k, c in enumerate(cands):
        before = position.get(c.chunk - 1)
        if (
            before is not None
            and prep.chunks[c.chunk - 1].fact == prep.chunks[c.chunk].fact
            and needs_antecedent(prep.chunks[c.chunk].text)
        ):
            out[k] = before
    return out


def _with_antecedents(prep: _Prepared, chunk_ids: Sequence[int]) -> list[int]:
    """The chunks, sorted, each one that opens with a pronoun joined by the sentence before it in its
    fact: "He enlisted at Woodstock" backs nothing a reviewer can see until it says who "he" is."""
    out = set(chunk_ids)
    for idx in chunk_ids:
        if (
            idx > 0
            and prep.chunks[idx - 1].fact == prep.chunks[idx].fact
            and needs_antecedent(prep.chunks[idx].text)
        ):
            out.add(idx - 1)
    return sorted(out)


def _groups(prep: _Prepared, chunk_ids: Sequence[int]) -> list[list[int]]:
    """Adjacent sentences of one fact are cited as one chunk (a window), others separately."""
    groups: list[list[int]] = []
    for idx in chunk_ids:
        if (
            groups
            and groups[-1][-1] == idx - 1
            and prep.chunks[idx - 1].fact == prep.chunks[idx].fact
        ):
            groups[-1].append(idx)
        else:
            groups.append([idx])
    return groups


def _chunk_text(prep: _Prepared, group: Sequence[int]) -> str:
    first, last = prep.chunks[group[0]], prep.chunks[group[-1]]
    return prep.request.facts[first.fact].text[first.start : last.end]


def _respond(prep: _Prepared, results: list[ClaimResult]) -> dict[str, Any]:
    threshold = prep.request.citation_threshold
    cited_chunks: list[dict[str, Any]] = []
    chunk_index: dict[tuple[int, ...], int] = {}
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
            # Wholly supported or not at all: a claim below the threshold cites nothing.
            groups = res.cited if res.score is not None and res.score >= threshold else []
            indices: list[int] = []
            for group in groups:
                key = tuple(group)
                fact = prep.chunks[group[0]].fact
                if key not in chunk_index:
                    chunk_index[key] = len(cited_chunks)
                    item: dict[str, Any] = {
                        "chunkText": _chunk_text(prep, group),
                        "source": str(fact),
                    }
                    attrs = prep.infos[fact].attributes
                    if attrs:
                        item["sourceMetadata"] = dict(attrs)
                    cited_chunks.append(item)
                    if fact not in cited_facts:
                        cited_facts.append(fact)
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
_EMBEDDERS: dict[tuple[str | None, int, int, str], Embedder] = {}


def _shared_embedder(config: EngineConfig) -> Embedder:
    """One loaded embedder per model per process: engines that differ only in their head (a new
    checker version made the default) must not each hold the model in memory."""
    key = (config.embedder_path, config.num_threads, config.batch_size, config.embed_precision)
    with _ENGINES_LOCK:
        embedder = _EMBEDDERS.get(key)
        if embedder is None:
            embedder = _EMBEDDERS[key] = SentenceTransformerEmbedder(*key)
        return embedder


def get_engine(config: EngineConfig | None = None) -> Engine:
    """One Engine per distinct configuration per process (models are loaded once)."""
    config = config or EngineConfig()
    key = config.cache_key()
    with _ENGINES_LOCK:
        engine = _ENGINES.get(key)
        if engine is None:
            engine = _ENGINES[key] = Engine(config)
        return engine
