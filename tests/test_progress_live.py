"""What a long simulate shows while it plays: the chunk (and, for a slow player, the deal)
each worker is on and for how long; and the live win rate rounded as the final table."""

from __future__ import annotations

import re

import numpy as np
import pytest
from pty_run import golfstats, run_on_pty

from golfstats.cli.simulate import _pct
from golfstats.policies import parse_policy
from golfstats.rules import RULES_VERSION, parse_variant
from golfstats.sim import Chunk
from golfstats.sim import work as sim_work
from golfstats.sim.plan import RunSpec
from golfstats.sim.progress import SHOW_AFTER, RunProgress, percent

#: The worker line of the bar, e.g. "worker 0: chunk 0 (deals 0-19999) · lookahead for 3 s".
WORKER_LINE = r"worker \d+: chunk \d+ \(deals \d+-\d+\) · {policy}{deal} for \d+ (s|min)"


def test_the_live_rate_rounds_as_the_final_table():
    """The table prints ``100 * win_rate`` with two decimals, win_rate = wins / n; the
    live line once printed 100 * wins / n, which rounds otherwise (2.75 against 2.76)."""
    for n in (20_000, 4_000, 886, 7):
        for w in range(n + 1):
            assert percent(w, n) == _pct(w / n), (w, n)
    bar = RunProgress(20_000, 0, "strict", enabled=False, policies=("greedy",))
    bar.count((551,), (20_000,))
    assert bar.rates()[0].split()[1] == _pct(551 / 20_000) + "%"


def test_the_bar_names_what_each_worker_is_on():
    bar = RunProgress(8, 0, "strict", enabled=False, policies=("optimal",))
    chunk = Chunk(0, 0, 2)
    bar.playing(1, chunk, "optimal", 1)
    bar.playing(0, Chunk(1, 2, 4), "optimal")
    now = bar._doing[1][3]
    later = bar._doing[0][3]  # worker 0 was told after worker 1
    assert bar.doing(now + SHOW_AFTER / 2) == []  # quick work goes unnamed
    assert bar.doing(later + 65.5) == [
        "  worker 0: chunk 1 (deals 2-3) · optimal for 1 min 05 s",
        "  worker 1: chunk 0 (deals 0-1) · optimal · deal 1 for 1 min 05 s"]
    bar.playing(1, chunk, "optimal", 1)  # told again: the clock keeps running
    assert bar._doing[1][3] == now
    bar.playing(1, chunk, "optimal", 2)  # the next deal: its own clock
    assert bar._doing[1][3] > now
    bar.playing(1, None)  # the chunk is done
    assert all("worker 1" not in line for line in bar.doing(later + 65))


def test_deal_by_deal_play_makes_the_same_rows(monkeypatch):
    rules = parse_variant("strict")
    spec = RunSpec(rules, (parse_policy("greedy"), parse_policy("lookahead")), 7, "strokes", "t",
                   RULES_VERSION, "", ())
    chunk = Chunk(0, 10, 16)
    whole = sim_work.play_chunk(spec, chunk)
    told = []
    monkeypatch.setattr(sim_work, "DEAL_BY_DEAL", 0.0)  # every player counts as slow here
    by_deal = sim_work.play_chunk(spec, chunk, lambda c, p, d: told.append((c.index, p, d)))
    assert whole.drop("seconds").equals(by_deal.drop("seconds"))
    assert told == [(0, p, d) for p in ("greedy", "lookahead") for d in range(10, 16)]
    monkeypatch.setattr(sim_work, "DEAL_BY_DEAL", 1e9)  # a fast player: told once a chunk
    told.clear()
    sim_work.play_chunk(spec, chunk, lambda c, p, d: told.append((c.index, p, d)))
    assert told == [(0, "greedy", None), (0, "lookahead", None)]
    assert np.array_equal(whole["deal_index"].to_numpy(), by_deal["deal_index"].to_numpy())


def test_a_long_chunk_is_named_on_the_terminal(tmp_path):
    """A chunk of 20,000 lookahead deals takes seconds: the bar names it while it plays."""
    line = WORKER_LINE.format(policy="lookahead", deal="")
    run = run_on_pty(golfstats("simulate", "-v", "strict", "-n", "40000", "-p", "lookahead",
                               "--chunk-size", "20000", "--workers", "1", "--out",
                               str(tmp_path / "run")), interrupt_when=line)
    assert re.search(line, run.text), run
    assert run.code in (0, 130) and "Traceback" not in run.text, run


@pytest.mark.slow
def test_the_deal_of_a_slow_player_is_named_on_the_terminal(tmp_path):
    """The issue's case: `simulate -p optimal -n 8` named no deal for minutes."""
    line = WORKER_LINE.format(policy="optimal", deal=r" · deal \d+")
    run = run_on_pty(golfstats("simulate", "-p", "optimal", "-n", "8", "--out",
                               str(tmp_path / "run")), timeout=1800, interrupt_when=line)
    assert re.search(line, run.text), run
    assert run.code in (0, 130) and "Traceback" not in run.text, run
