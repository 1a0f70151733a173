"""The opening of results/README.md: one table a screen high (rule set x player: win rate,
par for 9 and 18 holes, the deals each rests on), then the par to print."""

from __future__ import annotations

import polars as pl

from golfstats.policies import LADDER, OPTIMAL, PAR_REFERENCE
from golfstats.report.tables import by_policy, percent

#: The opening table's players, weakest first (random, who never wins, is left to the
#: win-rate table).
PLAYERS = LADDER[1:]
#: Which objective each figure of ``optimal`` uses (one sentence, said under the table).
OBJECTIVES = ("`optimal`'s win rate is perfect play without peeking for the most wins (goal "
              "`win`); its par is the perfect golfer's, who plays for the fewest expected strokes "
              "(goal `strokes`), played out on the same stock orders of the first of the same deals "
              "(the section on perfect play says how many).")


def _cell(row: dict | None, par: dict | None, run: tuple[int, int] | None = None) -> str:
    if row is None or row.get("win_rate") is None:
        return ""
    text = percent(row["win_rate"], 1)
    if par is not None:
        star = "*" if row.get("strokes_goal") == "win" else ""  # goal win's play-outs (for now)
        text += f" · {par['par9']} / {par['par18']}{star}"
    deals = row["n"]
    if run is not None and deals == run[0] < run[1]:  # the row rests on a run not finished
        return f"{text} · {deals:,} of {run[1]:,} (unfinished)"
    if row.get("playouts") and row.get("playout_deals") not in (None, deals):
        return f"{text} · {deals:,} (par: {row['playout_deals']:,})"
    return f"{text} · {deals:,}"


def opening_markdown(full: pl.DataFrame, par_df: pl.DataFrame,
                     unfinished: dict[tuple[str, str], tuple[int, int]] | None = None) -> str:
    """Per rule set, per player: "win rate · par 9 / par 18 · deals" (``full``: the summary
    with the optimum's rows; ``par_df``: every player's par; ``unfinished``: (deals held,
    deals planned) of a (rule set, player)'s run not finished: where its row rests on that
    run, the planned deals are said beside its count)."""
    unfinished = unfinished or {}
    lines = ["| rule set | " + " | ".join(PLAYERS) + " |", "|---|" + "---:|" * len(PLAYERS)]
    for variant in full["variant"].unique(maintain_order=True):
        rows = by_policy(full, variant)
        pars = by_policy(par_df, variant)
        lines.append(f"| {variant} | " + " | ".join(
            _cell(rows.get(p), pars.get(p), unfinished.get((variant, p))) for p in PLAYERS) + " |")
    note = ("\nEach cell: win rate · par for 9 / 18 holes (the median round total) · the deals "
            "it rests on. `exact` sees the stock order (what can be won); the others do not. "
            + OBJECTIVES + " An empty cell: not measured for that rule set (yet).")
    if "strokes_goal" in full.columns and (full["strokes_goal"] == "win").any():
        note += (" \\* This par is still goal `win`'s play-outs (the most wins, strokes ignored "
                 "once a deal is lost), not the perfect golfer's: the ledger holds no goal-strokes "
                 "play-out for that rule set yet" + _none_fitted(full) + ".")
    note += "\n"
    return "\n".join(lines) + "\n" + note


def _none_fitted(full: pl.DataFrame) -> str:
    """Where goal strokes was tried but no table fitted, said (else '')."""
    if "strokes_unresolved" not in full.columns:
        return ""
    tried = full.filter((pl.col("strokes_goal") == "win") & (pl.col("strokes_unresolved") > 0))
    if tried.is_empty():
        return ""
    return (" (" + ", ".join(f"{r['variant']}: none of the {r['strokes_unresolved']} tables tried "
                               "fitted its memory budget" for r in tried.iter_rows(named=True)) + ")")


