#!/usr/bin/env python3
"""Availability instances computed without any of our TypeScript.

Regenerate the fixture after editing templates.json (from the repository root):

    python3 contract/recurrence/independent-fixture/expand_independent.py

It reads templates.json (availability templates in the service's shape, seed 000
"Availability template", and the windows to expand each over) and writes
instances.json beside it. Needs Python 3.9+ (zoneinfo, on the system's tz
database) and python-dateutil (2.9 here); nothing else.

This is a second implementation of the expansion rules of DESIGN.md "Rules that
come from the spec and must hold" (time and recurrence), written from that text
and from the rules the tests of contract/recurrence/expand-template.ts state,
not from that module's code. The occurring dates come from dateutil.rrule (the
RFC 5545 evaluator the `rrule` npm package was ported from) and the instants
from zoneinfo. Where DESIGN.md's rule is not what those libraries do by
default, the rule is implemented here explicitly:

- Recurrence is by local date only: the rule is evaluated in floating time from
  DTSTART's local date at midnight, and BYHOUR/BYMINUTE/BYSECOND are dropped
  ("one instance per occurring date"); times come from startTimeLocal and
  endTimeLocal, the zone from the template's timezone.
- UNTIL (a UTC UNTIL first converted to the template's zone) and
  recurrence.until are local dates, inclusive; the earlier wins. dateutil would
  compare UNTIL with an occurrence's date-time instead.
- EXDATE removes the occurrence on that local date, whatever time it names.
  dateutil's rruleset removes only an exactly equal date-time.
- RDATE adds a local date, bounded by recurrence.until only (RFC 5545: a rule's
  UNTIL and COUNT bound the rule, not RDATE).
- Without DTSTART the rule is anchored on the window's first day.
- A local time is read with Temporal's disambiguation "compatible" (RFC 5545
  3.3.5): inside a spring-forward gap, with the UTC offset in force before the
  gap; inside a fall-back fold, as its first (earlier) occurrence.
  to_instant() below does this by trying each offset the zone uses around that
  wall time, instead of relying on a library's default for fold=0.
- endTimeLocal at or before startTimeLocal ends on the next local day; an
  instance spans the real time between its local start and end and is dropped
  when its end is not after its start; an instance belongs to the local date
  it starts on, and the window (both ends inclusive) selects by that date.
- An inactive template has no instances.

Rules that never match (dateutil would search up to year 9999) and a DTSTART
that is not itself an occurrence (RFC 5545 leaves that set undefined) are
outside what this script is for: templates.json has neither.
"""

from __future__ import annotations

import json
import re
import sys
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import dateutil
from dateutil.rrule import rrulestr

HERE = Path(__file__).resolve().parent
INPUT = HERE / "templates.json"
OUTPUT = HERE / "instances.json"

