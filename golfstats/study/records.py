"""The ledger's records checked before the study believes them (``study.ledger``).

Every record the ledger keeps (``plan.json``, a chunk's ``chunk-NNNNNN.json``, a valued
deal's ``deal-NNNNNN.json``) carries ``digest``: the sha256 of its canonical content (the
record without ``digest``, as JSON with sorted keys and no spaces), so an edit anywhere
in it is seen.  Each is also checked for consistency on its own (``chunk_problem``,
``deal_problem``, ``plan_problem``): a chunk's wins are at most its kept deals and are
exactly its stroke histogram's counts at 0 strokes or fewer (a won deal scores ``-stock
left``, a lost one its cards left, at least 1); the histogram sums to the kept deals, to
``strokes_sum`` and to ``strokes_sq``; the pair tallies' 2x2 tables sum to the chunk's
deals and agree with the two players' wins and strokes; a valued deal's chance and share
are in [0, 1], its play-outs one per order, never winning more orders than the
clairvoyant player does.

A record that cannot be read, is inconsistent, or whose digest is not its content's is
*set aside*: moved (never deleted) to ``OUT/runs/set-aside/`` (the study's ignored
folder of runs) under its path in the ledger, and said in one line through the study's
note channel (``report_to``); the study then plays it again.  A record without a digest
(written before digests) that is consistent is used, and said once per folder;
``seal`` gives such records their digest (``golfstats study --seal-ledger``,
docs/study-ledger.md).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from golfstats.atomic import sha256_text

DIGEST = "digest"
SET_ASIDE = ("runs", "set-aside")

log = logging.getLogger("golfstats.study")
_report: list[Callable[[str], None]] = [log.warning]
_unsealed_said: set[Path] = set()


def report_to(say: Callable[[str], None] | None) -> Callable[[str], None]:
    """Say the ledger's problems through ``say`` (None: the log); returns the one before."""
    before = _report[0]
    _report[0] = say or log.warning
    return before


def say(message: str) -> None:
    _report[0](message)


def digest_of(data: dict) -> str:
    body = {k: v for k, v in data.items() if k != DIGEST}
    return sha256_text(json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False))


def sealed(data: dict) -> dict:
    """``data`` with its digest (last)."""
    body = {k: v for k, v in data.items() if k != DIGEST}
    return {**body, DIGEST: digest_of(body)}


def open_record(path: Path) -> tuple[dict | None, str]:
    """(the record at ``path`` without its digest, why it cannot be believed: "" when it
    can, "unsealed" when it has no digest).  A missing file is (None, "")."""
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None, ""
    except (OSError, UnicodeDecodeError) as exc:
        return None, f"cannot be read ({getattr(exc, 'strerror', None) or exc})"
    try:
        data = json.loads(text)
    except ValueError as exc:
        return None, f"is not whole JSON ({exc.msg} at line {exc.lineno}): truncated?"
    if not isinstance(data, dict):
        return None, "is not a JSON object"
    if DIGEST not in data:
        return data, "unsealed"
    digest = data.pop(DIGEST)
    try:
        same = digest == digest_of(data)
    except ValueError:  # NaN or infinity: not what the study writes
        same = False
    return data, "" if same else "is altered: its digest is not its content's"


