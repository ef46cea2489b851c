"""groundview's grounding engine: an offline reimplementation of Vertex AI's Check Grounding method.

Pure Python + sentence-transformers; imports nothing from Django, DRF or Celery. See README.md here.

    from groundview.grounding import EngineConfig, get_engine
    engine = get_engine(EngineConfig.from_dict(settings.GROUNDING))
    response = engine.check({"answerCandidate": "...", "facts": [{"factText": "..."}]})
"""

from .check import ENGINE_VERSION, ClaimResult, Engine, get_engine
from .config import EngineConfig
from .models import ModelLoadError
from .schema import CheckRequest, Fact, RequestError, parse_request

__all__ = [
    "ENGINE_VERSION",
    "CheckRequest",
    "ClaimResult",
    "Engine",
    "EngineConfig",
    "Fact",
    "ModelLoadError",
    "RequestError",
    "get_engine",
    "parse_request",
]
