"""CLI tests for the game commands (variants, policies, deal, solve, play); hints: test_hint.py.

Every command is run through ``typer.testing.CliRunner``; every kind of bad input
must end in one ``golfstats: error: ...`` line on stderr and a non-zero exit code.
Outputs are checked against the library (reference engine, solver, deals), not
only for not crashing.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import typer
from conftest import PYSOL_1
from typer.testing import CliRunner

from golfstats.board import format_board, parse_board, parse_boards
from golfstats.cards import format_card
from golfstats.cli import app
from golfstats.engine import DRAW, score_moves
from golfstats.rules import ALIASES, OPTIONS, VARIANTS, all_rule_sets, parse_variant

runner = CliRunner()


def run(*args: str, input: str | None = None, env: dict | None = None):
    return runner.invoke(app, list(args), input=input, env=env)


def ok(*args: str, **kw):
    result = run(*args, **kw)
    assert result.exit_code == 0, (result.stdout, result.stderr, result.exception)
    return result


def error(*args: str, needle: str = "", code: int | None = None, **kw) -> str:
    """Run a command that must fail with one ``golfstats: error:`` line; returns that line."""
    result = run(*args, **kw)
    assert result.exit_code != 0, result.stdout
    if code is not None:
        assert result.exit_code == code
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("golfstats: error: "), lines[0]
    assert "Traceback" not in result.output
    assert needle.lower() in lines[0].lower(), lines[0]
    return lines[0]


def board_file(tmp_path, text: str, name: str = "board.txt"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def decode_moves(moves: list[dict]) -> list[int]:
    return [DRAW if "draw" in m else m["column"] - 1 for m in moves]


def check_line(rules, board, moves: list[dict]) -> None:
    """JSON moves name the very cards the reference engine moves."""
    pos = board.position()
    from golfstats.engine import apply

    for m in moves:
        if "draw" in m:
            assert m["draw"] == format_card(pos.stock[0])
            pos = apply(rules, pos, DRAW)
        else:
            assert format_card(pos.tableau[m["column"] - 1][-1]) == m["play"]
            pos = apply(rules, pos, m["column"] - 1)


# ------------------------------------------------------------------ help

def test_help_is_light():
    """`golfstats --help` must not import the heavy libraries (numba, polars, matplotlib)."""
    code = ("import sys, golfstats.cli; "
            "print(','.join(m for m in ('numba', 'polars', 'matplotlib') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("command", ["variants", "deal", "solve", "hint", "play"])
def test_every_option_has_help(command):
    group = typer.main.get_command(app)
    cmd = group.commands[command]
    assert cmd.help
    for param in cmd.params:
        assert getattr(param, "help", None), f"{command}: {param.name} has no help text"
    assert ok(command, "--help").stdout


def test_json_move_notation_is_documented():
    for command in ("solve", "hint", "play"):
        assert '"column": 3' in ok(command, "--help").stdout


# ------------------------------------------------------------------ variants

def test_variants_lists_everything():
    out = ok("variants").stdout
    for name in [*VARIANTS, *ALIASES, *OPTIONS]:
        assert name in out, name
    assert "putt-putt+jokers2+empty-start" in out
    assert "canonical id" in out


def test_variants_all_lists_every_rule_set():
    out = ok("variants", "--all").stdout
    for rules in all_rule_sets():
        assert rules.id in out


# ------------------------------------------------------------------ deal

#: The line `deal --board` writes above its boards: the rule set they are of.
STRICT_HEAD = "# rules: strict\n"


def test_deal_pysol_1_board_is_the_rules_example():
    assert ok("deal", "--pysol", "1", "--board").stdout == STRICT_HEAD + PYSOL_1


def test_deal_seeded_board_matches_the_library():
    from golfstats.deals import seeded_board

    rules = parse_variant("putt-putt+jokers2")
    out = ok("deal", "--seed", "7", "--index", "3", "--variant", "putt-putt", "--jokers", "2",
             "--board").stdout
    assert out == "# rules: putt-putt+jokers2\n" + format_board(seeded_board(rules, 7, 3), rules)
    assert len(out.splitlines()[1].split()) == 1 + 18  # Talon: + 16 cards + 2 jokers


def test_deal_rule_options_apply():
    out = ok("deal", "--pysol", "1", "--board", "--empty-start").stdout
    assert out.splitlines()[0] == "# rules: strict+empty-start"
    assert out.splitlines()[2] == "Foundations: -"
    assert out.splitlines()[1] == "Talon: TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
    out = ok("deal", "--pysol", "5", "--variant", "black-hole", "--board").stdout
    assert out.splitlines()[1] == "Foundations: AS" and len(out.splitlines()) == 2 + 17


def test_deal_file_round_trips_and_shows_every_board(tmp_path):
    two = PYSOL_1 + "\n# a comment\n" + ok("deal", "--pysol", "2", "--board").stdout
    path = board_file(tmp_path, two)
    out = ok("deal", path, "--board").stdout
    rules = parse_variant("strict")
    assert parse_boards(out, rules) == parse_boards(two, rules)
    assert out.count("# rules:") == 1  # said once, above the boards it names
    assert ok("deal", "-", "--board", input=PYSOL_1).stdout == STRICT_HEAD + PYSOL_1
    picture = ok("deal", path).stdout
    assert f"{path}#1" in picture and f"{path}#2" in picture


def test_deal_picture_plain_when_piped():
    out = ok("deal", "--pysol", "1").stdout
    assert "pysol:1" in out and "strict" in out
    assert "Foundation  TH" in out
    assert "Cards left  35" in out
    assert "\x1b[" not in out and "\u2665" not in out  # no colour, letters
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split() == list("1234567"))
    assert lines[header + 1].split() == ["JD", "2D", "9H", "JC", "5D", "7H", "7C"]
    assert lines[header + 5].split() == ["4H", "AC", "4D", "7S", "3S", "TD", "4S"]


def test_deal_picture_symbols_and_colour_on_a_terminal():
    terminal = {"FORCE_COLOR": "1", "NO_COLOR": None, "TERM": "xterm-256color"}
    out = ok("deal", "--pysol", "1", env=terminal).stdout
    assert "10\u2665" in out  # TH with its suit symbol
    assert "\x1b[" in out and "31m" in out  # red suits are red
    out = ok("deal", "--pysol", "1", env={**terminal, "NO_COLOR": "1"}).stdout
    assert "10\u2665" in out and "31m" not in out  # NO_COLOR: symbols, no colour


def test_deal_mid_game_file_with_empty_columns(tmp_path):
    text = "Talon: KS\nFoundations: 5C\n7D 6H\n-\n-\n-\n-\n-\n-\n"
    path = board_file(tmp_path, text)
    assert ok("deal", path, "--board").stdout == STRICT_HEAD + text
    out = ok("deal", path).stdout
    assert "Cards left  2" in out


# ------------------------------------------------------------------ solve

def test_solve_pysol_1_human_replays_in_words():
    out = ok("solve", "--pysol", "1").stdout
    assert "pysol:1 · strict" in out
    assert "lost: 6 cards left, 6 strokes" in out
    assert "   1. draw 8H" in out
    assert "play 7S from column 4" in out
    assert "draw 8H" not in ok("solve", "--pysol", "1", "--no-moves").stdout


def test_solve_json_records_replay_through_the_engine():
    from golfstats.deals import seeded_board

    out = ok("solve", "--seed", "3", "--index", "1023", "--count", "3", "--variant", "putt-putt",
             "--json").stdout
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["board"] for r in records] == ["seed:3:1023", "seed:3:1024", "seed:3:1025"]
    rules = parse_variant("putt-putt")
    for r in records:
        assert {"board", "variant", "won", "strokes", "stock_left", "moves", "states",
                "seconds"} <= r.keys()
        assert r["variant"] == "putt-putt"
        board = seeded_board(rules, 3, int(r["board"].rsplit(":", 1)[1]))
        assert parse_board(r["board_text"], rules) == board
        check_line(rules, board, r["moves"])
        outcome = score_moves(rules, board.position(), decode_moves(r["moves"]))
        assert (outcome.won, outcome.strokes) == (r["won"], r["strokes"])
        if r["won"]:
            assert r["strokes"] == -r["stock_left"]


def test_solve_pysol_range_goal_and_variant_options():
    out = ok("solve", "--pysol", "2-4", "--json", "--goal", "win", "--variant", "golf-c").stdout
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["board"] for r in records] == ["pysol:2", "pysol:3", "pysol:4"]
    assert {r["goal"] for r in records} == {"win"} and {r["variant"] for r in records} == {"putt-putt"}
    out = ok("solve", "--seed", "1", "--json", "--variant", "queens-on-kings", "--dead-queen",
             "--draw", "when-stuck").stdout
    assert json.loads(out)["variant"] == "queens-on-kings+when-stuck+dead-queen"


def test_solve_reports_bad_boards_and_solves_the_rest(tmp_path):
    bad = PYSOL_1.replace("QS", "ZZ", 1)
    good = board_file(tmp_path, PYSOL_1 + "\n" + bad + "\n" + PYSOL_1, "three.txt")
    other = board_file(tmp_path, PYSOL_1, "one.txt")
    missing = str(tmp_path / "missing.txt")
    result = run("solve", good, missing, other, "--json")
    assert result.exit_code == 1
    boards = [json.loads(line)["board"] for line in result.stdout.splitlines()]
    assert boards == [f"{good}#1", f"{good}#3", f"{other}#1"]
    lines = result.stderr.strip().splitlines()
    errors = [line for line in lines if not line.startswith("golfstats: note: ")]
    assert len(lines) == 4 and len(errors) == 2  # and one note per file read: no rule set named
    assert errors[0].startswith(f"golfstats: error: {good}: board 2, line 11: 'ZZ' is not a card")
    assert errors[1].startswith(f"golfstats: error: cannot read {missing}")
    text = run("solve", good, "--no-moves")
    assert text.exit_code == 1 and "2 boards solved: 0 won, 2 not won; 1 failed" in text.stdout


def test_solve_stdin_and_stockless_game():
    out = ok("solve", "-", "--json", input=PYSOL_1).stdout
    assert json.loads(out)["board"] == "<stdin>#1"
    out = ok("solve", "--pysol", "3", "--variant", "all-in-a-row").stdout
    assert "won: 0 strokes" in out and "stock" not in out.split("\n", 3)[2]


# ------------------------------------------------------------------ play

def test_play_json_matches_the_library_and_the_engine():
    from golfstats.deals import pysol_board
    from golfstats.policies import parse_policy, play_board

    rules = parse_variant("strict")
    board = pysol_board(rules, 1)
    record = json.loads(ok("play", "--pysol", "1", "--json").stdout)
    expected = play_board(rules, parse_policy("greedy"), board, 0)
    assert record["policy"] == "greedy" and record["variant"] == "strict"
    for key in ("won", "strokes", "points", "draws", "longest_chain"):
        assert record[key] == getattr(expected, key), key
    assert decode_moves(record["moves"]) == list(expected.moves)
    check_line(rules, board, record["moves"])
    outcome = score_moves(rules, board.position(), decode_moves(record["moves"]))
    assert (outcome.strokes, outcome.points, outcome.draws) == (
        record["strokes"], record["points"], record["draws"])


def test_play_human_shows_running_score():
    out = ok("play", "--pysol", "1", "--policy", "lookahead").stdout
    assert "policy lookahead" in out
    assert "   1. draw 8H" in out and "points" in out and "strokes" in out
    assert "longest chain" in out.splitlines()[-1]


def test_play_exact_equals_solve_and_seeded_key_is_used():
    from golfstats.deals import seeded_deals

    rules = parse_variant("putt-putt")
    exact = json.loads(ok("play", "--seed", "4", "--index", "2", "--variant", "putt-putt",
                          "--policy", "exact", "--json").stdout)
    solved = json.loads(ok("solve", "--seed", "4", "--index", "2", "--variant", "putt-putt",
                           "--json").stdout)
    assert exact["strokes"] == solved["strokes"] and exact["policy"] == "exact"
    args = ("play", "--seed", "4", "--index", "2", "--policy", "random", "--json")
    first = json.loads(ok(*args).stdout)
    assert first["key"] == int(seeded_deals(rules, 4, 2, 1).keys[0])
    again = json.loads(ok(*args).stdout)
    first.pop("seconds"), again.pop("seconds")  # the same play, in its own time
    assert again == first
    assert json.loads(ok(*args, "--key", "5").stdout)["key"] == 5


def test_play_file_and_policy_parameters(tmp_path):
    path = board_file(tmp_path, PYSOL_1)
    record = json.loads(ok("play", path, "--policy", "lookahead:depth=2", "--json").stdout)
    assert record["board"] == f"{path}#1" and record["policy"] == "lookahead:depth=2"


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("command", ["deal", "solve", "hint", "play"])
def test_rule_errors(command):
    error(command, "--pysol", "1", "--variant", "nope", needle="unknown variant 'nope'", code=2)
    error(command, "--pysol", "1", "--variant", "strict+foo", needle="unknown option 'foo'")
    error(command, "--pysol", "1", "--variant", "strict+dead-queen", needle="dead-queen")
    error(command, "--pysol", "1", "--variant", "black-hole", "--jokers", "1", needle="golf only")
    error(command, "--pysol", "1", "--jokers", "1", needle="jokers need seeded deals")


@pytest.mark.parametrize("command", ["deal", "solve", "hint", "play"])
def test_source_errors(command, tmp_path):
    path = board_file(tmp_path, PYSOL_1)
    error(command, needle="say which deal", code=2)
    error(command, path, "--pysol", "1", needle="only one board source")
    error(command, "--seed", "1", "--pysol", "1", needle="only one board source")
    error(command, "--pysol", "1", "--index", "3", needle="--index needs --seed")
    for bad in ("abc", "0", "-3", "99999999999", "1-x"):
        error(command, "--pysol", bad, needle="--pysol" if bad in ("abc", "-3", "1-x") else "1 to")
    if command == "solve":
        error(command, "--pysol", "5-2", needle="runs backwards")
        error(command, "--pysol", "1", "--count", "2", needle="--count needs --seed")
        error(command, "-", "-", needle="only once", input=PYSOL_1)
    else:
        error(command, "--pysol", "1-3", needle="one deal number")


@pytest.mark.parametrize("command", ["deal", "solve", "hint", "play"])
def test_file_errors(command, tmp_path):
    missing = tmp_path / "missing.txt"
    error(command, str(missing), needle=f"cannot read {missing}")
    error(command, str(tmp_path), needle=f"cannot read {tmp_path}")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00\x81" * 10)
    error(command, str(binary), needle="not a UTF-8 text file")
    empty = board_file(tmp_path, "# nothing here\n\n", "empty.txt")
    error(command, empty, needle="no board found")


@pytest.mark.parametrize("text, where, what", [
    (PYSOL_1.replace("QS", "ZZ", 1), "board 1, line 1", "'ZZ' is not a card"),
    (PYSOL_1.replace("JD 5H KH AS 4H\n", ""), "board 1, line 8", "7 columns, this board has 6"),
    (PYSOL_1.replace("4S\n", "8H\n"), "board 1, line 9", "duplicate card: 8H"),
    (PYSOL_1.split("\n", 1)[1], "board 1, line 1", "expected the Talon: line"),
    ("\n\n" + PYSOL_1.replace("TD\n", "3S\n"), "board 1, line 10", "duplicate card: 3S"),
])
@pytest.mark.parametrize("command", ["deal", "solve", "hint", "play"])
def test_malformed_board_names_the_line(command, tmp_path, text, where, what):
    path = board_file(tmp_path, text)
    line = error(command, path, needle=what)
    assert f"{path}: {where}" in line


def test_one_board_commands_refuse_several(tmp_path):
    path = board_file(tmp_path, PYSOL_1 + "\n" + PYSOL_1)
    for command in ("hint", "play"):
        error(command, path, needle="holds more than one board")


def test_policy_errors():
    error("play", "--pysol", "1", "--policy", "clever", needle="unknown policy 'clever'", code=2)
    error("play", "--pysol", "1", "--policy", "lookahead:depth=9", needle="between 1 and 2")
    error("play", "--pysol", "1", "--policy", "greedy:x=1", needle="no parameter 'x'")
    error("play", "--pysol", "1", "--policy", "lookahead:depth", needle="needs a value")


@pytest.mark.parametrize("args", [
    ["deal", "--pysol", "1", "--jokers", "3"],
    ["deal", "--pysol", "1", "--draw", "sometimes"],
    ["solve", "--seed", "x"],
    ["solve", "--seed", "1", "--count", "0"],
    ["play", "--pysol", "1", "--bogus"],
])
def test_option_type_errors_exit_2_without_traceback(args):
    """Values that fail the options' own types are refused by the parser (exit 2)."""
    result = run(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output


BOARD_COMMANDS = ("solve", "odds", "hint", "play", "deal")


@pytest.mark.parametrize("command", BOARD_COMMANDS)
def test_exit_codes_are_the_same_in_every_command(tmp_path, command):
    """README, "Exit codes": invalid data (a malformed board file, an unreadable one) exits
    1, a usage error (an unknown variant, a missing board source) exits 2, from every
    command that reads boards."""
    bad = board_file(tmp_path, "Talon: 8H 2C\nFoundations: TH\nJD 5H KH XX 4H\n")
    error(command, str(bad), needle="board 1", code=1)
    error(command, str(tmp_path / "missing.txt"), needle="cannot read", code=1)
    error(command, str(bad), "--variant", "nope", needle="unknown variant", code=2)
    error(command, needle="say which deal", code=2)


def test_simulate_refuses_a_goal_no_policy_takes(tmp_path):
    error("simulate", "-p", "optimal", "--goal", "win", "-n", "2", "--out", str(tmp_path / "r"),
          needle="optimal:goal", code=2)
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("command", [*BOARD_COMMANDS, "simulate", "course", "compare", "report",
                                     "par", "study", "variants", "policies"])
def test_help_never_cuts_a_word_short(command):
    """At 80 columns every option's help wraps whole (rich cuts a too-long word with an
    ellipsis: a default or an example that cannot be read)."""
    result = runner.invoke(app, [command, "--help"], env={"COLUMNS": "80"}, terminal_width=80)
    assert result.exit_code == 0, result.output
    assert "\u2026" not in result.output


@pytest.mark.parametrize("command", [None, *BOARD_COMMANDS, "simulate", "course", "compare", "report",
                                     "par", "study", "variants", "policies"])
def test_help_shows_no_type_beside_a_flag(command):
    """Typer's rich help prints each option's type, <bool> beside a flag (--help included),
    as if it took a value: cli.options.Command and Group leave a flag's type out."""
    result = runner.invoke(app, [*([command] if command else []), "--help"], terminal_width=100)
    assert result.exit_code == 0, result.output
    assert "--help" in result.output and "<bool>" not in result.output
    if command == "simulate":
        assert "<int range>" in result.output  # options that take a value keep their type


@pytest.mark.parametrize("command", ["deal", "solve", "odds", "hint", "play", "simulate", "course"])
def test_one_default_variant_in_every_command(command):
    """README, "Options": --variant defaults to strict in every command that makes deals
    (None in the signature, resolved to rules.DEFAULT_VARIANT; simulate --resume takes the
    run's), and its help says so."""
    from golfstats.rules import DEFAULT_VARIANT

    click_command = typer.main.get_command(app).commands[command]
    variant = next(p for p in click_command.params if p.name == "variant")
    assert variant.default is None and DEFAULT_VARIANT == "strict"
    assert f"Default: {DEFAULT_VARIANT}, in every command" in variant.help
    if command in BOARD_COMMANDS:  # and, for a board file, the file's own rule set
        assert "'# rules: ID' line" in variant.help


def test_the_default_variant_is_the_one_played():
    assert "pysol:1 · strict" in ok("deal", "--pysol", "1").stdout
    assert json.loads(ok("solve", "--pysol", "1", "--json").stdout)["variant"] == "strict"


# ------------------------------------------------------------------ house rules in the file

HOUSE = "putt-putt+jokers1+when-stuck"


@pytest.fixture(scope="module")
def house_file(tmp_path_factory):
    """The issue's case: a mid-game board of a house rule, as `deal --board` writes it."""
    out = ok("deal", "-v", HOUSE, "--seed", "2026", "--after", "15", "--board").stdout
    assert out.startswith(f"# rules: {HOUSE}\n# seed:2026:0 after 15 moves of greedy\nTalon:")
    path = tmp_path_factory.mktemp("house") / "f"
    path.write_text(out)
    bare = path.with_name("bare")  # the same board without its rule set
    bare.write_text("".join(line for line in out.splitlines(True) if not line.startswith("#")))
    return path, bare


@pytest.mark.parametrize("command, extra", [("hint", ()), ("odds", ()), ("solve", ("--no-moves",)),
                                            ("play", ())])
def test_a_board_file_carries_its_rule_set(house_file, command, extra):
    path, bare = house_file
    named = ok(command, str(path), "--json", *extra)
    assert json.loads(named.stdout.splitlines()[0])["variant"] == HOUSE
    assert "note" not in named.stderr  # the file names its rule set: nothing to say
    told = ok(command, str(bare), "--json", "-v", HOUSE, *extra)
    strip = {"board", "seconds", "states", "peak_bytes", "peak_rss_bytes"}  # measured, not values
    record, wanted = (json.loads(r.stdout.splitlines()[0]) for r in (named, told))
    assert {k: v for k, v in record.items() if k not in strip} == \
        {k: v for k, v in wanted.items() if k not in strip}
    again = ok(command, str(path), "--json", "-v", HOUSE, "--jokers", "1", *extra)  # repeating it
    assert json.loads(again.stdout.splitlines()[0])["variant"] == HOUSE
    line = error(command, str(path), "-v", "strict", code=2)
    assert f"names the rule set {HOUSE}" in line and "-v strict says strict" in line


def test_hint_of_the_house_board_is_the_house_rules_answer(house_file):
    path, bare = house_file
    house = ok("hint", str(path)).stdout
    assert house.startswith(f"{path}#1 · {HOUSE} · honest")
    strict = ok("hint", str(bare))  # no rule set in the file: strict, and said once
    assert strict.stdout.startswith(f"{bare}#1 · strict · honest")
    notes = strict.stderr.strip().splitlines()
    assert len(notes) == 1 and notes[0].startswith(f"golfstats: note: {bare} names no rule set")
    assert house.splitlines()[-1] != strict.stdout.splitlines()[-1]  # other rules, other odds


def test_odds_labels_the_honest_odds_and_the_clairvoyant_verdict(house_file):
    out = ok("odds", str(house_file[0]), "--goal", "win").stdout
    assert "honest odds, the stock order unknown: win " in out
    assert "clairvoyant, knowing this board's Talon order: " in out


def test_rules_lines_apply_to_the_boards_after_them(tmp_path):
    text = (f"# rules: {HOUSE}\n" + PYSOL_1 + "\n# rules: queens-on-kings\n" + PYSOL_1
            + "\n# rules: nope\n" + PYSOL_1)
    result = run("solve", board_file(tmp_path, text), "--json", "--goal", "win")
    assert result.exit_code == 1
    assert [json.loads(line)["variant"] for line in result.stdout.splitlines()] == [
        HOUSE, "queens-on-kings"]
    assert "board 3, line 23: '# rules: nope': unknown variant" in result.stderr
    out = ok("deal", board_file(tmp_path, text.rsplit("\n# rules: nope", 1)[0]), "--board").stdout
    assert out.count("# rules:") == 2  # a deal of the file says each rule set where it starts


def test_a_file_is_answered_board_by_board(tmp_path, monkeypatch):
    """The first board is answered before the rest of the file is read: a stream."""
    import contextlib
    import pathlib

    from golfstats.cli.boards import file_boards
    from golfstats.cli.options import RuleChoice

    def lines():
        yield from PYSOL_1.splitlines(True)
        yield "\n"
        raise AssertionError("read past the first board before answering it")

    monkeypatch.setattr(pathlib.Path, "open",
                        lambda self, encoding=None: contextlib.nullcontext(lines()))
    first = next(file_boards(RuleChoice(variant="strict"), tmp_path / "stream.txt"))
    assert first.board is not None and first.label == f"{tmp_path / 'stream.txt'}#1"


def test_a_course_file_carries_its_rule_set(tmp_path):
    path = tmp_path / "course.txt"
    ok("course", "--variant", "putt-putt+jokers1", "--seed", "3", "--boards", str(path))
    solved = ok("solve", str(path), "--json", "--goal", "win")
    records = [json.loads(line) for line in solved.stdout.splitlines()]
    assert len(records) == 9 and {r["variant"] for r in records} == {"putt-putt+jokers1"}
    assert "note" not in solved.stderr
