"""Commands about single deals: ``solve``, ``hint`` and ``play``.

Boards come from ``cli.boards`` (FILE, ``--seed``/``--index``, ``--pysol``); each gets an
id that says where it came from: ``file.txt#2``, ``seed:S:I`` or ``pysol:N``.  JSON
records are the result types' ``to_record()`` plus the board, the variant and the moves.

Exit codes: 0 success; 1 some boards could not be read or solved (the others are
still processed); 2 bad usage (unknown variant or policy, wrong options, ...).
"""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer

from golfstats.cli.boards import one_board, sources
from golfstats.cli.options import (
    BoardSource,
    GoalOpt,
    KeyOpt,
    RuleChoice,
    ThreadsOpt,
    board_rules,
    board_source,
    fail,
)
from golfstats.cli.output import (
    console,
    move_json,
    outcome,
    plural,
    replay,
    report,
    style,
)
from golfstats.goals import Goal
from golfstats.rules import Rules


@board_rules()
@board_source(many=True)
def solve_command(
    rules: RuleChoice,
    boards: BoardSource,
    goal: GoalOpt = Goal.STROKES,
    json_out: Annotated[bool, typer.Option(
        "--json", help="One JSON object per board and line: board (its id: file.txt#2, "
                       "seed:S:I, pysol:N), board_text, variant (canonical id), goal, won, "
                       "strokes, stock_left, points, draws, longest_chain, n_moves, states, "
                       "seconds, resolved, moves.")] = False,
    show_moves: Annotated[bool, typer.Option(
        "--moves/--no-moves", help="Replay the solution move by move (text output).")] = True,
) -> None:
    """Solve deals exactly (knowing the stock order): optimal strokes, or only winnability.

    With the default goal, a winnable deal is won leaving the most stock cards unturned
    (strokes = minus those); otherwise the line leaves the fewest tableau cards.  A board
    that cannot be read is reported with its file, board number and line, and the
    others are still solved; the exit code is then 1.  A Black Hole or All in a Row deal
    whose search reaches its state budget is reported unresolved, never as lost.
    """
    from golfstats.board import format_board
    from golfstats.cli.progress import Activity
    from golfstats.render import step_line
    from golfstats.solver import solve

    con = console()
    card_style = style(con)
    goal_win = goal is Goal.WIN
    choice = rules
    failed = solved = won = unresolved = 0
    for item in sources(choice, boards, many=True):
        if item.error:
            report(item.error)
            failed += 1
            continue
        rules = item.rules
        has_stock = rules.layout.has_stock
        try:
            with Activity(f"solving {item.label}"):
                line = solve(item.board, rules, goal.value)
        except (RuntimeError, ValueError) as exc:
            report(f"internal error: {item.label}: {exc}")
            failed += 1
            continue
        steps = replay(rules, item.board, line.moves, item.label)
        if steps is None:
            failed += 1
            continue
        solved += 1
        won += line.won
        unresolved += not line.resolved
        if json_out:
            record = {"board": item.label, "board_text": format_board(item.board, rules),
                      "variant": rules.id, "goal": goal.value, **line.to_record(),
                      "moves": [move_json(s) for s in steps]}
            typer.echo(json.dumps(record))
            continue
        if solved > 1:
            con.print()
        con.print(f"[bold]{item.label}[/] · {rules.id} · goal {goal.value}")
        verdict = outcome(line.won, line.strokes, line.stock_left, has_stock, goal_win)
        if not line.resolved:
            verdict = (f"unresolved: the search reached its state budget; the best line found "
                       f"leaves {plural(line.strokes, 'card')}")
        con.print(f"{verdict} · {plural(line.n_moves, 'move')} · {line.states:,} states · "
                  f"{line.seconds:.3f} s", markup=False)
        if show_moves:
            for step in steps:
                con.print(step_line(step, card_style, stock=has_stock))
    if not json_out and solved + failed > 1:
        con.print(f"\n{plural(solved, 'board')} solved: {won} won, {solved - won - unresolved} "
                  f"not won" + (f", {unresolved} unresolved" if unresolved else "")
                  + (f"; {failed} failed" if failed else ""), markup=False)
    if failed:
        raise typer.Exit(1)