def par_to_print_markdown(par_df: pl.DataFrame, full: pl.DataFrame | None = None) -> str:
    """The par a designer prints per rule set: the reference player's, with the perfect
    golfer's beside it (no honest player's par is lower, beyond its noise; marked * where
    it is still goal win's play-outs, from ``full``'s ``strokes_goal``)."""
    still_win = set()
    if full is not None and "strokes_goal" in full.columns:
        still_win = set(full.filter(pl.col("strokes_goal") == "win")["variant"].to_list())
    lines = ["| rule set | par 9 holes (95%) | off | par 18 holes (95%) | off | deals | "
             "perfect golfer's par 9 / 18 (95%) | its deals |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for variant in par_df["variant"].unique(maintain_order=True):
        pars = by_policy(par_df, variant)
        ref, best = pars.get(PAR_REFERENCE), pars.get(OPTIMAL)
        if ref is None:
            continue
        floor = f"{par_cell(best, 9)} / {par_cell(best, 18)}" if best else ""
        floor += "*" if best and variant in still_win else ""
        lines.append(f"| {variant} | {par_cell(ref, 9)} | {_off(ref, 9)} | {par_cell(ref, 18)} | "
                     f"{_off(ref, 18)} | {ref['n']:,} | {floor} | {_deals(best)} |")
    return (f"**The par to print** is the reference player's (`{PAR_REFERENCE}`, a steady honest "
            "player run on every deal): a round of deals nobody chose has par = the median of its "
            "round totals. Beside it, the perfect golfer's par: no honest player can beat it. "
            "Each par has its 95% interval from a bootstrap over whole deals (2,000 resamples; a "
            "valued deal's stock orders are resampled with it, never one by one); off: how often "
            "a resample's par is not the printed one.\n\n"
            + "\n".join(lines) + "\n" + _floor_markdown(par_df, still_win))


#: The honest players the perfect golfer's par is held to (it can be no higher than theirs).
HELD_TO = ("sampling", PAR_REFERENCE)


def _floor_markdown(par_df: pl.DataFrame, still_win: set) -> str:
    """Per rule set with the perfect golfer's par (goal strokes): is it at or below each
    honest player's of ``HELD_TO``, and where it is above, within the noise of its deals
    (its 95% interval reaching theirs)?  Else it says so, as a fault to look into."""
    lines = []
    for variant in par_df["variant"].unique(maintain_order=True):
        pars = by_policy(par_df, variant)
        best = pars.get(OPTIMAL)
        if best is None or variant in still_win:
            continue
        said = []
        for holes in (9, 18):
            for policy in (p for p in HELD_TO if p in pars):
                theirs, ours, low = pars[policy][f"par{holes}"], best[f"par{holes}"], best[f"par{holes}_low"]
                verdict = ("at or below" if ours <= theirs else
                           f"{ours - theirs} above, within the noise of its deals (its interval "
                           f"reaches {theirs})" if low <= theirs else
                           f"{ours - theirs} above, beyond the noise of its deals: a fault to look into")
                said.append(f"{holes} holes {ours} against {policy}'s {theirs}: {verdict}")
        lines.append(f"- {variant}: " + "; ".join(said) + ".")
    if not lines:
        return ""
    return ("\nThe perfect golfer's par held to the honest players' (no honest player's par can be "
            "lower, beyond the noise of the perfect golfer's deals):\n\n" + "\n".join(lines) + "\n")


def par_cell(row: dict, holes: int) -> str:
    """A par with its 95% interval: ``70 (69-71)`` (``-4 (-9..1)`` where an end is negative)."""
    low, high = row[f"par{holes}_low"], row[f"par{holes}_high"]
    dash = "-" if low >= 0 else ".."
    return f"{row[f'par{holes}']} ({low}{dash}{high})"


def _deals(row: dict | None) -> str:
    return f"{row['n']:,}" if row else ""


def _off(row: dict, holes: int) -> str:
    p = row[f"p_off{holes}"]
    return f"{100 * p:.0f}%" if p == 0 or p >= 0.01 else "<1%"
