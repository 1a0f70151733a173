"""``bench_optimal.py --summarize``: the start set's rows rebuilt from --verbose logs of a
run done in chunks (the lines written by the same ``deal_line`` the run prints)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import bench_optimal  # noqa: E402

line = bench_optimal.deal_line
CHUNK_1 = "\n".join([
    "command: ...",
    line("strict", 1, 0.58, 0, 358, 156, 0.0, float("nan")),
    line("strict", 2, 9.50, 49_406_728, 713, 155, 0.271747, float("nan")),
    "strict           start         2    5.040    5.040     9.50    24,703,364    49,406,728"
    "      713     0  0.1359",
])
CHUNK_2 = "\n".join([
    line("strict", 2, 9.10, 49_406_728, 713, 155, 0.271747, float("nan")),
    line("strict", 3, 20.27, 0, 3657, 152, None, float("nan")),
    line("putt-putt", 1, 5.50, 36_129_264, 624, 303, 0.564160, 2.5),
    "  strict mid #1: 1.0 ms, 10 states",
])


def test_summary_counts_each_deal_once_and_keeps_the_unresolved(tmp_path, capsys):
    paths = []
    for i, text in enumerate((CHUNK_1, CHUNK_2)):
        paths.append(tmp_path / f"chunk{i}.txt")
        paths[-1].write_text(text)
    assert bench_optimal.main(["--summarize", *map(str, paths)]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()
            if line.startswith(("strict ", "putt-putt "))}
    strict = rows["strict"]
    # deals 1-3, deal 2's later line: mean (0.58 + 9.10 + 20.27) / 3, one unresolved,
    # the peak is the unresolved deal's, the win rate over the two resolved
    assert strict[2] == "3" and float(strict[3]) == round((0.58 + 9.10 + 20.27) / 3, 3)
    assert float(strict[5]) == 20.27 and strict[8] == "3657" and strict[9] == "1"
    assert float(strict[10]) == round((0.0 + 0.271747) / 2, 4)
    assert rows["putt-putt"][2] == "1"