DATE_VALUE = re.compile(r"^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$")
# Parts of an RRULE that select dates; time parts are ignored (DESIGN.md) and UNTIL is applied as a local date.
DATE_PARTS = {"FREQ", "INTERVAL", "COUNT", "WKST", "BYDAY", "BYMONTH", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYSETPOS"}
IGNORED_PARTS = {"BYHOUR", "BYMINUTE", "BYSECOND"}


# --------------------------------------------------------------------------
# Local time to instant.


def to_instant(day: date, hhmm: str, zone: ZoneInfo) -> datetime:
    """The UTC instant of a wall-clock time in `zone`, disambiguated as "compatible"."""
    hours, minutes = (int(part) for part in hhmm.split(":"))
    wall = datetime.combine(day, time(hours, minutes))
    as_if_utc = wall.replace(tzinfo=timezone.utc)
    # Every offset the zone uses within a day and a half of this wall time.
    offsets = sorted({(as_if_utc + timedelta(hours=h)).astimezone(zone).utcoffset() for h in range(-36, 37)})
    candidates = sorted(as_if_utc - offset for offset in offsets)
    # A candidate is real when the zone shows that instant as this very wall time.
    real = [instant for instant in candidates if instant.astimezone(zone).replace(tzinfo=None) == wall]
    if real:
        # One: an ordinary time. Two: a fold, and the first occurrence is the earlier instant.
        return real[0]
    # A gap. The earliest candidate instant lies before the transition (had it been
    # after, it would show this wall time), so its offset is the one before the gap.
    before = candidates[0].astimezone(zone).utcoffset()
    after = candidates[-1].astimezone(zone).utcoffset()
    assert before is not None and after is not None and before < after, f"{wall} in {zone.key}: no gap found"
    return as_if_utc - before


def format_instant(instant: datetime, zone: ZoneInfo) -> str:
    """ISO 8601 with the zone's UTC offset at that instant, seconds shown: `2026-03-08T03:30:00-04:00`."""
    return instant.astimezone(zone).isoformat(timespec="seconds")


# --------------------------------------------------------------------------
# Recurrence text to local dates.


def unfold(text: str) -> list[str]:
    """RFC 5545 3.1: a line break followed by a space or tab continues the line."""
    return [line.strip() for line in re.sub(r"\r?\n[ \t]", "", text).splitlines() if line.strip()]


def parameters_of(head: str) -> tuple[str, dict[str, str]]:
    name, *pieces = head.split(";")
    params = {}
    for piece in pieces:
        key, _, value = piece.partition("=")
        params[key.upper()] = value.strip('"')
    return name.upper(), params


def local_date_of(value: str, tzid: str | None, zone: ZoneInfo) -> date:
    """The local date in `zone` that a DATE or DATE-TIME value names (DESIGN.md: a UTC value is converted first)."""
    match = DATE_VALUE.match(value)
    if match is None:
        raise ValueError(f"not an RFC 5545 date or date-time: {value}")
    year, month, day_of_month, hours, minutes, seconds, utc = match.groups()
    day = date(int(year), int(month), int(day_of_month))
    if hours is None:
        return day
    if utc == "Z":
        instant = datetime(day.year, day.month, day.day, int(hours), int(minutes), int(seconds), tzinfo=timezone.utc)
        return instant.astimezone(zone).date()
    if tzid is not None and tzid != zone.key:
        instant = to_instant(day, f"{hours}:{minutes}", ZoneInfo(tzid)) + timedelta(seconds=int(seconds))
        return instant.astimezone(zone).date()
    return day


class Recurrence:
    def __init__(self, text: str, until: str | None, zone: ZoneInfo) -> None:
        self.anchor: date | None = None
        self.rules: list[tuple[str, date | None]] = []
        self.rdates: list[date] = []
        self.exdates: set[date] = set()
        self.until = date.fromisoformat(until) if until is not None else None
        for line in unfold(text):
            if ":" not in line:
                if re.search(r"(^|;)FREQ=", line, re.IGNORECASE):
                    self.rules.append(self.rule_of(line, zone))
                    continue
                raise ValueError(f"unreadable recurrence line: {line}")
            head, _, value = line.partition(":")
            name, params = parameters_of(head)
            tzid = params.get("TZID")
            if name == "DTSTART":
                self.anchor = local_date_of(value, tzid, zone)
            elif name == "RRULE":
                self.rules.append(self.rule_of(value, zone))
            elif name == "EXDATE":
                self.exdates.update(local_date_of(item, tzid, zone) for item in value.split(","))
            elif name == "RDATE":
                self.rdates.extend(local_date_of(item, tzid, zone) for item in value.split(","))

    @staticmethod
    def rule_of(text: str, zone: ZoneInfo) -> tuple[str, date | None]:
        """The rule's date-selecting parts as RRULE text, and its UNTIL as a local date."""
        kept: list[str] = []
        until: date | None = None
        for piece in text.split(";"):
            if not piece:
                continue
            key, _, value = piece.partition("=")
            key = key.upper()
            if key == "UNTIL":
                until = local_date_of(value.upper(), None, zone)
            elif key in DATE_PARTS:
                kept.append(f"{key}={value.upper()}")
            elif key not in IGNORED_PARTS and not key.startswith("X-"):
                raise ValueError(f"unsupported RRULE part {key}")
        return ";".join(kept), until

    def dates(self, first: date, last: date) -> list[date]:
        """Occurring local dates in [first, last]."""
        anchor = self.anchor if self.anchor is not None else first
        found: set[date] = set()
        if not self.rules:
            # RFC 5545: DTSTART is the first instance of the recurrence set.
            found.add(anchor)
        for text, rule_until in self.rules:
            # Floating time at midnight: dateutil's own default fills BYxxx from DTSTART's date.
            rule = rrulestr(f"RRULE:{text}", dtstart=datetime.combine(anchor, time(0, 0)))
            ends = [end for end in (rule_until, self.until, last) if end is not None]
            stop = min(ends)
            if stop < first:
                continue
            occurrences = rule.between(datetime.combine(first, time(0, 0)), datetime.combine(stop, time(0, 0)), inc=True)
            found.update(occurrence.date() for occurrence in occurrences)
        found.update(day for day in self.rdates if self.until is None or day <= self.until)
        return sorted(day for day in found if first <= day <= last and day not in self.exdates)


# --------------------------------------------------------------------------
# Templates to instances.


def expand(template: dict[str, Any], window: dict[str, str]) -> list[dict[str, Any]]:
    if not template["active"]:
        return []
    zone = ZoneInfo(template["timezone"])
    first, last = date.fromisoformat(window["startDate"]), date.fromisoformat(window["endDate"])
    if last < first:
        return []
    recurrence = Recurrence(template["recurrence"]["rrule"], template["recurrence"]["until"], zone)
    start_local, end_local = template["startTimeLocal"], template["endTimeLocal"]
    # "HH:MM" strings compare as times.
    end_day_offset = timedelta(days=1) if end_local <= start_local else timedelta(0)
    instances = []
    for day in recurrence.dates(first, last):
        starts = to_instant(day, start_local, zone)
        ends = to_instant(day + end_day_offset, end_local, zone)
        if ends <= starts:
            continue
        instances.append(
            {
                "templateId": template["id"],
                "providerId": template["providerId"],
                "facilityId": template["facilityId"],
                "startsAt": format_instant(starts, zone),
                "endsAt": format_instant(ends, zone),
                "concurrency": template["concurrency"],
            }
        )
    return instances


def tz_database_version() -> str:
    for root in ("/usr/share/zoneinfo", "/usr/lib/zoneinfo"):
        try:
            first = (Path(root) / "tzdata.zi").read_text().splitlines()[0]
        except (OSError, IndexError):
            continue
        if first.startswith("# version "):
            return first.removeprefix("# version ")
    return "unknown"


def main() -> int:
    source = json.loads(INPUT.read_text())
    cases = [
        {
            "name": case["name"],
            "template": case["template"],
            "windows": [{**window, "instances": expand(case["template"], window)} for window in case["windows"]],
        }
        for case in source["cases"]
    ]
    fixture = {
        "//": "Generated by expand_independent.py from templates.json: do not edit. Regenerate with `python3 contract/recurrence/independent-fixture/expand_independent.py`.",
        "generator": {"dateutil": dateutil.__version__, "tzdata": tz_database_version()},
        "cases": cases,
    }
    OUTPUT.write_text(json.dumps(fixture, indent=2, ensure_ascii=False) + "\n")
    count = sum(len(window["instances"]) for case in cases for window in case["windows"])
    print(f"{OUTPUT.relative_to(Path.cwd()) if OUTPUT.is_relative_to(Path.cwd()) else OUTPUT}: {len(cases)} templates, {count} instances")
    return 0


if __name__ == "__main__":
    sys.exit(main())
