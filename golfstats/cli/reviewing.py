"""``golfstats review GAME``: a played game's post-mortem against perfect play without peeking.

The game is the JSON object ``golfstats play --json`` writes (its variant, board_text and
moves).  The command parses, calls ``golfstats.honest.review`` and prints; errors are one line
(exit 1 for a game file that cannot be read or reviewed, 2 for bad usage).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from golfstats.cli.options import (
    DATA_ERROR,
    USAGE_ERROR,
    MaxMemoryOpt,
    ThreadsOpt,
    fail,
    writable_file,
)
from golfstats.cli.output import console, style


def review_command(
    game: Annotated[Path, typer.Argument(
        help="A played game: the JSON object `golfstats play --json` writes ('-': stdin).",
        show_default=False)],
    chart: Annotated[Path | None, typer.Option(
        "--chart", metavar="FILE.png", help="Also draw the chance of winning along the game "
                                            "into this image (matplotlib).")] = None,
    max_memory: MaxMemoryOpt = 4.0,
    threads: ThreadsOpt = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="One JSON object: variant, win_p and expected_strokes at the start, "
                       "won, finished (false for a game that stops while moves remain), "
                       "strokes, given_p, given_e, states, peak_bytes, seconds and moves "
                       # the backslash keeps rich's help from taking [p, e] for markup
                       "(each: number, move, before, chosen, after as \\[p, e], best, cost_p, "
                       "cost_e).")] = False,
) -> None:
    """Review a played game move by move: the chance of winning before and after each
    move, the best move where the choice differed and what it cost (points of win chance,
    expected strokes), and the total given away.

    Values are perfect play without peeking (goal win-strokes, docs/honest-play.md): the
    deal is valued once, and that one table answers every position of the game.  A draw's
    cost is judged before its card is seen; the card it turns is luck, not a choice.
    """
    from golfstats.board import parse_board
    from golfstats.cli.progress import HonestProgress
    from golfstats.honest import GameError, game_from_record, review
    from golfstats.rules import parse_variant

    if chart is not None:
        writable_file(chart, "--chart")
    try:
        text = typer.get_text_stream("stdin").read() if str(game) == "-" else game.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {game}: {getattr(exc, 'strerror', None) or exc}", DATA_ERROR)
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        fail(f"{game}: not a game (JSON error at line {exc.lineno}, column {exc.colno}: "
             f"{exc.msg})", DATA_ERROR)
    try:
        played = game_from_record(record, parse_variant, parse_board)
        with HonestProgress(str(game)) as progress:
            result = review(played, int(max_memory * 1e9), progress, threads)
    except (GameError, ValueError, RuntimeError) as exc:
        fail(f"{game}: {exc}", DATA_ERROR)
    if json_out:
        typer.echo(json.dumps(_record(played.rules.id, result)))
    else:
        _print(played, result)
    if chart is not None:
        from golfstats.atomic import write_atomic
        from golfstats.honest.review import chart as draw

        figure = draw(result)
        kind = chart.suffix.lstrip(".").lower() or "png"
        try:  # whole or not at all: a temporary file, then a rename
            write_atomic(chart, lambda tmp: figure.savefig(tmp, dpi=120, format=kind))
        except OSError as exc:
            fail(f"cannot write --chart {chart}: {exc.strerror or exc}", DATA_ERROR)
        except ValueError as exc:  # a format matplotlib does not write
            fail(f"--chart {chart}: {exc}", USAGE_ERROR)


def _record(variant: str, result) -> dict:
    st = result.odds.stats
    return {"variant": variant, "win_p": result.odds.value.p,
            "expected_strokes": result.odds.value.e, "won": result.won,
            "finished": result.finished, "strokes": result.strokes,
            "given_p": result.given_p, "given_e": result.given_e,
            "states": st.states, "peak_bytes": st.peak_bytes, "seconds": round(st.seconds, 6),
            "moves": [{"number": m.number, "move": m.move, "before": _pair(m.before),
                       "chosen": _pair(m.chosen), "after": _pair(m.after), "best": m.best,
                       "cost_p": m.cost_p, "cost_e": m.cost_e} for m in result.moves]}


def _pair(value) -> list[float]:
    """A value as the record's [p, e]."""
    return [value.p, value.e]


def _print(played, result) -> None:
    from rich.text import Text

    from golfstats.render import describe_move

    con = console()
    card_style = style(con)
    start = result.odds
    con.print(f"[bold]review[/] · {played.rules.id} · perfect play without peeking from the "
              f"start: win {100 * start.value.p:.1f}%, expected strokes "
              f"{start.value.e:.2f}")
    con.print(f"{'':>4} {'move':<24} {'win before':>10} {'after':>7}  cost", markup=False)
    for m in result.moves:
        column = None if m.move < 0 else m.move + 1
        line = Text(f"{m.number:>4} ")
        what = describe_move(m.card, column, card_style)
        what.pad_right(max(0, 24 - len(what.plain)))
        line.append_text(what)
        line.append(f" {100 * m.before.p:>9.1f}% {100 * m.after.p:>6.1f}%")
        if m.differs:
            best = describe_move(m.best_card, None if m.best < 0 else m.best + 1, card_style) \
                if m.best_card is not None else Text("draw")
            line.append(f"  -{100 * m.cost_p:.1f} pts, {m.cost_e:+.2f} strokes; best: ",
                        style="bold red" if m.cost_p > 0 else "yellow")
            line.append_text(best)
        con.print(line)
    if result.won:
        verdict = f"won: {result.strokes} strokes"
    elif result.finished:
        verdict = f"lost: {result.strokes} cards left"
    else:
        verdict = (f"unfinished: the game stops after {len(result.moves)} moves with "
                   f"{result.strokes} cards left and moves still to play")
    costly = sum(m.differs for m in result.moves)
    con.print(f"{verdict} · given away: {100 * result.given_p:.1f} points of win chance, "
              f"{result.given_e:+.2f} expected strokes, in {costly} of {len(result.moves)} "
              f"moves · one table: {start.stats.states:,} states, "
              f"{start.stats.peak_bytes / 1e6:.0f} MB, {start.stats.seconds:.1f} s", markup=False)
