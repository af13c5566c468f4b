"""Tests of the ``mjfast`` command line (subprocess: exit codes, JSON shapes, errors) and of the
helpers behind ``mjfast stats`` / ``batch`` / ``bench`` (in process, for speed)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mjfast
from mjfast import bench, cli, datagen, stats

ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1")


def run(*args: str, stdin: str | None = None, cwd=None) -> subprocess.CompletedProcess:
    """``python -m mjfast ARGS`` -> CompletedProcess (text)."""
    return subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True,
                          text=True, input=stdin, env=ENV, cwd=cwd, timeout=120)


def run_json(*args: str, **kw) -> dict:
    res = run(*args, "--json", **kw)
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def assert_error(res: subprocess.CompletedProcess, *fragments: str) -> None:
    """Exit status 2 and one line ``mjfast: error: ...`` on stderr, no traceback."""
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1, res.stderr
    assert lines[0].startswith("mjfast: error: "), lines[0]
    for f in fragments:
        assert f in lines[0], (f, lines[0])


# ---------------------------------------------------------------------------------------- help

def test_help_of_every_command_has_an_example():
    res = run("--help")
    assert res.returncode == 0 and "examples:" in res.stdout
    for command in ("analyze", "score", "settle", "stats", "batch", "bench"):
        res = run(command, "--help")
        assert res.returncode == 0, res.stderr
        assert "example" in res.stdout and f"mjfast {command}" in res.stdout


def test_usage_errors_are_one_line():
    assert_error(run(), "COMMAND")
    assert_error(run("nonsense"), "invalid choice")
    assert_error(run("analyze"), "HAND")
    assert_error(run("stats", "--hands", "0"), "--hands")


def test_parser_in_process(capsys):
    parser = cli.build_parser()
    assert parser.parse_args(["stats"]).workers == (os.cpu_count() or 1)  # -1 = all cores
    assert parser.parse_args(["batch", "a.npy", "b.npy", "--workers", "1"]).workers == 1
    assert cli.main(["stats", "--tiles", "12"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mjfast: error: ") and err.count("\n") == 1


# ------------------------------------------------------------------------------------- analyze

def test_analyze_ready_hand_json():
    doc = run_json("analyze", "123m456m789m11p23p")
    assert doc["tiles"] == 13
    assert doc["shanten"] == {"all": 0, "regular": 0, "seven_pairs": 5, "no_void_rule": 0}
    assert doc["waits"] == [{"tile": "1p", "left": 2}, {"tile": "4p", "left": 4}]
    assert doc["effective_count"] == 6
    dj = doc["da_jiao"]
    assert dj["best_wait"] in ("1p", "4p") and dj["fan"] == 0 and dj["payment"] == 1
    assert [w["tile"] for w in dj["waits"]] == ["1p", "4p"]


def test_analyze_complete_size_ranks_discards_and_styles():
    doc = run_json("analyze", "123m456m789m23p55p9s", "--visible", "4p", "--style", "zh")
    assert doc["discards"][0]["tile"] == "9条"
    assert doc["discards"][0]["effective"] == ["1筒", "4筒"]
    assert doc["discards"][0]["effective_count"] == 7  # 4 + 3: one 4p is visible
    assert doc["discards"][0]["da_jiao"]["fan"] == 0
    assert doc["complete"] is False
    text = run("analyze", "123m456m789m23p55p9s")
    assert text.returncode == 0 and "discard" in text.stdout and "9s" in text.stdout


def test_analyze_melds_and_void():
    doc = run_json("analyze", "11223m55p", "--meld", "pung:4m,kong:9m", "--void", "s")
    assert doc["melds"] == ["pung:4m", "kong:9m"] and doc["void_suit"] == "s"
    assert doc["shanten"]["seven_pairs"] == mjfast.UNWINNABLE
    assert [w["tile"] for w in doc["waits"]] == ["3m"]


def test_analyze_bad_hands():
    assert_error(run("analyze", "123z"), "HAND", "position 3")
    assert_error(run("analyze", "123m"), "3 concealed tiles")
    assert_error(run("analyze", "123m456m789m11p23p", "--meld", "chow:1m"), "--meld")
    assert_error(run("analyze", "123m456m789m11p23p", "--void", "x"), "--void")
    assert_error(run("analyze", "123m456m789m11p23p", "--visible", "1111p"), "--visible")


# --------------------------------------------------------------------------------------- score

def test_score_json_and_text():
    doc = run_json("score", "22244455577799m", "--win", "9m")
    assert doc["is_win"] is True and doc["fan"] == 3 and doc["multiplier"] == 8
    assert doc["items"] == [{"name": "qing_dui", "zh": "清对", "fan": 3}]
    assert doc["decomposition"] == "222m 444m 555m 777m 99m"
    # a hand one tile short gets the win tile added
    assert run_json("score", "2224445557779m", "--win", "9m")["fan"] == 3
    doc = run_json("score", "11m234m", "--meld", "kong_concealed:9m", "--meld", "pung:5m",
                   "--meld", "pung:7m", "--win", "1m", "--after-kong", "--rules", "qq")
    assert doc["is_win"] and doc["flags"] == ["after_kong"] and doc["rules"] == "qq"
    text = run("score", "22244455577799m", "--win", "9m", "--style", "unicode")
    assert text.returncode == 0 and "清对" in text.stdout and "3番" in text.stdout


def test_score_not_a_win_and_errors():
    res = run("score", "123m456p789s11s23m4m", "--win", "4m")
    assert res.returncode == 0 and "not a win" in res.stdout
    assert run_json("score", "123m456p789s11s23m4m", "--win", "4m")["is_win"] is False
    assert_error(run("score", "22244455577799m", "--win", "9m", "--self-drawn",
                     "--robbing-kong"), "contradictory")
    assert_error(run("score", "22244455577799m", "--win", "9z"), "--win")
    assert_error(run("score", "22244455577799m", "--win", "9m", "--option", "cap=x"), "cap")
    assert_error(run("score", "22244455577799m", "--win", "9m", "--rules", "tokyo"), "preset")


# -------------------------------------------------------------------------------------- settle

def _round_json() -> tuple[str, list[int]]:
    from mjfast.settlement import PlayerState, Round

    r = Round()
    r.kong(1, "5s", "kong_concealed")
    r.win(0, "6p", from_player=2, hands="234567m11234567p")
    r.draw([None, PlayerState("1379p137999s", melds=["kong_concealed:5s"]),
            PlayerState("4455m1688p22669s"), PlayerState("1112345678999m")])
    return r.to_json(), [int(x) for x in r.net]


def test_settle(tmp_path):
    text, net = _round_json()
    path = tmp_path / "round.json"
    path.write_text(text, encoding="utf-8")
    doc = run_json("settle", str(path))
    assert doc["net"] == net and sum(doc["net"]) == 0
    assert doc["players"] == 4 and doc["winners"] == [0]
    assert {t["reason"] for t in doc["transfers"]} >= {"gang_an", "dian_pao", "hua_zhu"}
    assert all(set(t) >= {"payer", "receiver", "amount", "event"} for t in doc["transfers"])
    res = run("settle", "-", stdin=text)
    assert res.returncode == 0 and "net:" in res.stdout and "查花猪" in res.stdout


def test_settle_errors(tmp_path):
    assert_error(run("settle", str(tmp_path / "missing.json")), "no such file")
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": ', encoding="utf-8")
    assert_error(run("settle", str(bad)), "invalid JSON")
    bad.write_text('{"format": "mjfast.round", "version": 1, "rules": "chengdu", "players": 4, '
                   '"dealer": 0, "events": [{"type": "kong", "player": 9, "tile": "5s", '
                   '"kind": "kong_concealed"}]}', encoding="utf-8")
    assert_error(run("settle", str(bad)), "events[0]")


# --------------------------------------------------------------------------------------- stats

def test_stats_json_shape():
    doc = run_json("stats", "--hands", "20000", "--seed", "3", "--workers", "2")
    assert doc["hands"] == 20000 and doc["tiles"] == 14 and doc["seed"] == 3
    for key in ("void_rule", "no_void_rule"):
        assert sum(doc["shanten"][key].values()) == 20000
        assert 0 <= doc["ready_rate"][key] <= 1
    assert doc["mean_shanten"]["void_rule"] > doc["mean_shanten"]["no_void_rule"]
    assert doc["complete_hands"] == doc["shanten"]["void_rule"].get("-1", 0)
    assert doc["mean_effective"]["kinds"] > 0 and doc["hands_per_s"] > 0
    text = run("stats", "--hands", "5000", "--tiles", "13", "--seed", "1")
    assert text.returncode == 0 and "shanten" in text.stdout and "hands/s" in text.stdout


def test_stats_matches_the_kernels_and_ignores_workers():
    a = cli.run_stats(70_000, 14, seed=5, workers=1)
    b = cli.run_stats(70_000, 14, seed=5, workers=2)
    for key in ("shanten", "ready_rate", "mean_waits", "mean_effective", "complete_hands"):
        assert a[key] == b[key]
    c = cli.run_stats(3_000, 13, seed=9, workers=1)
    hands = stats.chunk_hands(9, 13, n_hands=3_000)  # the hands the run dealt
    s = mjfast.shanten(hands)
    assert c["shanten"]["void_rule"] == {str(k - 1): int(v)
                                         for k, v in enumerate(np.bincount(s + 1)) if v}
    eff = mjfast.effective_tiles(hands)
    assert c["mean_effective"]["tiles"] == pytest.approx(eff[eff > 0].sum() / 3_000)


def test_stats_best_discard_agrees_with_advise():
    """The vectorised best discard of ``stats --tiles 14`` is advise()'s first choice."""
    hands = stats.chunk_hands(4, 14, n_hands=200)  # the hands the run deals
    t = cli.run_stats(200, 14, seed=4, workers=1)
    copies = kinds = 0
    for h in hands:
        best = mjfast.advise(h)[0]
        copies += best.effective_count
        kinds += len(best.effective)
    assert t["mean_effective"]["tiles"] == pytest.approx(copies / 200)
    assert t["mean_effective"]["kinds"] == pytest.approx(kinds / 200)


