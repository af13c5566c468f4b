"""The command line takes the arguments the Python API takes (checked by mjfast._args) and
words a refusal as the library does, after the option's name; ``mjfast stats`` runs on the
library engine mjfast.stats. In process (``cli.main``) where a subprocess is not the point."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import mjfast
from mjfast import cli, datagen, stats
from mjfast._args import as_rules
from mjfast.errors import InvalidArgumentError

HAND = "123m456m789m11p23p"
HAND14 = "123m456m789m23p55p9s"


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """The message of ``mjfast ARGS``, checked to be one line with exit status 2."""
    code, out, err = run_main(capsys, *args)
    assert code == 2 and out == "", (code, out, err)
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("mjfast: error: "), err
    return err[len("mjfast: error: "):-1]


def library_message(call, *args, **kwargs) -> str:
    """What the library says about a bad argument, without the argument's name."""
    with pytest.raises(InvalidArgumentError) as info:
        call(*args, **kwargs)
    return str(info.value).split(": ", 1)[1]


# ------------------------------------------------------------------------------------ void

@pytest.mark.parametrize(("suit", "spellings"), [
    ("m", ["m", "万", "0"]),
    ("p", ["p", "筒", "饼", "1"]),
    ("s", ["s", "条", "索", "2"]),
])
@pytest.mark.parametrize("hand", [HAND, HAND14])
def test_void_every_spelling_gives_the_same_analysis(capsys, suit, spellings, hand):
    docs = []
    for spelling in spellings:
        code, out, err = run_main(capsys, "analyze", hand, "--void", spelling, "--json")
        assert code == 0, err
        docs.append(json.loads(out))
    assert all(d == docs[0] for d in docs)
    assert docs[0]["void_suit"] == suit
    assert docs[0]["shanten"]["all"] == mjfast.shanten(hand, void_suit=suit)


@pytest.mark.parametrize("none", ["-1", "none", "None"])
def test_void_none_is_no_void(capsys, none):
    _, plain, _ = run_main(capsys, "analyze", HAND, "--json")
    code, out, err = run_main(capsys, "analyze", HAND, "--void", none, "--json")
    assert code == 0, err
    assert json.loads(out) == json.loads(plain)
    assert json.loads(out)["void_suit"] is None


def test_void_spellings_in_batch(tmp_path, capsys):
    hands = datagen.deal(300, 13, seed=3)
    np.save(tmp_path / "h.npy", hands)
    outs = []
    for spelling in ("p", "筒", "1"):
        dst = tmp_path / f"o{len(outs)}.npy"
        code, _, err = run_main(capsys, "batch", str(tmp_path / "h.npy"), str(dst), "--void", spelling)
        assert code == 0, err
        outs.append(np.load(dst))
    assert all(np.array_equal(o, outs[0]) for o in outs)
    assert np.array_equal(outs[0], mjfast.shanten(hands, void_suit="p"))
    # void 0 (m) is a void like any other: it still needs the void rule
    msg = one_line_error(capsys, "batch", str(tmp_path / "h.npy"), str(tmp_path / "x.npy"),
                         "--void", "0", "--no-void-rule")
    assert msg == "--void needs the void rule; drop --no-void-rule"


# ------------------------------------------------------------------------ library wording

@pytest.mark.parametrize("bad", ["x", "3", "-2", "M", "true"])
def test_bad_void_is_worded_by_the_library(capsys, bad):
    value = int(bad) if bad.lstrip("-").isdigit() else bad
    want = library_message(mjfast.shanten, HAND, void_suit=value)
    for command in (["analyze", HAND], ["score", "22244455577799m", "--win", "9m"],
                    ["batch", "in.npy", "out.npy"]):
        assert one_line_error(capsys, *command, "--void", bad) == f"--void: {want}"


@pytest.mark.parametrize("bad", ["0", "-2", "x", "1.5"])
def test_bad_workers_is_worded_by_the_library(capsys, bad):
    value = int(bad) if bad.lstrip("-").isdigit() else bad
    want = library_message(mjfast.shanten, HAND, workers=value)
    assert one_line_error(capsys, "stats", "--workers", bad) == f"--workers: {want}"
    assert one_line_error(capsys, "batch", "a.npy", "b.npy", "--workers", bad) == f"--workers: {want}"


def test_workers_minus_one_is_every_core():
    parser = cli.build_parser()
    assert parser.parse_args(["stats", "--workers", "-1"]).workers == (os.cpu_count() or 1)
    assert parser.parse_args(["stats", "--workers", "3"]).workers == 3


def test_bad_rules_is_worded_by_the_library(capsys):
    want = library_message(as_rules, "xx")
    for command in (["analyze", HAND], ["score", "22244455577799m", "--win", "9m"],
                    ["batch", "a.npy", "b.npy"]):
        assert one_line_error(capsys, *command, "--rules", "xx") == f"--rules: {want}"


