from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "tests" / "corpora"
