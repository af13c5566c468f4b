"""``--sets N`` on the command line (analyze, score, batch): the short hands of the 5- and
6-player tables, answered as the library answers them, and the refusals of bad values."""

from __future__ import annotations

import json

import numpy as np

import mjfast
from mjfast.scoring import batch as fan_batch
from mjfast.tiles import parse_hand
from tests.cli.test_cli import assert_error, run, run_json


def test_analyze_short_hand():
    doc = run_json("analyze", "123m456m11p23p", "--sets", "3")
    assert doc["sets"] == 3 and doc["tiles"] == 10
    assert doc["shanten"] == {"all": 0, "regular": 0, "seven_pairs": 127, "no_void_rule": 0}
    assert [w["tile"] for w in doc["waits"]] == ["1p", "4p"]
    assert doc["da_jiao"]["fan"] == 0


def test_analyze_short_complete_hand_ranks_discards():
    doc = run_json("analyze", "123m11p23p9s", "--sets", "2")
    assert doc["tiles"] == 8 and doc["discards"][0]["tile"] == "9s"
    assert doc["discards"][0]["shanten"] == 0


def test_score_short_hand():
    doc = run_json("score", "222m444m55m", "--win", "5m", "--sets", "2")
    assert (doc["sets"], doc["raw_fan"], doc["decomposition"]) == (2, 3, "222m 444m 55m")
    doc = run_json("score", "222m444m5m", "--win", "5m", "--sets", "2")  # win tile added
    assert doc["hand"] == "22244455m"


def test_bad_sets_and_sizes():
    assert_error(run("analyze", "123m456m11p23p", "--sets", "5"), "--sets", "from 2 to 4")
    assert_error(run("analyze", "123m456m11p23p", "--sets", "x"), "--sets")
    assert_error(run("analyze", "123m456m789m11p23p", "--sets", "2"), "HAND", "7 or 8",
                 "--sets 2")
    assert_error(run("score", "123m456m789m11p22p", "--win", "1m", "--sets", "3"), "expected 11")


def test_batch_short_hands(tmp_path):
    hands = np.stack([parse_hand("123m456m11p23p"), parse_hand("1112345m789p")])
    src, dst = tmp_path / "hands.npy", tmp_path / "out.jsonl"
    np.save(src, hands)
    res = run("batch", str(src), str(dst), "--sets", "3", "--what", "shanten,waits,max_fan")
    assert res.returncode == 0, res.stderr
    rows = [json.loads(line) for line in dst.read_text().splitlines()]
    assert [r["shanten"] for r in rows] == mjfast.shanten(hands, sets=3).tolist()
    assert [r["max_fan"] for r in rows] == fan_batch.max_fan(hands, sets=3).tolist()