HonestGoalOpt = Annotated[Goal, typer.Option(
    "--goal", help="win: the largest win probability alone (fast; no expected strokes); "
                   "win-strokes: the largest win probability, ties by fewer expected strokes "
                   "(where nothing can be won, the chain leaving the fewest cards); strokes: "
                   "the fewest expected strokes.  See docs/honest-play.md.")]


MaxStatesOpt = Annotated[int | None, typer.Option(
    "--max-states", min=1, help="State budget per board: the states the computation values "
                                "(goals win: known before its long pass starts).  A board that "
                                "needs more is reported unresolved, never approximated.  "
                                "Default: no limit but --max-memory.")]


@board_rules()
@board_source(many=True)
def odds_command(
    rules: RuleChoice,
    boards: BoardSource,
    goal: HonestGoalOpt = Goal.WIN_STROKES,
    max_states: MaxStatesOpt = None,
    max_memory: Annotated[float, typer.Option(
        "--max-memory", min=0.01, metavar="GB",
        help="Memory budget of the whole process, in GB: the honest tables get what the process does not "
             "already hold (the interpreter, numba, polars and the kernels, loaded: about 0.25 GB; a budget "
             "below that is refused).  The first pass stops as soon as its rows are over the budget; reach's "
             "rows are checked after their pass, which may exceed it before the deal is reported "
             "unresolved.  Goal win's layers go to files in TMPDIR where only a step's part fits; goal "
             "strokes sizes its values once its list of states is whole.")] = 4.0,
    threads: ThreadsOpt = None,
    json_out: Annotated[bool, typer.Option(
        "--json", help="One JSON object per board: board, variant, goal, win_p, expected_strokes "
                       "(null under --goal win), resolved, states, bytes_estimate (the kernel's "
                       "count of its tables' bytes), peak_rss_bytes (the process's peak resident "
                       "set, measured), disk_bytes (the layers of p kept in files: 0 unless over "
                       "--max-memory), partial (goal strokes: its list of states stopped at the "
                       "budget), seconds, clairvoyant_won, clairvoyant_strokes.")] = False,
) -> None:
    """The exact odds of a deal for a player who cannot see the stock.

    Per board: the win probability (win_p) and the expected strokes of perfect play
    without peeking, over every order of the stock (the order in the board's Talon line
    is ignored), and beside them the clairvoyant verdict (the exact solver, which knows
    the order), each labelled.  --goal win computes the chance of winning alone: much faster and in less
    memory.  Black Hole and All in a Row hide nothing: their odds are the exact solver's
    verdict.  A computation of more than a second or two shows its passes on the terminal
    (stderr).
    """
    from golfstats.cli.progress import HonestProgress
    from golfstats.honest import load_kernels, odds, resident
    from golfstats.solver import solve

    con = console()
    choice = rules
    failed = unresolved = 0
    for item in sources(choice, boards, many=True):
        if item.error:
            report(item.error)
            failed += 1
            continue
        rules = item.rules
        seer = solve(item.board, rules)
        load_kernels(item.board, rules, goal)
        floor = resident()[0]  # the process before the tables: what the budget cannot go under
        if max_memory * 1e9 <= floor:
            fail(f"--max-memory {max_memory:g} GB is below this process's floor, "
                 f"{floor / 1e9:.2f} GB resident before any table (the interpreter, numba, "
                 f"polars and the kernels); give more than {floor / 1e9:.2f}")
        try:
            with HonestProgress(item.label) as progress:
                value = odds(item.board, rules, goal, max_states=max_states,
                             process_bytes=int(max_memory * 1e9), progress=progress, threads=threads)
        except (RuntimeError, ValueError) as exc:
            report(f"internal error: {item.label}: {exc}")
            failed += 1
            continue
        unresolved += not value.resolved
        if json_out:
            typer.echo(json.dumps({"board": item.label, "variant": rules.id, **value.to_record(),
                                   "clairvoyant_won": seer.won,
                                   "clairvoyant_strokes": seer.strokes}))
            continue
        has_stock = rules.layout.has_stock
        verdict = outcome(seer.won, seer.strokes, seer.stock_left, has_stock)
        seen = (f"clairvoyant, knowing this board's Talon order: {verdict}" if has_stock else
                f"exact solver: {verdict}")
        st = value.stats
        if value.resolved:
            honest = ("honest odds, the stock order unknown: " if has_stock else "") + \
                f"win {100 * value.value.p:.2f}%"
            if not math.isnan(value.value.e):
                honest += f", expected strokes {value.value.e:.3f}"
        elif st.disk_error:
            honest = f"unresolved: no room for its layers of values on disk ({st.disk_error})"
        else:
            more = "more than " if st.partial else ""  # goal strokes' list cut at the budget
            need = f"{more or 'tables of '}{st.peak_bytes / 1e9:.2f} GB, {more}" if st.peak_bytes else ""
            honest = (f"unresolved: needs {need}{st.states:,} states (budget "
                      f"{max_memory:g} GB" + (f", {max_states:,} states)" if max_states else ")"))
        disk = f" · layers on disk, {st.disk_bytes / 1e9:.1f} GB" if st.disk_bytes else ""
        peak = f" · peak {value.peak_rss_bytes / 1e9:.2f} GB resident" if value.peak_rss_bytes else ""
        con.print(f"{item.label} · {rules.id} · {honest} · {seen} · {st.states:,} states{disk} · "
                  f"{st.seconds:.2f} s{peak}", markup=False)
    if failed or unresolved:
        raise typer.Exit(1)


