import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hypothesis import settings  # noqa: E402

# The same examples on every run, so a red suite is red again when rerun and a green one cannot turn red by
# chance; HYPOTHESIS_PROFILE=explore draws fresh examples (what to run while hunting for a new falsifying case).
settings.register_profile("fixed", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "fixed"))