# --------------------------------------------------------------------------------------- batch

@pytest.fixture(scope="module")
def hands13() -> np.ndarray:
    return np.concatenate([datagen.deal(3000, 13, seed=1), datagen.ready_hands(200, seed=2)])


def test_batch_npy_roundtrip(tmp_path, hands13):
    src = tmp_path / "h.npy"
    np.save(src, hands13)
    res = run("batch", str(src), str(tmp_path / "s.npy"), "--workers", "2")
    assert res.returncode == 0, res.stderr
    assert np.array_equal(np.load(tmp_path / "s.npy"), mjfast.shanten(hands13))
    res = run("batch", str(src), str(tmp_path / "all.npy"), "--what",
              "shanten,waits,effective,max_fan", "--chunk", "1000")
    assert res.returncode == 0, res.stderr
    out = np.load(tmp_path / "all.npy")
    assert out.dtype.names == ("shanten", "waits", "effective", "max_fan")
    assert np.array_equal(out["waits"], mjfast.waits(hands13))
    assert np.array_equal(out["effective"], mjfast.effective_tiles(hands13))
    ready = out["waits"] != 0
    assert (out["max_fan"][~ready] == cli.NOT_READY).all() and (out["max_fan"][ready] >= 0).all()
    i = int(np.flatnonzero(ready)[0])
    from mjfast.scoring import max_fan

    assert out["max_fan"][i] == max_fan(hands13[i]).fan


