"""Issue 15: ``mjfast settle`` and ``mjfast score --option`` answer hostile input with one line
and exit 2, never a traceback or a wrapped ledger (subprocess)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from mjfast.rules import MAX_AMOUNT, MAX_FAN, Rules, rules_to_json
from mjfast.settlement import Round

ENV = dict(os.environ, OPENBLAS_NUM_THREADS="1")
HAND = "123456789m11p234p"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mjfast", *args], capture_output=True,
                          text=True, input=stdin, env=ENV, timeout=120)


def assert_one_line_error(res: subprocess.CompletedProcess, *fragments: str) -> str:
    assert res.returncode == 2, (res.returncode, res.stdout[-500:], res.stderr[-2000:])
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mjfast: error: "), res.stderr[-2000:]
    assert len(lines[0]) < 500, lines[0][:500]
    for f in fragments:
        assert f in lines[0], (f, lines[0])
    return lines[0]


def log(**changes) -> dict:
    """A short valid round log (one concealed kong), with top-level keys replaced."""
    r = Round()
    r.kong(1, "5s", "kong_concealed")
    doc = json.loads(r.to_json())
    doc.update(changes)
    return doc


def settle(tmp_path, doc: dict | str, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "round.json"
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return run("settle", str(path), *args)


@pytest.mark.parametrize("rules, fragment", [
    ([1], "rules"),
    (7, "rules"),
    ({"preset": "chengdu", "overrides": {"base_fan": [1, 2]}}, "base_fan"),
    ({"preset": "chengdu", "overrides": {"concealed_kong": 2**62}}, "concealed_kong"),
    ({"preset": "chengdu", "overrides": {"concealed_kong": 10**30}}, "concealed_kong"),
    ({"preset": "chengdu", "overrides": {"hua_zhu": 2**63}}, "hua_zhu"),
    ({"preset": "qq", "overrides": {"root_fan": 10**10}}, "root_fan"),
    ({"preset": "chengdu", "overrides": {"base_fan": {"QING_YI_SE": 2 * 10**10}}}, "QING_YI_SE"),
    ({"preset": "qq", "overrides": {"root_fan": 12}}, "cap"),
])
def test_settle_bad_rules(tmp_path, rules, fragment):
    assert_one_line_error(settle(tmp_path, log(rules=rules)), "round.json", fragment)


def test_settle_deeply_nested_json(tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    for text in (json.dumps(log(events=[])).replace('"events": []', f'"events": {deep}'),
                 json.dumps(log()).replace('"rules": {', f'"rules": {deep}, "x": {{'),
                 deep):
        assert_one_line_error(settle(tmp_path, text), "round.json", "nested")


def test_settle_huge_numbers(tmp_path):
    digits = "9" * 5000  # past Python's int parsing limit
    text = json.dumps(log(players=0)).replace('"players": 0', f'"players": {digits}')
    assert_one_line_error(settle(tmp_path, text), "round.json")
    doc = log()
    doc["events"][0]["player"] = 10**4000
    assert_one_line_error(settle(tmp_path, doc), "round.json", "player")


def test_settle_from_stdin_nested():
    assert_one_line_error(run("settle", "-", stdin="[" * 100_000), "nested")


def test_settle_worst_allowed_amounts_are_exact(tmp_path):
    rules = Rules(concealed_kong=MAX_AMOUNT, exposed_kong=MAX_AMOUNT, cap=MAX_FAN)
    r = Round(rules)
    r.kong(0, "1m", "kong_concealed")
    r.kong(1, "2m", "kong", from_player=2)
    doc = json.loads(r.to_json())
    assert doc["rules"] == rules_to_json(rules)
    res = settle(tmp_path, doc, "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["net"] == [3 * MAX_AMOUNT, 0, -2 * MAX_AMOUNT, -MAX_AMOUNT]
    assert out["net"] == r.net.tolist() and sum(out["net"]) == 0


@pytest.mark.parametrize("options, fragment", [
    (["root_fan=10000000000"], "root_fan"),
    (["cap=none", "root_fan=12"], "cap"),
    (["cap=none", "men_qing=49"], "men_qing"),
    (["concealed_kong=281474976710657"], "concealed_kong"),
    (["hua_zhu=99999999999999999999999999"], "hua_zhu"),
    (["cap=49", "root_fan=48"], "cap"),
    (["fan_display_offset=1000000000000"], "fan_display_offset"),
])
def test_score_option_out_of_bounds(options, fragment):
    args = [x for o in options for x in ("--option", o)]
    assert_one_line_error(run("score", HAND, "--win", "4p", *args), "--option", fragment)


def test_score_option_at_the_bounds():
    res = run("score", "55m", "--win", "5m", "--meld",
              "kong_concealed:1m,kong_concealed:2m,kong_concealed:3m,kong_concealed:4m",
              "--self-drawn", "--option", "cap=none", "--option", "root_fan=10",
              "--option", "gang_shang_hua=0", "--option", "gang_shang_pao=0",
              "--option", "qiang_gang_hu=0", "--json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["multiplier"] == 2 ** (3 + 40)
