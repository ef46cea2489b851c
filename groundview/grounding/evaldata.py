"""Human-labelled evaluation sets as Check Grounding inputs: WiCE-dev and SummEdits (sales).

WiCE-dev: each claim against the sentences of the page(s) it cites. The page's "(meta data) TITLE:" line
becomes the `title` attribute; the other sentences are packed, one per line and in order, into facts of
at most 10,000 characters (the request limit). `sentence_spans` maps each fact's character ranges back to
WiCE's sentence indices, so cited chunks can be scored against the gold supporting-sentence sets.
Labels: supported = 1; partially supported and not supported = 0 (`grade` keeps all three).

WiCE-dev oracle chunks (upstream's "oracle retrieval" variant): each claim, about three times, against a
short chunk of its page that holds one annotated support set among randomly drawn other sentences; no
title line. Same labels and the same claim folds as above.

SummEdits: each summary against its document (one fact); label 1 = consistent.

FEVER-Symmetric and FEVER-NLI (DocNLI's binary FEVER): FEVER claims, each against its evidence as
released, the text de-tokenised (`clean_fever`). FEVER-Symmetric pairs a claim with one evidence
sentence (no page title), and for each such pair writes a second claim and sentence that flip the label,
so words alone cannot tell them apart. FEVER-NLI gives retrieved sentences, distractors among them;
"not_entailment" holds refuted claims and claims the sentences say nothing of. SUPPORTS / entailment = 1.
The head is fitted on neither (the optional cross-encoder trains on both: pairs.py).

FM2 (Fool Me Twice) test: each claim against the 2-12 sentences of its Wikipedia page that the game
retrieved for it (the author's gold sentences among them), one fact per sentence, the page's name as the
`title` attribute. SUPPORTS = 1; REFUTES = 0, and a refuted claim is contradicted, not merely unstated:
players were rewarded for claims that others misjudged. No head is fitted on FM2.

THE FactCheck-GPT / BEGIN SPLIT (fixed, by answer, never changes between runs):
  * FactCheck-GPT (`factcheck-GPT-benchmark.jsonl`, 94 ChatGPT answers): an answer is TEST when
    int(sha256(prompt as UTF-8).hexdigest(), 16) % 10 < 3, otherwise TRAIN (33 test / 61 train answers).
    All sentences, claims and evidence of one answer fall on the same side. The cross-encoder's training
    pairs (pairs.py) read only TRAIN; bench/evaluate.py reports only TEST.
  * BEGIN: the dataset's own split. `wow/begin_test_wow.tsv` is TEST; nothing trains on the dev files.
"""

from __future__ import annotations

import csv
import hashlib
import json
import re
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .schema import MAX_FACT_CHARS, Fact

TITLE = "(meta data) TITLE:"
SUPPORT = "completely-support"


def is_test_answer(prompt: str) -> bool:
    """The fixed FactCheck-GPT split rule (see the module docstring)."""
    return int(hashlib.sha256(prompt.encode("utf-8")).hexdigest(), 16) % 10 < 3


@dataclass
class FcClaim:
    text: str
    passages: list[str]
    urls: list[str]
    stances: list[str]

    @property
    def supported(self) -> bool:
        return SUPPORT in self.stances


@dataclass
class FcSentence:
    text: str
    checkworthy: bool
    claims: list[FcClaim] = field(default_factory=list)


@dataclass
class FcAnswer:
    prompt: str
    response: str
    sentences: list[FcSentence]


def load_factcheck(data: Path) -> list[FcAnswer]:
    answers: list[FcAnswer] = []
    path = data / "factcheck-gpt" / "factcheck-GPT-benchmark.jsonl"
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            sentences: list[FcSentence] = []
            for s in row["sentences"].values():
                sent = FcSentence(s["text"], s["sentence_checkworthiness"] == "yes")
                for i, claim in enumerate(s["claims"]):
                    stances = (
                        s["stance_claim_autoEvid"][i] if i < len(s["stance_claim_autoEvid"]) else []
                    )
                    passages = s["auto_evidence"][i] if i < len(s["auto_evidence"]) else []
                    urls = s["auto_evidence_url"][i] if i < len(s["auto_evidence_url"]) else []
                    if stances and len(stances) == len(passages):
                        sent.claims.append(
                            FcClaim(claim, list(passages), list(urls), list(stances))
                        )
                sentences.append(sent)
            answers.append(FcAnswer(row["prompt"], row["response"], sentences))
    return answers


@dataclass
class BeginRow:
    knowledge: str
    response: str
    label: str  # "Fully attributable" | "Not fully attributable" | "Generic"