def set_aside(ledger: Path, path: Path, why: str) -> Path | None:
    """Move ``path`` out of the ledger, to ``OUT/runs/set-aside/`` under its path there,
    and say so in one line; returns where it went (None if it could not be moved)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    try:
        rel = path.relative_to(ledger)
    except ValueError:
        rel = Path(path.name)
    target = ledger.parent.joinpath(*SET_ASIDE, rel.parent, f"{rel.name}.{stamp}")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        path.replace(target)
    except OSError as exc:
        say(f"ledger: {path} {why}; it is ignored (could not be moved aside: "
            f"{exc.strerror or exc}) and played again")
        return None
    say(f"ledger: {path} {why}; set aside as {target}, played again")
    return target


def say_once(key, message: str) -> None:
    """Say ``message`` the first time ``key`` comes (the ledger is read several times a
    sitting)."""
    if key not in _unsealed_said:
        _unsealed_said.add(key)
        say(message)


def note_unsealed(folder: Path, count: int) -> None:
    """Say once per folder that it holds records without a digest."""
    if count:
        say_once(folder, f"ledger: {folder}: {count} records have no digest (written before "
                         "digests); `golfstats study --seal-ledger` seals them")


# ------------------------------------------------------------------ consistency

_TALLY_INTS = ("n", "truncated", "wins", "strokes_sum", "strokes_sq", "points_sum", "draws_sum",
               "n_moves_sum", "longest_chain_sum", "states_sum", "max_states", "n_win_p",
               "n_expected_strokes")
_TALLY_FLOATS = ("seconds_sum", "win_p_sum", "win_p_sq", "expected_strokes_sum")
_PAIR_COUNTS = ("n", "both", "only_a", "only_b", "neither")
_CHUNK_KEYS = ("format", "run", "identity", "chunk", "seconds", "tally", "pairs")


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _num(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def chunk_problem(data: dict) -> str:
    """Why a chunk record is inconsistent in itself ("" when it is not)."""
    missing = [k for k in _CHUNK_KEYS if k not in data]
    if missing:
        return f"lacks its {', '.join(missing)} key{'s' if len(missing) > 1 else ''}"
    chunk, identity = data["chunk"], data["identity"]
    if (not isinstance(chunk, list) or len(chunk) != 3 or not all(map(_int, chunk))
            or not 0 <= chunk[1] < chunk[2]):
        return f"has no chunk [index, start, stop] ({chunk!r})"
    if not isinstance(identity, dict) or not isinstance(identity.get("policies"), list):
        return "has no identity with its policies"
    if not _num(data["seconds"]) or data["seconds"] < 0:
        return "has no seconds"
    if not isinstance(data["tally"], list) or not isinstance(data["pairs"], list):
        return "has a tally or pairs that is not a list of rows"
    deals = chunk[2] - chunk[1]
    tallies = {}
    for row in data["tally"]:
        problem = _tally_problem(row, deals)
        if problem:
            return problem
        tallies[row["policy"]] = row
    policies = identity["policies"]
    if sorted(tallies) != sorted(policies):
        return f"tallies {', '.join(sorted(tallies)) or 'no policy'}, not {', '.join(policies)}"
    pairs = {}
    for row in data["pairs"]:
        problem = _pair_problem(row, deals, tallies)
        if problem:
            return problem
        pairs[(row["a"], row["b"])] = row
    wanted = {(a, b) for i, a in enumerate(policies) for b in policies[i + 1:]}
    if set(pairs) != wanted:
        return "has not one pair tally per pair of its policies"
    return ""


def _tally_problem(row, deals: int) -> str:
    if not isinstance(row, dict):
        return "has a tally row that is not an object"
    name = row.get("policy", "?")
    missing = [k for k in (*_TALLY_INTS, *_TALLY_FLOATS, "stroke_hist", "policy") if k not in row]
    if missing:
        return f"lacks {', '.join(missing)} in the tally of {name}"
    if not all(_int(row[k]) and row[k] >= 0 for k in _TALLY_INTS if k != "strokes_sum"):
        return f"has a count that is not a whole number >= 0 in the tally of {name}"
    if not _int(row["strokes_sum"]) or not all(_num(row[k]) for k in _TALLY_FLOATS):
        return f"has a sum that is not a number in the tally of {name}"
    kept = row["n"] - row["truncated"]
    if row["n"] != deals or kept < 0:
        return f"tallies {row['n']} deals of {name} in a chunk of {deals}"
    if row["wins"] > kept:
        return f"has {row['wins']} wins of {kept} deals for {name}"
    hist = row["stroke_hist"]
    if not isinstance(hist, list) or not all(
            isinstance(h, list) and len(h) == 2 and _int(h[0]) and _int(h[1]) and h[1] >= 0
            for h in hist):
        return f"has a stroke histogram that is not [[strokes, count], ...] for {name}"
    checks = (("deals", sum(c for _, c in hist), kept),
              ("wins", sum(c for s, c in hist if s <= 0), row["wins"]),
              ("strokes_sum", sum(s * c for s, c in hist), row["strokes_sum"]),
              ("strokes_sq", sum(s * s * c for s, c in hist), row["strokes_sq"]))
    for what, from_hist, given in checks:
        if from_hist != given:
            return f"has a stroke histogram of {name} giving {what} {from_hist}, not {given}"
    if row["n_win_p"] > row["n"] or row["n_expected_strokes"] > row["n"]:
        return f"has more honest values than deals for {name}"
    return ""


def _pair_problem(row, deals: int, tallies: dict) -> str:
    if not isinstance(row, dict) or not all(k in row for k in ("a", "b", *_PAIR_COUNTS,
                                                               "strokes_a_sum", "strokes_b_sum")):
        return "has a pair tally row without its counts"
    a, b = row["a"], row["b"]
    if a not in tallies or b not in tallies:
        return f"has a pair tally of {a} and {b}, players it does not tally"
    if not all(_int(row[k]) and row[k] >= 0 for k in _PAIR_COUNTS):
        return f"has a pair count that is not a whole number >= 0 ({a} vs {b})"
    if row["n"] != deals or row["both"] + row["only_a"] + row["only_b"] + row["neither"] != deals:
        return f"has a 2x2 table of {a} vs {b} that does not sum to its {deals} deals"
    for side, won, strokes in (("a", row["both"] + row["only_a"], row["strokes_a_sum"]),
                               ("b", row["both"] + row["only_b"], row["strokes_b_sum"])):
        t = tallies[row[side]]
        if t["truncated"] == 0 and (won != t["wins"] or strokes != t["strokes_sum"]):
            return (f"has a pair tally of {a} vs {b} whose {row[side]} wins or strokes differ "
                    "from its tally")
    return ""


_DEAL_KEYS = ("deal_index", "win_p", "share", "resolved", "states", "peak_bytes", "seconds",
              "order_strokes")
_ORDERS = re.compile(r"-k(\d+)$")


def _play_outs_problem(data: dict, index: int, keys: tuple[str, ...]) -> str:
    """What a valued deal's record and its goal-strokes play-outs are both checked for: every
    key, their own deal index, a resolved flag and play-outs that are whole numbers."""
    missing = [k for k in keys if k not in data]
    if missing:
        return f"lacks its {', '.join(missing)} key{'s' if len(missing) > 1 else ''}"
    if data["deal_index"] != index:
        return f"is of deal {data['deal_index']!r}, not {index}"
    if not isinstance(data["resolved"], bool):
        return "has no resolved flag"
    strokes = data["order_strokes"]
    if not isinstance(strokes, list) or not all(map(_int, strokes)):
        return "has order_strokes that is not a list of whole numbers"
    return ""


def _orders(folder: Path) -> int | None:
    """The stock orders each deal of an optimum's folder is played out on (``-kK``)."""
    match = _ORDERS.search(folder.name)
    return int(match.group(1)) if match else None


