"""The tests' clock, as fronts' test build reads it: FRONTS_TEST_NOW is
"T[xSPEED]" (ISO-8601 with offset, or @EPOCH), running from when this module
is first imported at SPEED times real time. Without it, the system clock.
The fakes and fixtures date what they make with now(), so they agree with
the fronts process they talk to whatever hour the tests run at."""
import os
import time
from datetime import datetime

_ORIGIN = time.monotonic()


def _parse(v):
    speed = 1.0
    if "x" in v:
        v, s = v.split("x", 1)
        speed = float(s)
    if v.startswith("@"):
        return float(v[1:]), speed
    return datetime.fromisoformat(v.replace("Z", "+00:00")).timestamp(), speed


_PIN = os.environ.get("FRONTS_TEST_NOW") or None
_START, _SPEED = _parse(_PIN) if _PIN else (None, 1.0)


def now():
    """Seconds since the epoch on the tests' clock."""
    if _START is None:
        return time.time()
    return _START + (time.monotonic() - _ORIGIN) * _SPEED
