"""One player under two rule sets, paired: two runs of the same seed, so the same deals.

Deal ``i`` of a seed deals the same order of the 52 standard cards under every rule set
(docs/rules.md, "How golfstats deals"), so two runs of one seed, under rule sets A and B,
hold one player's results on the same deals twice.  The pairs are joined on the deal
index; the figures are those of ``report.compare`` (Newcombe's paired interval for the
win-rate difference, McNemar's test, the mean stroke difference with its interval), with
A and B the two rule sets.
"""

from __future__ import annotations

from dataclasses import dataclass

import polars as pl

from golfstats.report.compare import Comparison, comparison_from_tally, paired_findings
from golfstats.runs.tally import pair_tally_of


class PairingError(ValueError):
    """Two runs whose deals cannot be paired (other seeds, no deal in common, one rule set
    twice): a question the runs cannot answer as asked, said in one line."""


@dataclass(frozen=True)
class RuleSetComparison:
    """``policy`` under rule set A (``comparison.a``) and B (``comparison.b``) on the
    ``comparison.n`` deals of ``seed`` that both runs hold (``held_a``, ``held_b``: the
    deals each run holds for the policy, truncated ones left out)."""

    policy: str
    seed: int
    held_a: int
    held_b: int
    comparison: Comparison


def _one(deals: pl.DataFrame, column: str, name: str) -> str | int:
    values = deals[column].cast(pl.String if column == "variant" else pl.Int64).unique().to_list()
    if len(values) != 1:
        what = "rule sets" if column == "variant" else "seeds"
        raise PairingError(f"{name} holds several {what} ({', '.join(map(str, sorted(values)))}); "
                           "compare RUN_A RUN_B takes two runs of one rule set each")
    return values[0]


def _kept(deals: pl.DataFrame, policy: str) -> pl.DataFrame:
    """The policy's deals that were played to the end (a budget cut the others short)."""
    rows = deals.filter(pl.col("policy").cast(pl.String) == policy)
    if "truncated" in rows.columns:
        rows = rows.filter(~pl.col("truncated"))
    return rows


def compare_rule_sets(deals_a: pl.DataFrame, deals_b: pl.DataFrame, policy: str,
                      name_a: str = "RUN_A", name_b: str = "RUN_B") -> RuleSetComparison:
    """``policy`` in the deal rows of run A against run B, paired by deal index.

    Raises ``PairingError`` when the runs are of other seeds, of the same rule set, of
    several rule sets or seeds each, or share no deal."""
    rows_a, rows_b = _kept(deals_a, policy), _kept(deals_b, policy)
    for rows, name in ((rows_a, name_a), (rows_b, name_b)):
        if rows.is_empty():
            raise PairingError(f"{name} holds no deal of {policy} played to the end")
    variant_a, variant_b = _one(rows_a, "variant", name_a), _one(rows_b, "variant", name_b)
    seed_a, seed_b = _one(rows_a, "seed", name_a), _one(rows_b, "seed", name_b)
    if seed_a != seed_b:
        raise PairingError(f"{name_a} is of seed {seed_a} and {name_b} of seed {seed_b}: not "
                           "the same deals (compare runs made with the same --seed)")
    if variant_a == variant_b:
        raise PairingError(f"{name_a} and {name_b} are both {variant_a}: the same deals under "
                           "the same rules; compare runs of two rule sets")
    cols = ["deal_index", "won", "strokes"]
    pairs = (rows_a.select(cols).rename({"won": "won_a", "strokes": "strokes_a"})
             .join(rows_b.select(cols).rename({"won": "won_b", "strokes": "strokes_b"}),
                   on="deal_index", how="inner").sort("deal_index"))
    if pairs.is_empty():
        raise PairingError(f"{name_a} and {name_b} share no deal of seed {seed_a} that {policy} "
                           "played to the end")
    tally = pair_tally_of(pairs, policy, str(variant_a), str(variant_b))
    return RuleSetComparison(policy, int(seed_a), rows_a.height, rows_b.height,
                             comparison_from_tally(tally))


def rule_set_blocks(r: RuleSetComparison) -> list:
    """The comparison as report blocks (``report.doc``): a heading, what was paired, and
    the paired findings with A and B the two rule sets."""
    from golfstats.report.doc import Bullets, Heading

    c = r.comparison
    held = (f"Pairs: the {c.n:,} deals of seed {r.seed} that both runs hold"
            + ("" if r.held_a == r.held_b == c.n else
               f" (A holds {r.held_a:,}, B {r.held_b:,})") + ", paired by deal index")
    return [Heading(f"{r.policy}: {c.a} (A) vs {c.b} (B), {c.n:,} paired deals"),
            Bullets((held, *paired_findings(c)))]


def rule_set_table(r: RuleSetComparison) -> pl.DataFrame:
    """One row with every figure, for CSV (``mcnemar_omitted``: why the test is empty)."""
    c = r.comparison
    row = {"policy": r.policy, "seed": r.seed, "rules_a": c.a, "rules_b": c.b,
           "held_a": r.held_a, "held_b": r.held_b}
    row.update({k: v for k, v in c.__dict__.items()
                if k not in ("matches", "clairvoyant", "variant", "a", "b")})
    row["mcnemar_omitted"] = c.mcnemar_omitted() or ""
    return pl.DataFrame([row])