def load_begin(data: Path, *, test: bool) -> list[BeginRow]:
    root = data / "begin"
    files = (
        [root / "wow" / "begin_test_wow.tsv"]
        if test
        else [
            root / "cmu-dog" / "begin_dev_cmu.tsv",
            root / "topicalchat" / "begin_dev_tc.tsv",
            root / "wow" / "begin_dev_wow.tsv",
        ]
    )
    rows: list[BeginRow] = []
    for f in files:
        with f.open(encoding="utf-8", newline="") as fh:
            for rec in csv.DictReader(fh, delimiter="\t", quoting=csv.QUOTE_NONE):
                rows.append(BeginRow(rec["knowledge"], rec["response"], rec["begin_label"].strip()))
    return rows


def passage_facts(claim: FcClaim) -> list[Fact]:
    return [
        Fact(p, {"uri": u} if u else {})
        for p, u in zip(claim.passages, claim.urls + [""] * len(claim.passages), strict=False)
    ]


def iter_test_sentences(data: Path) -> Iterator[tuple[FcAnswer, FcSentence]]:
    for answer in load_factcheck(data):
        if is_test_answer(answer.prompt):
            for sentence in answer.sentences:
                yield answer, sentence


def sentence_facts(sentence: FcSentence) -> tuple[list[Fact], list[bool]]:
    """Distinct passages of all the sentence's claims, and whether each wholly supports some claim."""
    facts: list[Fact] = []
    gold: list[bool] = []
    seen: dict[str, int] = {}
    for claim in sentence.claims:
        for fact, stance in zip(passage_facts(claim), claim.stances, strict=True):
            if fact.text not in seen:
                seen[fact.text] = len(facts)
                facts.append(fact)
                gold.append(False)
            gold[seen[fact.text]] = gold[seen[fact.text]] or stance == SUPPORT
    return facts, gold


@dataclass
class WiceClaim:
    claim: str
    grade: str  # supported | partially_supported | not_supported
    facts: list[Fact]
    spans: list[list[tuple[int, int, int]]]  # per fact: (start, end, WiCE sentence index)
    gold_sets: list[set[int]]

    @property
    def label(self) -> int:
        return int(self.grade == "supported")

    def fold(self, k: int) -> int:
        """The claim's fold for k-fold cross-validation: fixed, by a hash of the claim text."""
        return zlib.crc32(self.claim.encode("utf-8")) % k

    def sentences_of(self, fact: int, start: int, end: int) -> set[int]:
        return {i for s, e, i in self.spans[fact] if s < end and start < e}


def pack_evidence(evidence: Sequence[str]) -> tuple[list[Fact], list[list[tuple[int, int, int]]]]:
    """A WiCE page's sentences packed into facts of at most 10,000 characters, a sentence per line,
    the page's title as every fact's attribute; with each fact's (start, end, sentence index) spans."""
    title = ""
    facts: list[Fact] = []
    spans: list[list[tuple[int, int, int]]] = []
    text, span = "", []  # type: tuple[str, list[tuple[int, int, int]]]
    for i, sentence in enumerate(evidence):
        sentence = " ".join(sentence.split())[: MAX_FACT_CHARS - 1]
        if sentence.startswith(TITLE) and not title:
            title = sentence[len(TITLE) :].strip()
            continue
        if not sentence:
            continue
        if text and len(text) + 1 + len(sentence) > MAX_FACT_CHARS:
            facts.append(Fact(text))
            spans.append(span)
            text, span = "", []
        start = len(text) + (1 if text else 0)
        text = f"{text}\n{sentence}" if text else sentence
        span.append((start, start + len(sentence), i))
    if text:
        facts.append(Fact(text))
        spans.append(span)
    if title:
        facts = [Fact(f.text, {"title": title}) for f in facts]
    return facts, spans


def load_wice(data: Path) -> list[WiceClaim]:
    out: list[WiceClaim] = []
    path = data / "wice-dev" / "data" / "entailment_retrieval" / "claim" / "dev.jsonl"
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            facts, spans = pack_evidence(row["evidence"])
            gold = [set(s) for s in row["supporting_sentences"]]
            out.append(WiceClaim(row["claim"], row["label"], facts, spans, gold))
    return out


@dataclass
class OracleChunk:
    claim: str
    grade: str
    sentences: list[str]  # the chunk's sentences in page order, empty ones left out
    # Indices into `sentences` of the annotated support set (empty for not_supported).
    gold: set[int]

    @property
    def label(self) -> int:
        return int(self.grade == "supported")

    def fold(self, k: int) -> int:
        """The same fold as the claim's in `load_wice`."""
        return zlib.crc32(self.claim.encode("utf-8")) % k


