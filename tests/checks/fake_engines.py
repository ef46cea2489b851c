"""Fast stand-ins for the grounding engine, selected with settings.GROUNDVIEW_CHECK_ENGINE (also in
worker subprocesses, through the environment). They follow the engine's contract: check(payload),
check_many(payloads, return_errors=...), model_id, warm_up()."""

import os
import time

VERSION = "fake-1"


class FakeEngine:
    """Cites every fact sharing a word with the answer; support = share of answer words covered."""

    version = VERSION
    model_id = "fake-word-overlap"

    def __init__(self, config):
        self.config = config

    def warm_up(self):
        pass

    def check(self, payload):
        return self.respond(payload)

    def check_many(self, payloads, return_errors=False):
        out = []
        for payload in payloads:
            try:
                out.append(self.check(payload))
            except ValueError as exc:
                if not return_errors:
                    raise
                out.append(
                    {"error": {"code": 400, "message": str(exc), "status": "INVALID_ARGUMENT"}}
                )
        return out

    def respond(self, payload):
        answer = payload["answerCandidate"]
        if "INVALID" in answer:
            raise ValueError("answerCandidate: the fake engine rejects INVALID")
        words = set(answer.lower().split())
        cited = [
            index
            for index, fact in enumerate(payload.get("facts", []))
            if words & set(fact["factText"].lower().split())
        ]
        covered = set().union(
            *(set(payload["facts"][i]["factText"].lower().split()) for i in cited)
        )
        score = round(len(words & covered) / len(words), 4) if words else 0.0
        return {
            "supportScore": score,
            "citedChunks": [
                {"chunkText": payload["facts"][i]["factText"], "source": str(i)} for i in cited
            ],
            "claims": [
                {
                    "startPos": 0,
                    "endPos": len(answer.encode()),
                    "claimText": answer,
                    "citationIndices": list(range(len(cited))),
                    "groundingCheckRequired": True,
                }
            ],
        }


class FailingEngine(FakeEngine):
    """Raises, like an engine bug, for answers containing 💥."""

    def check(self, payload):
        if "💥" in payload["answerCandidate"]:
            raise RuntimeError("engine exploded on 💥")
        return super().check(payload)


class SlowEngine(FakeEngine):
    """Takes GROUNDVIEW_FAKE_ENGINE_DELAY seconds per request, so a test can kill a worker mid-task."""

    def check(self, payload):
        time.sleep(float(os.environ.get("GROUNDVIEW_FAKE_ENGINE_DELAY", "0")))
        return super().check(payload)


def fake_engine(config):
    return FakeEngine(config)


def failing_engine(config):
    return FailingEngine(config)


def slow_engine(config):
    return SlowEngine(config)
