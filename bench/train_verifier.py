"""Train the grounding verifier's coefficients (groundview/grounding/verifier.json).

    .venv/bin/python bench/train_verifier.py [--data ../shared/data] [--out groundview/grounding/verifier.json]

The fixed train/test split and the recipe are documented in groundview/grounding/train.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from groundview.grounding.train import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