def _one_per_order(data: dict, orders: int | None) -> str:
    """A resolved record has one play-out per order, an unresolved one none."""
    strokes = data["order_strokes"]
    if data["resolved"] and orders is not None and len(strokes) != orders:
        return f"has {len(strokes)} play-outs, not one per order ({orders})"
    if not data["resolved"] and strokes:
        return "is unresolved but has play-outs"
    return ""


def deal_problem(data: dict, index: int, folder: Path) -> str:
    """Why a valued deal's record is inconsistent ("" when it is not)."""
    why = _play_outs_problem(data, index, _DEAL_KEYS)
    if why:
        return why
    share, strokes = data["share"], data["order_strokes"]
    if not _num(share) or not 0 <= share <= 1:
        return f"has a share {share!r} outside [0, 1]"
    for key in ("states", "peak_bytes"):
        if not _int(data[key]) or data[key] < 0:
            return f"has {key} that is not a whole number >= 0"
    p = data["win_p"]
    if data["resolved"] and (not _num(p) or not -1e-9 <= p <= 1 + 1e-9):
        return f"has a chance of winning {p!r} outside [0, 1]"
    orders = _orders(folder)
    why = _one_per_order(data, orders)
    if why:
        return why
    if orders is not None:
        won = round(share * orders)
        if abs(share * orders - won) > 1e-6:
            return f"has a share {share!r} that is no count of {orders} orders"
        if sum(s <= 0 for s in strokes) > won:
            return "wins more orders honestly than the clairvoyant player does"
    return ""


_STROKES_KEYS = ("format", "goal", "deal_index", "expected_strokes", "win_p", "resolved", "states",
                 "peak_bytes", "max_bytes", "seconds", "order_strokes")


def strokes_problem(data: dict, index: int, folder: Path) -> str:
    """Why a valued deal's goal-strokes play-outs (``strokes-NNNNNN.json``) are
    inconsistent ("" when they are not; a record of another format is left to the reader)."""
    why = _play_outs_problem(data, index, _STROKES_KEYS)
    if not why and data["goal"] != "strokes":
        why = f"is of goal {data['goal']!r}, not strokes"
    return why or _one_per_order(data, _orders(folder))


_PLAN_KEYS = ("key", "plans", "runs")


def plan_problem(data: dict) -> str:
    from golfstats.study.plan import ParPlan, VariantPlan

    missing = [k for k in _PLAN_KEYS if k not in data]
    if missing:
        return f"lacks its {', '.join(missing)} key{'s' if len(missing) > 1 else ''}"
    if not isinstance(data["key"], dict) or not isinstance(data["plans"], list):
        return "has a key or plans of the wrong kind"
    if not all(_fits(VariantPlan, plan) for plan in data["plans"]):
        return "has a plan that is not a rule set's plan"
    pars = data.get("pars", [])  # the par runs (a plan made before them has none)
    if not isinstance(pars, list) or not all(_fits(ParPlan, p) for p in pars):
        return "has a par run's plan that is not one"
    return ""


def _fits(kind, row) -> bool:
    """Whether ``row`` is a dict of ``kind``'s fields (the required ones at least)."""
    from dataclasses import MISSING, fields

    names = {f.name for f in fields(kind)}
    required = {f.name for f in fields(kind) if f.default is MISSING}
    return isinstance(row, dict) and required <= set(row) <= names
