# The probe imports modules a given PyTorch may lack (that is what it probes), so type checkers
# read this instead of _torch_probe.py.
from typing import Tuple

NAMES: Tuple[str, str, str, str]

def probe() -> Tuple[bool, bool, bool, bool]: ...
