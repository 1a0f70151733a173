"""Commands ``variants``, ``policies`` and ``deal``: the rule sets, the players, and what a
deal looks like.

Thin by design: parse the options, load boards, call the library, print.  Library
modules that pull in numpy or numba are imported inside the commands so that
``golfstats --help`` stays instant.
"""

from __future__ import annotations

from typing import Annotated

import typer

from golfstats.cli.boards import sources
from golfstats.cli.options import BoardSource, KeyOpt, RuleChoice, board_rules, board_source, fail
from golfstats.cli.output import console, plural, report, style


def variants_command(
    all_: Annotated[bool, typer.Option(
        "--all", help="Also list the canonical id of every valid rule set.")] = False,
) -> None:
    """List the rule sets: variants, aliases, options, and how to combine them."""
    from rich.table import Table

    from golfstats.rules import ALIASES, DESCRIPTIONS, OPTIONS, VARIANTS, all_rule_sets, parse_variant

    con = console()
    table = Table(title="Variants (base names)", title_justify="left")
    table.add_column("variant", style="bold", no_wrap=True)
    table.add_column("aliases")
    table.add_column("rules")
    for name in VARIANTS:
        aliases = ", ".join(a for a, target in ALIASES.items() if target == name)
        table.add_row(name, aliases or "-", DESCRIPTIONS[name])
    con.print(table)
    table = Table(title="Aliases", title_justify="left")
    table.add_column("alias", no_wrap=True)
    table.add_column("variant", style="bold", no_wrap=True)
    for alias, target in ALIASES.items():
        table.add_row(alias, target)
    con.print(table)
    table = Table(title="Options (golf king rules only)", title_justify="left")
    table.add_column("option", style="bold", no_wrap=True)
    table.add_column("command-line flag", no_wrap=True)
    table.add_column("meaning")
    flags = {"jokers1": "--jokers 1", "jokers2": "--jokers 2", "empty-start": "--empty-start",
             "when-stuck": "--draw when-stuck", "dead-queen": "--dead-queen"}
    for token, text in OPTIONS.items():
        table.add_row(token, flags.get(token, ""), text)
    con.print(table)
    example = parse_variant("golf-c+empty-start+jokers2").id
    con.print(
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
        con.print(f"\n[bold]Every valid rule set ({len(ids)}):[/]")
        for rule_id in ids:
            con.print(rule_id, markup=False)


def policies_command() -> None:
    """List the registered policies: what each does, its parameters, honest or clairvoyant."""
    from rich.table import Table

    from golfstats.policies import DEFAULT_POLICIES, REGISTRY

    con = console()
    table = Table(title="Policies (use as --policy NAME or NAME:param=value)", title_justify="left")
    table.add_column("policy", style="bold", no_wrap=True)
    table.add_column("sees")
    table.add_column("what it does")
    table.add_column("parameters")
    for info in REGISTRY.values():
        params = "; ".join(p.describe() for p in info.params) or "-"
        table.add_row(info.name, "what a player sees" if info.honest else "the stock order too",
                      info.description, params)
    con.print(table)
    con.print(f"`golfstats simulate` plays {', '.join(DEFAULT_POLICIES)} when no --policy is given.",
              markup=False)


@board_rules()
@board_source(many=False)
def deal_command(
    rules: RuleChoice,
    boards: BoardSource,
    board_text: Annotated[bool, typer.Option(
        "--board", help="Print board text (the format of docs/rules.md, as files hold it) instead "
                        "of the picture, under a '# rules: ID' line naming the rule set, which "
                        "the commands that read the file take from it.")] = False,
    after: Annotated[int | None, typer.Option(
        "--after", min=0, metavar="N",
        help="The position after the first N moves (plays and draws) of --policy, which "
             "plays the deal as `golfstats play` shows: with --board, a mid-game board for "
             "odds and hint.  Refused when the hand ends sooner, or when the top card means "
             "what board text cannot hold (a dead Queen; a joker played on a card).")] = None,
    policy: Annotated[str | None, typer.Option(
        "--policy", "-p", help="Who plays the --after moves: a registered policy "
                               "(`golfstats policies`), as in `golfstats play` (default "
                               "greedy).", show_default=False)] = None,
    key: KeyOpt = None,
) -> None:
    """Show a deal: a board FILE (every board in it), --seed S --index I, or --pysol N;
    with --after N, the position after N moves of a player.

    On a terminal cards have suit symbols and red suits are red (NO_COLOR turns colour
    off, FORCE_COLOR forces it); piped output writes cards as board text (7S, TH).
    """
    from golfstats.board import format_board, rules_comment
    from golfstats.honest.positions import PositionError, position_after
    from golfstats.policies import PolicyError, parse_policy
    from golfstats.render import board_lines

    try:
        player = parse_policy(policy or "greedy")
    except PolicyError as exc:
        fail(str(exc))
    if after is None and (policy is not None or key is not None):
        fail("--policy and --key choose who plays the --after moves; give --after N")
    con = console()
    card_style = style(con)
    failed = 0
    first = True
    named = None  # the rule set the last '# rules:' line printed names
    for item in sources(rules, boards, many=False):
        if item.error:
            report(item.error)
            failed += 1
            continue
        board, label, rules_here = item.board, item.label, item.rules
        if after is not None:
            try:
                board = position_after(rules_here, board, player, after,
                                       item.key if key is None else key).board
            except PositionError as exc:
                fail(f"{item.label}: {exc}")
            label = f"{item.label} after {plural(after, 'move')} of {player.spec}"
        if not first:
            typer.echo()
        first = False
        if board_text:
            if rules_here != named:
                typer.echo(rules_comment(rules_here), nl=False)
                named = rules_here
            if after is not None:
                typer.echo(f"# {label}")
            typer.echo(format_board(board, rules_here), nl=False)
        else:
            for line in board_lines(board, rules_here, card_style,
                                    title=f"{label} · {rules_here.id}"):
                con.print(line)
    if failed:
        raise typer.Exit(1)
