"""Commands about single deals: ``variants``, ``deal``, ``solve``, ``hint``, ``play``.

Thin by design: parse the options, load boards, call the library, print.  Library
modules that pull in numpy or numba (deals, solver, policies, hint) are imported
inside the commands so that ``golfstats --help`` stays instant.

Boards come from ``cli.boards``: board text FILE(s) ('-' is standard
input), golfstats' seeded deals (``--seed S --index I``) or PySolFC's numbered
deals (``--pysol N``).  Each board gets an id that says where it came from:
``file.txt#2`` (the second board of the file), ``seed:S:I`` or ``pysol:N``.

Exit codes: 0 success; 1 some boards could not be read or solved (the others are
still processed); 2 bad usage (unknown variant or policy, wrong options, ...).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from golfstats.cli import app
from golfstats.cli.boards import check_sources, one_board, sources
from golfstats.cli.common import (
    DeadQueenOpt,
    DrawOpt,
    EmptyStartOpt,
    GoalChoice,
    GoalOpt,
    IndexOpt,
    JokersOpt,
    PysolOpt,
    SeedOpt,
    VariantOpt,
    fail,
    resolve_rules,
)

if TYPE_CHECKING:
    from rich.console import Console

    from golfstats.board import Board
    from golfstats.render import Step, Style
    from golfstats.rules import Rules

MOVES_NOTATION = (
    "Moves in JSON: a play is {\"play\": \"7S\", \"column\": 3} (the card in board text, "
    "the column counted from 1); a draw is {\"draw\": \"9H\"} (the card turned).")

FileArg = Annotated[Path | None, typer.Argument(
    help="Board text file (RULES.md format; '-' reads standard input).", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]
KeyOpt = Annotated[int | None, typer.Option(
    "--key", min=0,
    help="Random key of the random and sampling policies (default: the seeded deal's own "
         "key, as in simulate; 0 for files and PySol deals).")]


# ------------------------------------------------------------------ helpers

def _console() -> Console:
    from rich.console import Console

    return Console(highlight=False, soft_wrap=True)


def _style(console: Console) -> Style:
    from golfstats.render import detect_style

    return detect_style(console)


def _move_json(step: Step) -> dict:
    from golfstats.cards import format_card

    if step.column is None:
        return {"draw": format_card(step.card)}
    return {"play": format_card(step.card), "column": step.column}


def _replay(rules: Rules, board: Board, moves: list[int], label: str) -> list[Step] | None:
    from golfstats.render import replay

    try:
        return replay(rules, board.position(), moves)
    except ValueError as exc:
        _report(f"internal error: {label}: the line does not replay through the reference "
                f"engine ({exc})")
        return None


def _report(message: str) -> None:
    """A one-line error for one board; the command carries on and exits 1 at the end."""
    typer.echo(f"golfstats: error: {message}", err=True)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _outcome(won: bool, strokes: int, stock_left: int, has_stock: bool = True,
             goal_win: bool = False) -> str:
    """The end of a line in words, e.g. ``won with 3 stock cards unturned: -3 strokes``."""
    if won:
        if goal_win:
            how = " (the first win found, not the best)"
        elif has_stock:
            how = f" with {_plural(stock_left, 'stock card')} unturned"
        else:
            how = ""
        return f"won{how}: {_plural(strokes, 'stroke')}"
    if goal_win:
        return f"cannot be won (the line shown leaves {_plural(strokes, 'card')})"
    return f"lost: {_plural(strokes, 'card')} left, {_plural(strokes, 'stroke')}"


# ------------------------------------------------------------------ variants

@app.command("variants")
def variants_command(
    all_: Annotated[bool, typer.Option(
        "--all", help="Also list the canonical id of every valid rule set.")] = False,
) -> None:
    """List the rule sets: variants, aliases, options, and how to combine them."""
    from rich.table import Table

    from golfstats.rules import ALIASES, DESCRIPTIONS, OPTIONS, VARIANTS, all_rule_sets, parse_variant

    console = _console()
    table = Table(title="Variants (base names)", title_justify="left")
    table.add_column("variant", style="bold", no_wrap=True)
    table.add_column("aliases")
    table.add_column("rules")
    for name in VARIANTS:
        aliases = ", ".join(a for a, target in ALIASES.items() if target == name)
        table.add_row(name, aliases or "-", DESCRIPTIONS[name])
    console.print(table)
    table = Table(title="Aliases", title_justify="left")
    table.add_column("alias", no_wrap=True)
    table.add_column("variant", style="bold", no_wrap=True)
    for alias, target in ALIASES.items():
        table.add_row(alias, target)
    console.print(table)
    table = Table(title="Options (golf king rules only)", title_justify="left")
    table.add_column("option", style="bold", no_wrap=True)
    table.add_column("command-line flag", no_wrap=True)
    table.add_column("meaning")
    flags = {"jokers1": "--jokers 1", "jokers2": "--jokers 2", "empty-start": "--empty-start",
             "when-stuck": "--draw when-stuck", "dead-queen": "--dead-queen"}
    for token, text in OPTIONS.items():
        table.add_row(token, flags.get(token, ""), text)
    console.print(table)
    example = parse_variant("golf-c+empty-start+jokers2").id
    console.print(
        "Combine a base name (or alias) with +options: "
        f"[bold]{example}[/], queens-on-kings+dead-queen+when-stuck.\n"
        "The canonical id, which golfstats prints and records in every result, is the base "
        "variant's name followed by its options in the fixed order jokersN, empty-start, "
        f"when-stuck, dead-queen (golf-c+empty-start+jokers2 is {example}); defaults "
        "(jokers0, any-time, a card turned at the start) are left out.\n"
        "The flags --jokers, --empty-start/--card-start, --draw and --dead-queen/--live-queen "
        "override the options of --variant.  black-hole and all-in-a-row take no options.")
    if all_:
        ids = [rules.id for rules in all_rule_sets()]
        console.print(f"\n[bold]Every valid rule set ({len(ids)}):[/]")
        for rule_id in ids:
            console.print(rule_id, markup=False)


# ------------------------------------------------------------------ deal

@app.command("deal")
def deal_command(
    file: FileArg = None,
    variant: VariantOpt = "strict",
    jokers: JokersOpt = None,
    empty_start: EmptyStartOpt = None,
    draw: DrawOpt = None,
    dead_queen: DeadQueenOpt = None,
    seed: SeedOpt = None,
    index: IndexOpt = 0,
    pysol: PysolOpt = None,
    board_text: Annotated[bool, typer.Option(
        "--board", help="Print board text (the RULES.md format, as files hold it) instead of "
                        "the picture.")] = False,
) -> None:
    """Show a deal: a board FILE (every board in it), --seed S --index I, or --pysol N.

    On a terminal cards have suit symbols and red suits are red (NO_COLOR turns colour
    off, FORCE_COLOR forces it); piped output writes cards as board text (7S, TH).
    """
    from golfstats.board import format_board
    from golfstats.render import board_lines

    rules = resolve_rules(variant, jokers, empty_start, draw, dead_queen)
    files = [file] if file is not None else []
    check_sources(files, seed, index, pysol)
    console = _console()
    style = _style(console)
    failed = 0
    first = True
    for item in sources(rules, files, seed, index, 1, pysol, many=False):
        if item.error:
            _report(item.error)
            failed += 1
            continue
        if not first:
            typer.echo()
        first = False
        if board_text:
            typer.echo(format_board(item.board, rules), nl=False)
        else:
            for line in board_lines(item.board, rules, style, title=f"{item.label} · {rules.id}"):
                console.print(line)
    if failed:
        raise typer.Exit(1)


# ------------------------------------------------------------------ solve

@app.command("solve", epilog=MOVES_NOTATION)
def solve_command(
    files: Annotated[list[Path] | None, typer.Argument(
        help="Board text files, each with one or more boards separated by blank lines "
             "('-' reads standard input).", show_default=False)] = None,
    variant: VariantOpt = "strict",
    jokers: JokersOpt = None,
    empty_start: EmptyStartOpt = None,
    draw: DrawOpt = None,
    dead_queen: DeadQueenOpt = None,
    seed: SeedOpt = None,
    index: IndexOpt = 0,
    count: Annotated[int, typer.Option(
        "--count", min=1, help="With --seed: solve K consecutive deals, --index I to I+K-1.")] = 1,
    pysol: PysolOpt = None,
    goal: GoalOpt = GoalChoice.strokes,
    json_out: Annotated[bool, typer.Option(
        "--json", help="One JSON object per board and line: board (its id: file.txt#2, "
                       "seed:S:I, pysol:N), board_text, variant (canonical id), goal, won, "
                       "strokes, stock_left, moves, states, seconds.")] = False,
    show_moves: Annotated[bool, typer.Option(
        "--moves/--no-moves", help="Replay the solution move by move (text output).")] = True,
) -> None:
    """Solve deals exactly (knowing the stock order): optimal strokes, or only winnability.

    With the default goal, a winnable deal is won leaving the most stock cards unturned
    (strokes = minus those); otherwise the line leaves the fewest tableau cards.  A board
    that cannot be read is reported with its file, board number and line, and the
    others are still solved; the exit code is then 1.
    """
    from golfstats.board import format_board
    from golfstats.render import step_line
    from golfstats.solver import solve

    rules = resolve_rules(variant, jokers, empty_start, draw, dead_queen)
    files = files or []
    check_sources(files, seed, index, pysol, count, many=True)
    console = _console()
    style = _style(console)
    goal_win = goal is GoalChoice.win
    has_stock = rules.layout.has_stock
    failed = solved = won = 0
    for item in sources(rules, files, seed, index, count, pysol, many=True):
        if item.error:
            _report(item.error)
            failed += 1
            continue
        try:
            sol = solve(item.board, rules, goal.value)
        except (RuntimeError, ValueError) as exc:
            _report(f"internal error: {item.label}: {exc}")
            failed += 1
            continue
        steps = _replay(rules, item.board, sol.moves, item.label)
        if steps is None:
            failed += 1
            continue
        solved += 1
        won += sol.won
        if json_out:
            record = {"board": item.label, "board_text": format_board(item.board, rules),
                      "variant": rules.id, "goal": goal.value, "won": sol.won,
                      "strokes": sol.strokes, "stock_left": sol.stock_left,
                      "moves": [_move_json(s) for s in steps], "states": sol.states,
                      "seconds": round(sol.seconds, 6)}
            typer.echo(json.dumps(record))
            continue
        if solved > 1:
            console.print()
        console.print(f"[bold]{item.label}[/] · {rules.id} · goal {goal.value}")
        console.print(f"{_outcome(sol.won, sol.strokes, sol.stock_left, has_stock, goal_win)} · "
                      f"{_plural(len(sol.moves), 'move')} · {sol.states:,} states · "
                      f"{sol.seconds:.3f} s", markup=False)
        if show_moves:
            for step in steps:
                console.print(step_line(step, style, stock=has_stock))
    if not json_out and solved + failed > 1:
        console.print(f"\n{_plural(solved, 'board')} solved: {won} won, {solved - won} not won"
                      + (f"; {failed} failed" if failed else ""), markup=False)
    if failed:
        raise typer.Exit(1)


# ------------------------------------------------------------------ hint

@app.command("hint", epilog=MOVES_NOTATION)
def hint_command(
    file: FileArg = None,
    variant: VariantOpt = "strict",
    jokers: JokersOpt = None,
    empty_start: EmptyStartOpt = None,
    draw: DrawOpt = None,
    dead_queen: DeadQueenOpt = None,
    seed: SeedOpt = None,
    index: IndexOpt = 0,
    pysol: PysolOpt = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="One JSON object: board, variant, move (null once the hand is over), "
                       "reason (a code), explanation, won, strokes, stock_left, line (the "
                       "whole optimal line).")] = False,
) -> None:
    """Suggest the next move for a position (often a mid-game board FILE), and why.

    The move is the first of an optimal line from the exact solver, which knows the
    stock order the board gives: if the deal can still be won, the line wins with the
    most stock left; if not, it leaves the fewest cards.  The reason follows a fixed
    rule documented in golfstats/hint.py (keeps the deal winnable; starts the longest
    chain; uncovers a card that is needed; ...).
    """
    from golfstats.hint import hint
    from golfstats.render import card_name, describe_move

    rules = resolve_rules(variant, jokers, empty_start, draw, dead_queen)
    item = one_board(rules, file, seed, index, pysol)
    try:
        result = hint(item.board, rules)
    except RuntimeError as exc:
        _report(f"internal error: {item.label}: {exc}")
        raise typer.Exit(1) from None
    sol = result.solution
    steps = _replay(rules, item.board, sol.moves, item.label)
    if steps is None:
        raise typer.Exit(1)
    if json_out:
        record = {"board": item.label, "variant": rules.id,
                  "move": _move_json(steps[0]) if not result.over else None,
                  "reason": result.reason.value if result.reason else None,
                  "explanation": result.explain(), "won": sol.won, "strokes": sol.strokes,
                  "stock_left": sol.stock_left, "line": [_move_json(s) for s in steps]}
        typer.echo(json.dumps(record))
        return
    console = _console()
    style = _style(console)
    console.print(f"[bold]{item.label}[/] · {rules.id}")
    if result.over:
        console.print(result.explain(), markup=False)
        return
    move = describe_move(result.card, steps[0].column, style)
    move.stylize("bold")
    console.print(move)
    console.print("why: " + result.explain(lambda c: card_name(c, style)), markup=False)
    best = _outcome(sol.won, sol.strokes, sol.stock_left, rules.layout.has_stock)
    console.print(f"best result from here: {best} "
                  f"(a line of {_plural(len(sol.moves), 'move')}; see `golfstats solve`)",
                  markup=False)


# ------------------------------------------------------------------ play

@app.command("play", epilog=MOVES_NOTATION)
def play_command(
    file: FileArg = None,
    variant: VariantOpt = "strict",
    jokers: JokersOpt = None,
    empty_start: EmptyStartOpt = None,
    draw: DrawOpt = None,
    dead_queen: DeadQueenOpt = None,
    seed: SeedOpt = None,
    index: IndexOpt = 0,
    pysol: PysolOpt = None,
    policy: Annotated[str, typer.Option(
        "--policy", "-p",
        help="Who plays: random, greedy, lookahead, sampling or exact (the clairvoyant "
             "solver), with parameters after a colon, e.g. lookahead:depth=2, "
             "sampling:samples=32.")] = "greedy",
    key: KeyOpt = None,
    goal: GoalOpt = GoalChoice.strokes,
    json_out: Annotated[bool, typer.Option(
        "--json", help="One JSON object: board, variant, policy, key, won, strokes, points, "
                       "draws, longest_chain, move_count, states, moves.")] = False,
) -> None:
    """Watch a policy play one deal, move by move, with the running strokes and points.

    Strokes (lower is better) are the cards left, or minus the unturned stock once the
    tableau is clear; points follow RULES.md (10, 15, 20, ... per card of a chain,
    100 + 5 per unturned stock card for clearing).  --goal applies to the exact policy.
    """
    from golfstats.policies import PolicyError, parse_policy, play_board
    from golfstats.render import step_line

    rules = resolve_rules(variant, jokers, empty_start, draw, dead_queen)
    try:
        chosen = parse_policy(policy)
    except PolicyError as exc:
        fail(str(exc))
    item = one_board(rules, file, seed, index, pysol)
    used_key = item.key if key is None else key
    try:
        result = play_board(rules, chosen, item.board, used_key, goal.value)
    except (RuntimeError, ValueError) as exc:
        _report(f"internal error: {item.label}: {exc}")
        raise typer.Exit(1) from None
    steps = _replay(rules, item.board, result.moves, item.label)
    if steps is None:
        raise typer.Exit(1)
    final_points = steps[-1].points if steps else 0
    final_strokes = steps[-1].strokes if steps else item.board.position().cards_left()
    if steps and (final_points, final_strokes) != (result.points, result.strokes):
        _report(f"internal error: {item.label}: the policy's score ({result.strokes} strokes, "
                f"{result.points} points) differs from the reference replay ({final_strokes}, "
                f"{final_points})")
        raise typer.Exit(1)
    if json_out:
        record = {"board": item.label, "variant": rules.id, "policy": chosen.spec,
                  "key": used_key, "won": result.won, "strokes": result.strokes,
                  "points": result.points, "draws": result.draws,
                  "longest_chain": result.longest_chain, "move_count": len(result.moves),
                  "states": result.states, "moves": [_move_json(s) for s in steps]}
        typer.echo(json.dumps(record))
        return
    console = _console()
    style = _style(console)
    console.print(f"[bold]{item.label}[/] · {rules.id} · policy {chosen.spec}")
    for step in steps:
        console.print(step_line(step, style, points=True, stock=rules.layout.has_stock))
    stock_left = len(item.board.stock) - result.draws
    console.print(f"{_outcome(result.won, result.strokes, stock_left, rules.layout.has_stock)}"
                  f" · {result.points} points · {_plural(result.draws, 'draw')} · "
                  f"{_plural(len(result.moves), 'move')} · longest chain {result.longest_chain}",
                  markup=False)
