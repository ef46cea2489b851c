"""The calibrated head: logistic regression over the coverage features (and the verifier's windows).

Coefficients live in `head.json` (written by `python -m groundview.grounding.fit_head`): one head for
coverage features alone (`features`, used when no cross-encoder is configured) and one stacked over
coverage and the cross-encoder's window scores (`stacked`). Both are shifted so that the decision
threshold chosen by k-fold cross-validation sits at 0.6, Vertex's default citationThreshold.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from .support import FEATURES

CE_FEATURES: tuple[str, ...] = ("ce_max", "ce_top")
DEFAULT_HEAD = Path(__file__).with_name("head.json")


def feature_names(stacked: bool) -> tuple[str, ...]:
    return FEATURES + CE_FEATURES if stacked else FEATURES


class Head:
    def __init__(self, path: str | Path | None = None, *, stacked: bool) -> None:
        file = Path(path) if path else DEFAULT_HEAD
        try:
            spec: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise FileNotFoundError(f"head coefficients not readable at {file}: {exc}") from exc
        kind = "stacked" if stacked else "features"
        head = spec["heads"][kind]
        names = tuple(head["features"])
        if names != feature_names(stacked):
            raise ValueError(
                f"{file} ({kind}) was fitted on features {names}, this engine computes "
                f"{feature_names(stacked)}; refit with `make train-checker`"
            )
        self.version = f"{spec.get('version', 'head')}-{kind}"
        self._mean = np.asarray(head["mean"], dtype=np.float64)
        self._scale = np.asarray(head["scale"], dtype=np.float64)
        self._coef = np.asarray(head["coef"], dtype=np.float64)
        self._intercept = float(head["intercept"])
        self._width = len(names)

    def score(self, features: npt.ArrayLike) -> npt.NDArray[np.float64]:
        x = np.asarray(features, dtype=np.float64).reshape(-1, self._width)
        z = ((x - self._mean) / self._scale) @ self._coef + self._intercept
        return np.asarray(1.0 / (1.0 + np.exp(-z)), dtype=np.float64)
