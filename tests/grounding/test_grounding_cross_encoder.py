"""The CrossEncoder verifier plug-in, proven with a tiny random model built offline in a temp folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundview.grounding import Engine, EngineConfig, ModelLoadError
from groundview.grounding.models import packaged_minilm_path


def build_tiny_cross_encoder(folder: Path, id2label: dict[int, str]) -> Path:
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizerFast

    tokenizer = BertTokenizerFast(vocab_file=str(packaged_minilm_path() / "vocab.txt"))
    config = BertConfig(
        vocab_size=tokenizer.vocab_size,
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        max_position_embeddings=128,
        num_labels=len(id2label),
        id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
    )
    BertForSequenceClassification(config).save_pretrained(folder)
    tokenizer.save_pretrained(folder)
    return folder


@pytest.fixture(scope="module")
def nli_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_cross_encoder(
        tmp_path_factory.mktemp("tiny-nli"), {0: "contradiction", 1: "entailment", 2: "neutral"}
    )


def test_cross_encoder_scores_claims(nli_folder: Path, fake_embedder) -> None:
    # Given an engine whose verifier is the tiny NLI cross-encoder
    engine = Engine(
        EngineConfig(
            verifier="cross-encoder", cross_encoder_path=str(nli_folder), embedder=fake_embedder
        )
    )
    # When it checks an answer
    response = engine.check(
        {
            "answerCandidate": "Here is what I found. The tower is 330 metres tall.",
            "facts": [{"factText": "The tower is 330 metres tall. It is in Paris."}],
            "groundingSpec": {"enableClaimLevelScore": True, "citationThreshold": 0.0},
        }
    )
    # Then claims get probabilities from the model and citations follow the threshold
    claim = response["claims"][1]
    assert 0.0 <= claim["score"] <= 1.0
    assert claim["citationIndices"] == [0]
    assert engine.model_id == f"fake-embedder+head-v3-features+cross-encoder:{nli_folder.name}"


def test_label_map_for_anonymous_labels(tmp_path: Path, fake_embedder) -> None:
    folder = build_tiny_cross_encoder(tmp_path / "anon", {0: "LABEL_0", 1: "LABEL_1"})
    with pytest.raises(ModelLoadError, match="CROSS_ENCODER_LABEL_MAP"):
        Engine(
            EngineConfig(
                verifier="cross-encoder", cross_encoder_path=str(folder), embedder=fake_embedder
            )
        ).warm_up()
    engine = Engine(
        EngineConfig(
            verifier="cross-encoder",
            cross_encoder_path=str(folder),
            cross_encoder_label_map={"1": "supported", "0": "unsupported"},
            embedder=fake_embedder,
        )
    )
    response = engine.check(
        {
            "answerCandidate": "The tower is tall.",
            "facts": [{"factText": "The tower is tall."}],
            "groundingSpec": {"enableClaimLevelScore": True},
        }
    )
    assert 0.0 <= response["claims"][0]["score"] <= 1.0


def test_single_logit_model(tmp_path: Path, fake_embedder) -> None:
    folder = build_tiny_cross_encoder(tmp_path / "one", {0: "LABEL_0"})
    engine = Engine(
        EngineConfig(
            verifier="cross-encoder", cross_encoder_path=str(folder), embedder=fake_embedder
        )
    )
    response = engine.check(
        {"answerCandidate": "The tower is tall.", "facts": [{"factText": "The tower is tall."}]}
    )
    assert "citationIndices" in response["claims"][0]


def test_trained_layers_ship_in_fp16_and_load_over_the_packaged_base(tmp_path: Path) -> None:
    import torch
    from safetensors.torch import load_file

    from groundview.grounding.crosstrain import load_base, predict, save_shipped
    from groundview.grounding.pairs import Pair
    from groundview.grounding.windows import WindowVerifier

    tokenizer, model = load_base(1)
    with torch.no_grad():
        model.classifier.bias.fill_(2.5)
        model.bert.encoder.layer[5].output.dense.bias.add_(0.05)
    save_shipped(model, tmp_path, {"version": "test-ce", "max_length": 64}, frozen_layers=4)

    saved = load_file(str(tmp_path / "top_layers.safetensors"))
    layers = {k.split(".")[3] for k in saved if k.startswith("bert.encoder.layer.")}
    assert layers == {"4", "5"}
    assert not any(k.startswith("bert.embeddings.") for k in saved)
    assert {v.dtype for v in saved.values()} == {torch.float16}

    verifier = WindowVerifier(tmp_path, num_threads=1, precision="float32")
    assert verifier.version == "test-ce"
    pair = ("Marie Curie was born in Warsaw.", "Curie was born in Warsaw in 1867. She moved.")
    trained = predict(model, tokenizer, [Pair(*pair, 1, "test")])
    base = predict(load_base(1)[1], tokenizer, [Pair(*pair, 1, "test")])
    got = verifier.logits([pair])
    # What ships is what was trained (to fp16 rounding), not the packaged base's fresh head.
    assert abs(float(got[0]) - float(trained[0])) < 0.02
    assert abs(float(got[0]) - float(base[0])) > 1.0
