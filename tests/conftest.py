from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "tests" / "corpora"

from hypothesis import settings

# Property tests are deterministic: the same examples on every run (the suite must not pass or
# fail by chance); a test's own @settings adds to this profile.
settings.register_profile("dipsat", derandomize=True, print_blob=True)
settings.load_profile("dipsat")