@board_rules()
@board_source(many=False)
def hint_command(
    rules: RuleChoice,
    boards: BoardSource,
    goal: HonestGoalOpt = Goal.WIN_STROKES,
    peek: Annotated[bool, typer.Option(
        "--peek", help="The clairvoyant hint instead: the exact solver's next move, knowing "
                       "the stock order the board gives.")] = False,
    json_out: Annotated[bool, typer.Option(
        "--json", help="One JSON object: board, variant, goal, win_p, expected_strokes, "
                       "resolved, states, reason (a code), explanation and moves (every legal "
                       "move, best first, each with its win_p and expected_strokes).  With "
                       "--peek: board, variant, move, reason, explanation, won, strokes, "
                       "stock_left, line.")] = False,
    threads: ThreadsOpt = None,
) -> None:
    """What to play now in a position (often a mid-game board FILE), and why.

    By default the hint is honest: every legal move now (each play, and the draw) with the
    win chance and the expected strokes of perfect play without peeking after it, best
    first, and a one-line reason.  It reads the stock only as a multiset, so the order of
    the board's Talon never changes it.  --peek gives the exact solver's next move, which
    knows the order.  The rules of both are in golfstats/honest/hint.py and golfstats/solver.py.
    In Black Hole and All in a Row nothing is hidden, and the hint is the exact solver's.
    """
    item = one_board(rules, boards)
    rules = item.rules
    if peek or not rules.layout.has_stock:
        _clairvoyant_hint(rules, item, json_out)
        return
    from rich.text import Text

    from golfstats.cli.progress import HonestProgress
    from golfstats.honest import honest_hint
    from golfstats.render import describe_move

    try:
        with HonestProgress(item.label) as progress:
            result = honest_hint(item.board, rules, goal, progress=progress, threads=threads)
    except (RuntimeError, ValueError) as exc:
        report(f"internal error: {item.label}: {exc}")
        raise typer.Exit(1) from None
    moves = [{"move": _honest_move_json(v), "win_p": v.value.p,
              "expected_strokes": None if math.isnan(v.value.e) else v.value.e}
             for v in result.moves]
    if json_out:
        typer.echo(json.dumps({"board": item.label, "variant": rules.id, **result.to_record(),
                               "moves": moves}))
        raise typer.Exit(0 if result.odds.resolved else 1)
    con = console()
    card_style = style(con)
    con.print(f"[bold]{item.label}[/] · {rules.id} · honest, goal {goal.value}")
    if result.over:
        con.print(result.explanation, markup=False)
        raise typer.Exit(0 if result.odds.resolved else 1)
    for k, v in enumerate(result.moves):
        what = Text("draw") if v.card is None else describe_move(v.card, v.move + 1, card_style)
        what.pad_right(max(0, 24 - len(what.plain)))
        what.append(f"  win {100 * v.value.p:5.1f}%" + ("" if math.isnan(v.value.e) else
                                                        f"   expected strokes {v.value.e:6.2f}"))
        if k == 0:
            what.stylize("bold")
        con.print(what)
    con.print("why: " + result.explanation, markup=False)
    here = result.odds
    strokes = "" if math.isnan(here.value.e) else f", expected strokes {here.value.e:.2f}"
    con.print(f"this position: win {100 * here.value.p:.1f}%{strokes} ({here.stats.states:,} states)",
              markup=False)