def test_batch_text_to_csv_and_jsonl(tmp_path):
    src = tmp_path / "hands.txt"
    src.write_text("123m456m789m11p23p\n\n1112345678999m\n123万456筒789筒11筒23筒\n",
                   encoding="utf-8")
    res = run("batch", str(src), str(tmp_path / "o.csv"), "--what", "shanten,waits,max_fan")
    assert res.returncode == 0, res.stderr
    lines = (tmp_path / "o.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "line,shanten,waits,max_fan,error"
    assert lines[1] == "1,0,1p 4p,0,"
    assert lines[2].startswith("3,0,1m 2m 3m") and lines[2].endswith(",3,")
    assert lines[3].startswith("4,0,")
    res = run("batch", str(src), str(tmp_path / "o.jsonl"), "--what", "effective")
    recs = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text(encoding="utf-8").splitlines()]
    assert recs[0] == {"line": 1, "effective": {"1p": 2, "4p": 4}}
    assert [r["line"] for r in recs] == [1, 3, 4]


def test_batch_bad_rows(tmp_path, hands13):
    src = tmp_path / "bad.txt"
    src.write_text("123m456m789m11p23p\n1z\n123m456m789m11p23p4p\n", encoding="utf-8")
    assert_error(run("batch", str(src), str(tmp_path / "o.csv")), "line 2", "honour")
    assert not (tmp_path / "o.csv").exists() and not (tmp_path / "o.csv.part").exists()
    assert_error(run("batch", str(src), str(tmp_path / "o.npy"), "--what", "waits"), "line 2")
    res = run("batch", str(src), str(tmp_path / "o.npy"), "--what", "shanten,waits",
              "--errors", "coerce")
    assert res.returncode == 0 and "2 bad rows" in res.stderr
    out = np.load(tmp_path / "o.npy")
    assert out["shanten"].tolist() == [0, mjfast.INVALID_ROW, -1]
    assert out["waits"].tolist()[1:] == [mjfast.INVALID_MASK, mjfast.INVALID_MASK]
    res = run("batch", str(src), str(tmp_path / "o.jsonl"), "--errors", "coerce")
    recs = [json.loads(x) for x in (tmp_path / "o.jsonl").read_text(encoding="utf-8").splitlines()]
    assert recs[1]["shanten"] is None and "honour" in recs[1]["error"]
    bad = hands13[:5].astype(np.int64)
    bad[3, 4] = 300
    np.save(tmp_path / "bad.npy", bad)
    assert_error(run("batch", str(tmp_path / "bad.npy"), str(tmp_path / "x.npy")), "row 3", "300")


