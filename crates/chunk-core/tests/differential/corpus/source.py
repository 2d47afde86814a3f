"""Small utilities for reading logger exports.

The functions here are deliberately plain: they are used in notebooks by people who want to see
every step.
"""

from __future__ import annotations

import csv
import datetime as dt
from dataclasses import dataclass
from typing import Iterable, Iterator


@dataclass(frozen=True)
class Reading:
    """One row of an export: a UTC time stamp, degrees Celsius and relative humidity."""

    at: dt.datetime
    celsius: float
    humidity: float


def parse_rows(lines: Iterable[str]) -> Iterator[Reading]:
    """Parses CSV lines; skips the header and blank lines; raises ValueError on a bad row."""
    reader = csv.reader(lines)
    for number, row in enumerate(reader, start=1):
        if not row or row[0] == "time":
            continue
        if len(row) != 3:
            raise ValueError(f"line {number}: expected 3 fields, got {len(row)}")
        at = dt.datetime.fromisoformat(row[0]).replace(tzinfo=dt.timezone.utc)
        yield Reading(at, float(row[1]), float(row[2]))


def gaps(readings: list[Reading], interval: dt.timedelta) -> list[tuple[dt.datetime, dt.datetime]]:
    """Returns the spans where consecutive readings are more than 1.5 intervals apart."""
    out = []
    for before, after in zip(readings, readings[1:]):
        if after.at - before.at > interval * 1.5:
            out.append((before.at, after.at))
    return out


def daily_extremes(readings: Iterable[Reading]) -> dict[dt.date, tuple[float, float]]:
    """Lowest and highest temperature of each UTC day."""
    days: dict[dt.date, tuple[float, float]] = {}
    for r in readings:
        day = r.at.date()
        low, high = days.get(day, (r.celsius, r.celsius))
        days[day] = (min(low, r.celsius), max(high, r.celsius))
    return days


if __name__ == "__main__":
    import sys

    rows = list(parse_rows(open(sys.argv[1], encoding="utf-8")))
    for start, end in gaps(rows, dt.timedelta(minutes=1)):
        print(f"gap from {start:%Y-%m-%d %H:%M} to {end:%H:%M}")
    for day, (low, high) in sorted(daily_extremes(rows).items()):
        print(day, low, high)