def load_wice_oracle(data: Path) -> list[OracleChunk]:
    out: list[OracleChunk] = []
    path = data / "wice-dev" / "code_and_resources" / "entailment_inputs" / "oracle_chunks"
    with (path / "claim" / "dev.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            gold_pages = set(row["meta"].get("oracle_idx") or [])
            sentences: list[str] = []
            gold: set[int] = set()
            for page_index, sentence in zip(row["meta"]["chunk_idx"], row["evidence"], strict=True):
                sentence = " ".join(sentence.split())[:MAX_FACT_CHARS]
                if not sentence:
                    continue
                if page_index in gold_pages:
                    gold.add(len(sentences))
                sentences.append(sentence)
            out.append(OracleChunk(row["claim"], row["label"], sentences, gold))
    return out


@dataclass
class SummEdit:
    doc: str
    summary: str
    label: int
    domain: str
    # The verified seed summary this one is an edit of: a sentence of it is supported whatever the
    # edit did elsewhere.
    original: str = ""

    def fold(self, k: int) -> int:
        """The document's fold: every edit of one document falls on the same side."""
        return zlib.crc32(self.doc.encode("utf-8")) % k


def load_summedits(data: Path) -> list[SummEdit]:
    out: list[SummEdit] = []
    for domain in ("sales_call", "sales_email"):
        path = data / "summedits-sales" / "data" / "summedits" / f"summedits_{domain}.json"
        for row in json.loads(path.read_text(encoding="utf-8")):
            out.append(
                SummEdit(
                    row["doc"], row["summary"], int(row["label"]), domain, row["original_summary"]
                )
            )
    return out


@dataclass(frozen=True)
class Fm2Claim:
    claim: str
    label: int
    facts: list[Fact]


def load_fm2(data: Path, split: str = "test") -> list[Fm2Claim]:
    out: list[Fm2Claim] = []
    with (data / "fm2" / "dataset" / f"{split}.jsonl").open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            title = {"title": row["wikipedia_page"]}
            facts = [Fact(e["text"], title) for e in row["retrieved_evidence"]]
            out.append(Fm2Claim(row["text"], int(row["label"] == "SUPPORTS"), facts))
    return out


_PTB = {
    "-LRB-": "(",
    "-RRB-": ")",
    "-LSB-": "[",
    "-RSB-": "]",
    "-LCB-": "{",
    "-RCB-": "}",
    "``": '"',
    "''": '"',
    "--": "-",
}
_SPACE_BEFORE = re.compile(r" ([.,;:!?%)\]}'])")
_SPACE_AFTER = re.compile(r"([(\[{$]) ")


def clean_fever(text: str) -> str:
    """FEVER's PTB-tokenised text as ordinary prose ("Soul Food ( film ) ." -> "Soul Food (film).")."""
    for token, plain in _PTB.items():
        text = text.replace(token, plain)
    text = _SPACE_BEFORE.sub(r"\1", text)
    text = _SPACE_AFTER.sub(r"\1", text)
    text = re.sub(r" (n't|'s|'re|'ve|'ll|'d)\b", r"\1", text)
    return re.sub(r"\s+", " ", text).strip()


@dataclass(frozen=True)
class FeverPair:
    claim: str
    evidence: str
    label: int


def load_fever_symmetric(data: Path, split: str = "test") -> list[FeverPair]:
    path = data / "fever-symmetric" / "symmetric_v0.2" / f"fever_symmetric_{split}.jsonl"
    out: list[FeverPair] = []
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            label = int(row["label"] == "SUPPORTS")
            out.append(FeverPair(clean_fever(row["claim"]), clean_fever(row["evidence"]), label))
    return out


def load_fever_nli(data: Path, splits: Sequence[str] = ("test",)) -> list[FeverPair]:
    """Each distinct (evidence, claim) pair once, in file order; the few that carry both labels
    upstream (4 per file) are dropped."""
    seen: dict[tuple[str, str], int] = {}
    for split in splits:
        path = data / "docnli-binary-nli" / "Data" / "binary-FEVER-NLI" / f"{split}.txt"
        with path.open(encoding="utf-8") as fh:
            for line in fh:
                label, premise, hypothesis = line.rstrip("\n").split("\t")
                value = int(label == "entailment")
                if seen.setdefault((premise, hypothesis), value) != value:
                    seen[(premise, hypothesis)] = -1
    return [
        FeverPair(clean_fever(hypothesis), clean_fever(premise), value)
        for (premise, hypothesis), value in seen.items()
        if value >= 0
    ]