def test_batch_usage_errors(tmp_path, hands13):
    np.save(tmp_path / "h.npy", hands13[:10])
    assert_error(run("batch", str(tmp_path / "missing.npy"), str(tmp_path / "o.npy")),
                 "no such file")
    assert_error(run("batch", str(tmp_path / "h.npy"), str(tmp_path / "o.txt")), ".npy, .csv")
    assert_error(run("batch", str(tmp_path / "h.npy"), str(tmp_path / "o.npy"), "--what", "x"),
                 "--what")
    np.save(tmp_path / "f.npy", np.zeros((3, 27), np.float32))
    assert_error(run("batch", str(tmp_path / "f.npy"), str(tmp_path / "o.npy")), "integer dtype")
    np.save(tmp_path / "w.npy", np.zeros((3, 34), np.uint8))
    assert_error(run("batch", str(tmp_path / "w.npy"), str(tmp_path / "o.npy")), "(N, 27)")


@pytest.mark.parametrize("text", [
    "123m456p789s11s23m", " 123m  456p\t", "1112345678999m", "123万456筒789条1s", "🀇🀈🀉",
    "", "1z", "1230m", "123", "m123", "11111m", "123M", "1 2 3m", "123 m", "123m,4p", "５m",
    "123m\n456m", "\n",  # a newline inside one item (a quoted CSV field) once crashed the join
])
def test_parse_lines_matches_parse_hand(text):
    counts, errors = cli.parse_lines([text.encode("utf-8")])
    try:
        want = mjfast.parse_hand(text)
    except mjfast.TileParseError as exc:
        assert errors == {0: str(exc)}
    else:
        assert errors == {} and np.array_equal(counts[0], want)


