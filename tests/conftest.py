from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT / "tests" / "corpora"

from hypothesis import settings

# Property tests are deterministic: the same examples on every run (the suite must not pass or
# fail by chance); a test's own @settings adds to this profile.
settings.register_profile("dipsat", derandomize=True, print_blob=True)
settings.load_profile("dipsat")

# The suite reads dipsat's plain output: an environment that forces colour (FORCE_COLOR) does not
# colour it here (tests/test_cli_colour.py sets it where it checks colour).
import os

os.environ.pop("FORCE_COLOR", None)