def test_rules_presets_and_options(capsys):
    code, out, _ = run_main(capsys, "score", "22244455577799m", "--win", "9m", "--rules", "qq",
                            "--option", "cap=2", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["rules"] == "qq" and doc["multiplier"] == 4 and doc["fan"] < doc["raw_fan"]
    assert "cap" in one_line_error(capsys, "score", "22244455577799m", "--win", "9m",
                                   "--option", "cap=x")
    assert one_line_error(capsys, "analyze", HAND, "--option", "cap").startswith("--option:")


def test_choice_options_are_worded_by_the_library(capsys):
    assert one_line_error(capsys, "analyze", HAND, "--style", "x") == \
        "--style: expected 'mpsz', 'zh' or 'unicode', got 'x'"
    assert one_line_error(capsys, "batch", "a.npy", "b.npy", "--form", "x") == \
        "--form: expected 'all', 'regular' or 'seven_pairs', got 'x'"
    assert one_line_error(capsys, "batch", "a.npy", "b.npy", "--errors", "x") == \
        "--errors: expected 'raise' or 'coerce', got 'x'"
    assert one_line_error(capsys, "stats", "--hands", "0") == "--hands: expected an int >= 1, got 0"
    assert one_line_error(capsys, "stats", "--seed", "-1") == "--seed: expected an int >= 0, got -1"
    assert cli.build_parser().parse_args(["stats", "--hands", "1_000"]).hands == 1000


def test_library_errors_name_the_option(capsys):
    assert one_line_error(capsys, "analyze", HAND, "--visible", "1111p") == \
        "--visible: tile 1p is held and seen 6 times (max 4)"
    assert one_line_error(capsys, "analyze", "11223m55p", "--meld", "kong:1m,pung:1m") == \
        "--meld[1]: kind 1m is melded twice"
    assert one_line_error(capsys, "score", "22244455577799m", "--win", "9z").startswith(
        "--win: position 1 of '9z': honour")


# ------------------------------------------------------------------------------------ stats

def test_run_stats_is_a_library_function():
    assert cli.run_stats is stats.run_stats
    from mjfast.stats import run_stats

    doc = run_stats(1000, 13, seed=2)
    assert doc["hands"] == 1000 and doc["workers"] == 1 and doc["wall"] == 108
    assert run_stats(1000, 13, seed=2)["shanten"] == doc["shanten"]
    calls: list[int] = []
    run_stats(70_000, 14, seed=1, progress=calls.append)
    assert calls == [65_536, 70_000]


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"n_hands": 0}, "n_hands"), ({"n_hands": 10, "tiles": 12}, "tiles"),
    ({"n_hands": 10, "seed": -1}, "seed"), ({"n_hands": 10, "workers": 0}, "workers"),
    ({"n_hands": 1.5}, "n_hands"),
])
def test_run_stats_refuses_bad_arguments(kwargs, name):
    with pytest.raises(InvalidArgumentError, match=f"^{name}: expected"):
        stats.run_stats(**kwargs)


def test_stats_output_shape():
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    res = subprocess.run([sys.executable, "-m", "mjfast", "stats", "--hands", "20000", "--seed", "3"],
                         capture_output=True, text=True, env=env, timeout=120)
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    assert re.fullmatch(r"20,000 random 14-tile hands from the 108-tile wall \(seed 3, \d+ workers?\)",
                        lines[0])
    assert lines[1] == "" and lines[2].split() == ["shanten", "void", "rule", "(缺一门)", "exact", "99%",
                                                   "no", "void", "rule", "exact", "99%"]
    # each rate next to its exact value and whether it lies in the 99% interval (issue 11)
    row = r" *(-1|\d+|unwinnable)( +[\d,]+ +[\d.]+% +[\d.]+% (in|OUT)){2}"
    body = lines[3:lines.index("", 3)]
    assert all(re.fullmatch(row, x) for x in body[:-1]) and body[-1].split()[0] == "mean"
    tail = lines[lines.index("", 3) + 1:]
    assert [x.split(":")[0] for x in tail] == [
        "ready after the best discard (shanten <= 0)", "天胡 (complete dealt hand, void rule)",
        "mean waits of ready hands after the best discard",
        "mean effective tiles after the best discard", "throughput"]
    assert tail[-1].startswith("throughput: 20,000 hands in ") and tail[-1].endswith(" hands/s")


def test_stats_json_keys(capsys):
    code, out, _ = run_main(capsys, "stats", "--hands", "2000", "--tiles", "13", "--seed", "1",
                            "--workers", "1", "--json")
    assert code == 0
    doc = json.loads(out)
    assert list(doc) == ["hands", "tiles", "seed", "workers", "wall", "shanten", "mean_shanten",
                         "ready_rate", "complete_rate", "complete_hands", "ready_hands",
                         "mean_waits", "mean_effective", "seconds", "hands_per_s", "exact"]
    assert doc["complete_rate"] is None and doc["ready_hands"] == doc["shanten"]["void_rule"].get("0", 0)
