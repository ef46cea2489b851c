"""Fixtures for the grounding engine tests: a fast fake embedder, and the real model (marked `model`)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
import pytest

from groundview.grounding import Engine, EngineConfig, get_engine
from groundview.grounding.lexical import STOPWORDS, tokenize
from groundview.grounding.models import Encoded


def _word_vector(word: str, dim: int) -> np.ndarray:
    seed = int.from_bytes(hashlib.sha256(word.encode()).digest()[:8], "little")
    vec = np.random.default_rng(seed).standard_normal(dim).astype(np.float32)
    return vec / np.linalg.norm(vec)


class FakeEmbedder:
    """Deterministic bag-of-words vectors: identical words match exactly, different words barely."""

    name = "fake-embedder"

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.calls: list[int] = []

    def encode(self, texts: Sequence[str]) -> list[Encoded]:
        self.calls.append(len(texts))
        out = []
        for text in texts:
            words = [w.lower() for w in tokenize(text)] or ["<empty>"]
            tokens = np.stack([_word_vector(w, self.dim) for w in words])
            mean = tokens.mean(axis=0)
            vec = mean / max(float(np.linalg.norm(mean)), 1e-9)
            content = np.array(
                [
                    w.isalpha() and w not in STOPWORDS and (len(w) > 1 or not w.isascii())
                    for w in words
                ]
            )
            out.append(Encoded(vec.astype(np.float32), tokens, content))
        return out


@pytest.fixture
def fake_embedder() -> FakeEmbedder:
    return FakeEmbedder()


@pytest.fixture
def engine(fake_embedder: FakeEmbedder) -> Engine:
    """An engine with the fake embedder and no cross-encoder: fast, for logic, shape and validation
    tests."""
    return Engine(EngineConfig(embedder=fake_embedder, verifier="features"))


@pytest.fixture(scope="session")
def real_engine() -> Engine:
    """The packaged all-MiniLM-L6-v2, the shipped window cross-encoder and head, loaded once."""
    engine = get_engine(EngineConfig())
    engine.warm_up()
    return engine
