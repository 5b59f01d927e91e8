"""Retry timing: `Retry-After` (seconds or HTTP-date) and exponential backoff with jitter."""
from __future__ import annotations

import datetime as dt
import email.utils
import math
import random

MAX_BACKOFF = 30.0


def retry_after(value: str | None, now: dt.datetime | None = None) -> float | None:
    """Seconds a `Retry-After` value asks to wait, or None when absent or unreadable."""
    if not value:
        return None
    text = value.strip()
    seconds: float | None
    try:
        seconds = float(text)
    except ValueError:
        seconds = _until_date(text, now)
    if seconds is None or math.isnan(seconds):
        return None
    return max(0.0, seconds)


def _until_date(text: str, now: dt.datetime | None) -> float | None:
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    now = now or dt.datetime.now(dt.UTC)
    return max(0.0, (when - now).total_seconds())


def backoff(attempt: int, base: float) -> float:
    """Delay before retry `attempt` (0-based): base·2^attempt, plus up to 50% jitter."""
    delay = min(MAX_BACKOFF, base * (2 ** attempt))
    return delay * (1.0 + random.random() * 0.5)