def _honest_move_json(value) -> dict:
    from golfstats.cards import format_card

    if value.card is None:
        return {"draw": None}
    return {"play": format_card(value.card), "column": value.move + 1}


def _clairvoyant_hint(rules: Rules, item, json_out: bool) -> None:
    from golfstats.render import card_name, describe_move
    from golfstats.solver import clairvoyant_hint

    try:
        result = clairvoyant_hint(item.board, rules)
    except RuntimeError as exc:
        report(f"internal error: {item.label}: {exc}")
        raise typer.Exit(1) from None
    line = result.solution
    steps = replay(rules, item.board, line.moves, item.label)
    if steps is None:
        raise typer.Exit(1)
    if json_out:
        record = {"board": item.label, "variant": rules.id, **result.to_record(),
                  "move": move_json(steps[0]) if not result.over else None,
                  "line": [move_json(s) for s in steps]}
        typer.echo(json.dumps(record))
        return
    con = console()
    card_style = style(con)
    con.print(f"[bold]{item.label}[/] · {rules.id} · clairvoyant (knows the stock order)")
    if result.over:
        con.print(result.explain(), markup=False)
        return
    move = describe_move(result.card, steps[0].column, card_style)
    move.stylize("bold")
    con.print(move)
    con.print("why: " + result.explain(lambda c: card_name(c, card_style)), markup=False)
    best = outcome(line.won, line.strokes, line.stock_left, rules.layout.has_stock)
    con.print(f"best result from here: {best} "
              f"(a line of {plural(line.n_moves, 'move')}; see `golfstats solve`)", markup=False)


@board_rules()
@board_source(many=False)
def play_command(
    rules: RuleChoice,
    boards: BoardSource,
    policy: Annotated[str, typer.Option(
        "--policy", "-p",
        help="Who plays: a registered policy (`golfstats policies` lists them), with "
             "parameters after a colon, e.g. lookahead:depth=2, sampling:samples=32.")] = "greedy",
    key: KeyOpt = None,
    goal: GoalOpt = Goal.STROKES,
    json_out: Annotated[bool, typer.Option(
        "--json", help="One JSON object: board, board_text, variant, policy, key, won, strokes, "
                       "stock_left, points, draws, longest_chain, n_moves, states, seconds, "
                       "resolved, moves (a game `golfstats review` reads).")] = False,
) -> None:
    """Watch a policy play one deal, move by move, with the running strokes and points.

    Strokes (lower is better) are the cards left, or minus the unturned stock once the
    tableau is clear; points follow docs/rules.md (10, 15, 20, ... per card of a chain,
    100 + 5 per unturned stock card for clearing).  --goal applies to the clairvoyant
    solver (exact).
    """
    from golfstats.cli.progress import Activity
    from golfstats.policies import PolicyError, parse_policy, play_board
    from golfstats.render import step_line

    try:
        chosen = parse_policy(policy)
    except PolicyError as exc:
        fail(str(exc))
    item = one_board(rules, boards)
    rules = item.rules
    used_key = item.key if key is None else key
    try:
        with Activity(f"playing {item.label} with {chosen.spec}"):
            line = play_board(rules, chosen, item.board, used_key, goal)
    except (RuntimeError, ValueError) as exc:
        report(f"internal error: {item.label}: {exc}")
        raise typer.Exit(1) from None
    steps = replay(rules, item.board, line.moves, item.label)
    if steps is None:
        raise typer.Exit(1)
    if json_out:
        from golfstats.board import format_board

        record = {"board": item.label, "board_text": format_board(item.board, rules),
                  "variant": rules.id, "policy": chosen.spec, "key": used_key,
                  **line.to_record(), "moves": [move_json(s) for s in steps]}
        typer.echo(json.dumps(record))
        return
    con = console()
    card_style = style(con)
    con.print(f"[bold]{item.label}[/] · {rules.id} · policy {chosen.spec}")
    for step in steps:
        con.print(step_line(step, card_style, points=True, stock=rules.layout.has_stock))
    con.print(f"{outcome(line.won, line.strokes, line.stock_left, rules.layout.has_stock)}"
              f" · {line.points} points · {plural(line.draws, 'draw')} · "
              f"{plural(line.n_moves, 'move')} · longest chain {line.longest_chain}", markup=False)