@settings(max_examples=300)
@given(st.lists(st.text(alphabet="123456789mps 0z万\t\r\n", max_size=20), min_size=1, max_size=8))
def test_parse_lines_property(texts):
    counts, errors = cli.parse_lines([t.encode("utf-8") for t in texts])
    for i, text in enumerate(texts):
        try:
            want = mjfast.parse_hand(text)
        except mjfast.TileParseError as exc:
            assert errors.get(i) == str(exc)
        else:
            assert i not in errors and np.array_equal(counts[i], want)


def test_batch_csv_field_with_newline(tmp_path):
    src = tmp_path / "h.csv"
    src.write_text('hand\n"123m\n456m789m11p23p",x\n123m456m789m11p23p\n')
    res = run("batch", str(src), str(tmp_path / "o.csv"))
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "o.csv").read_text().splitlines()[1:] == ["2,0,", "4,0,"]


def test_parse_lines_fast_path_bulk():
    hands = datagen.deal(2000, 14, seed=8)
    lines = [mjfast.format_hand(h).encode() for h in hands]
    counts, errors = cli.parse_lines(lines)
    assert errors == {} and np.array_equal(counts, hands)


# --------------------------------------------------------------------------------------- bench

def test_bench_quick_json():
    doc = run_json("bench", "--quick", "--case", "shanten_regular", "--case", "shanten_single")
    names = [r["name"] for r in doc["results"]]
    assert names == ["shanten_regular", "shanten_single"]
    assert all(r["rate"] > 0 for r in doc["results"])
    assert doc["machine"]["OPENBLAS_NUM_THREADS"] == "1"
    assert_error(run("bench", "--case", "nothing"), "--case")


# ------------------------------------------------------------------------------ benchmark data

def test_deal_is_seeded_and_valid():
    a = datagen.deal(40_000, 14, seed=1)
    assert a.dtype == np.uint8 and a.shape == (40_000, 27)
    assert (a.sum(axis=1) == 14).all() and a.max() <= 4
    assert np.array_equal(a, datagen.deal(40_000, 14, seed=1))
    assert not np.array_equal(a, datagen.deal(40_000, 14, seed=2))
    # each kind is 1/27 of the tiles; a quad has probability ~0.6% per hand
    assert np.allclose(a.mean(axis=0), 14 / 27, atol=0.02)
    hand, seen = datagen.deal_split(1000, (13, 20), seed=3)
    assert (hand + seen).max() <= 4 and (seen.sum(axis=1) == 20).all()
    two = datagen.two_suit_hands(500, seed=4)
    assert ((two.reshape(-1, 3, 9).sum(axis=2) > 0).sum(axis=1) <= 2).all()


def test_generated_hands_are_what_they_claim():
    assert (mjfast.shanten(datagen.ready_hands(500, seed=1)) == 0).all()
    hands, tile = datagen.complete_hands(500, seed=2, return_tile=True)
    assert mjfast.is_win(hands).all() and (hands[np.arange(500), tile] > 0).all()


def test_peer_helpers():
    h = datagen.deal(50, 14, seed=5)
    ids = bench.to_136_ids(h)
    assert all(len(x) == 14 and len(set(x)) == 14 for x in ids)
    assert np.array_equal(np.array([[i // 4 for i in x] for x in ids]),
                          np.array([np.repeat(np.arange(27), r) for r in h]))
    c34 = bench.to_34_counts(h)
    assert len(c34[0]) == 34 and c34[0][:27] == h[0].tolist()
    # riichi numbers: never above the regular shanten, equal on hands without pairs
    reg = mjfast.shanten(h, form="regular", void_rule=False)
    assert (bench.riichi_shanten(h) <= reg).all()
    assert bench.run_suite(quick=True, names=["shanten_single"])[0].rate > 0
