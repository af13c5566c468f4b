"""Fuzz: the command line in process (``mjfast.cli.main([...])``) with hostile options, values
and files. Every run returns 0, or 2 with exactly one line ``mjfast: error: ...`` on stderr;
it never raises (``--help`` / ``--version`` exit 0 through argparse, as they should)."""

from __future__ import annotations

import io
import json
import os
import sys
import tempfile
from contextlib import redirect_stderr, redirect_stdout
from typing import Any
from unittest import mock

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from mjfast import cli
from tests.fuzz.hostile import FUZZ, TEXTS, arrays, pick, time_limit
from tests.fuzz.test_fuzz_round_json import LOGS, RAW

WORDS = pick([t for t in TEXTS if len(t) < 1000 and "\x00" not in t] + [
    "-1", "0", "1", "2", "13", "14", "15", "nan", "inf", "1e3", "1_000", " 5", "５", "0x10",
    "99999999999999999999", "-99999999999999999999", "1" * 5000, "none", "None", "true",
    "--", "-", "=", "--json", "--help=x", "chengdu", "qq", "house", "m", "p", "s", "3",
    "shanten", "waits,effective", "max_fan,max_fan", "shanten,", ",", "all", "raise", "coerce",
    "unicode", "zh", "mpsz"]) | st.text(max_size=12)
FIELD = st.sampled_from(["cap", "root_fan", "hua_zhu", "self_draw", "si_jiao", "base_fan",
                         "name", "exposed_kong", "fan", "", "cap ", "CAP"])
OPTION_VALUE = st.builds(lambda f, sep, v: f"{f}{sep}{v}", FIELD, st.sampled_from(["=", "", "=="]),
                         st.one_of(WORDS, st.sampled_from(["none", "true", "false", "2**64",
                                                           "1e400", "[1]", "{}", "48", "49",
                                                           "281474976710657", "-0"])))
HANDS = ["123m456m789m11p23p", "123m456m789m23p55p9s", "22244455577799m", "1112345678999m",
         "11m234m", "123m", "", "123万456筒789条11s", "🀇🀈🀉🀙🀚🀛🀐🀑🀒🀓🀓🀔🀕🀖"]
HAND = st.sampled_from(HANDS) | WORDS


def _mostly(*valid: str) -> st.SearchStrategy[str]:
    """A valid value three times in four, else a hostile word."""
    return st.one_of(st.sampled_from(valid), st.sampled_from(valid), st.sampled_from(valid), WORDS)


RULES_OPTIONS = {"--rules": _mostly("chengdu", "qq"),
                 "--option": st.one_of(st.sampled_from(["cap=4", "cap=none", "si_jiao=true",
                                                        "self_draw=add_fan", "root_fan=48"]),
                                       OPTION_VALUE)}
VOID = _mostly("m", "p", "s", "万", "0", "-1", "none")
STYLE = _mostly("mpsz", "zh", "unicode")
OPTIONS: dict[str, dict[str, st.SearchStrategy[str] | None]] = {
    "analyze": {"--visible": _mostly("4p", "", "1m1m", "9s") | HAND,
                "--meld": _mostly("pung:5p", "kong:1m,pung:5s", "kong_concealed:9p"),
                "--void": VOID, "--style": STYLE, "--json": None, **RULES_OPTIONS},
    "score": {"--meld": _mostly("pung:5p", "kong_concealed:9p"), "--void": VOID,
              "--style": STYLE, "--json": None, "--self-drawn": None, "--after-kong": None,
              "--tian-hu": None, "--robbing-kong": None, "--last-tile": None, "--di-hu": None,
              **RULES_OPTIONS},
    "settle": {"--json": None},
    "stats": {"--hands": st.sampled_from(["1", "100", "0", "-1", "1e3", "nan", "", "x", "2.5"]),
              "--tiles": _mostly("13", "14", "1", "7"), "--seed": _mostly("0", "7", "2" * 30),
              "--workers": st.sampled_from(["1", "2", "0", "x"]), "--exact": None,
              "--json": None},
    "batch": {"--what": _mostly("shanten", "waits,effective", "max_fan", "shanten,waits,max_fan"),
              "--form": _mostly("all", "regular", "seven_pairs"), "--no-void-rule": None,
              "--void": VOID, "--errors": _mostly("raise", "coerce"),
              "--workers": _mostly("1", "2", "-1"),
              "--chunk": st.sampled_from(["1", "2", "0", "-1", "x", "99999999999999999999"]),
              "--style": STYLE, **RULES_OPTIONS},
}


def _npy(arr: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, arr, allow_pickle=True)
    return buf.getvalue()


@st.composite
def file_content(draw: st.DrawFn, command: str) -> bytes:
    """What an input file holds: mostly close to valid, often broken."""
    if command == "settle":
        text = draw(pick(LOGS + RAW + ["", "{}", "[]", "null", '{"format": 1}']))
        if draw(st.booleans()) and text.startswith("{"):
            cut = draw(st.integers(0, len(text)))
            text = text[:cut]
        return text.encode("utf-8", "surrogatepass")
    kind = draw(st.sampled_from(["lines", "csv", "npy", "npy", "bytes", "empty"]))
    if kind == "lines":
        rows = st.sampled_from(HANDS[:6]) | st.sampled_from(HANDS[:6]) | HAND
        return "\n".join(draw(st.lists(rows, max_size=6))).encode("utf-8", "surrogatepass")
    if kind == "csv":
        rows = draw(st.lists(HAND.map(lambda h: f'"{h}",x'), max_size=5))
        return ("\ufeffhand,other\n" + "\n".join(rows)).encode("utf-8", "surrogatepass")
    if kind == "npy":
        data = _npy(draw(arrays(shapes=[(3, 27), (0, 27), (27,), (2, 26), (2, 27, 1), ()])))
        if draw(st.booleans()):
            data = data[: draw(st.integers(0, len(data)))]
        return data
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    return b""


@st.composite
def command_line(draw: st.DrawFn, root: str) -> tuple[list[str], bytes]:
    """An argv for ``mjfast`` and the bytes standard input holds."""
    command = draw(st.sampled_from(sorted(OPTIONS) + ["", "nope", "bench"]))
    argv = [command] if command else []
    stdin = b""
    if command in ("analyze", "score"):
        argv.append(draw(st.sampled_from(HANDS) | HAND))
        if command == "score" and draw(st.integers(0, 5)):
            argv += ["--win", draw(_mostly("9m", "1m", "5p", "4p", "7"))]
    elif command in ("settle", "batch"):
        data = draw(file_content(command))
        where = draw(st.sampled_from(["file", "file", "stdin", "missing", "directory"]))
        path = {"missing": os.path.join(root, "missing.json"), "directory": root,
                "stdin": "-"}.get(where, os.path.join(root, "input" + draw(
                    st.sampled_from([".json", ".npy", ".txt", ".csv", ""]))))
        if where == "file":
            with open(path, "wb") as f:
                f.write(data)
        stdin = data if where == "stdin" else b""
        argv.append(path)
        if command == "batch":
            argv.append(draw(st.sampled_from([
                os.path.join(root, name) for name in ("out.npy", "out.csv", "out.jsonl", "out.txt",
                                                      "out", "sub/out.npy")] + [root, "-"])))
    elif command == "bench":  # argparse refusals only: the benchmarks take minutes
        return argv + draw(st.sampled_from([["--nope"], ["--case"], ["--quick=1"],
                                            ["--json", "--markdown"]])), stdin
    options = OPTIONS.get(command, {})
    for _ in range(draw(st.integers(0, 4))):
        if options and draw(st.integers(0, 9)):
            name = draw(st.sampled_from(sorted(options)))
            value = options[name]
            argv += [name] if value is None else [name, draw(value)]
        else:
            argv.append(draw(WORDS))
    return argv, stdin


def run(argv: list[str], stdin: bytes) -> tuple[Any, str, str]:
    """``cli.main(argv)`` with standard streams like a terminal-less process's."""
    out_bytes, err_bytes = io.BytesIO(), io.BytesIO()
    out = io.TextIOWrapper(out_bytes, encoding="utf-8", errors="strict", write_through=True)
    err = io.TextIOWrapper(err_bytes, encoding="utf-8", errors="backslashreplace",
                           write_through=True)
    stdin_stream = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8")
    with mock.patch.object(sys, "stdin", stdin_stream), redirect_stdout(out), redirect_stderr(err):
        try:
            with time_limit():
                code: Any = cli.main(argv)
        except SystemExit as exc:
            code = ("exit", exc.code)
    return code, out_bytes.getvalue().decode("utf-8", "replace"), err_bytes.getvalue().decode(
        "utf-8", "replace")


def check_run(argv: list[str], stdin: bytes = b"") -> None:
    code, out, err = run(argv, stdin)
    if isinstance(code, tuple):  # argparse's own exit: --help, --version, --include; status 0
        assert code[1] == 0 and any(a.startswith(("-h", "--h", "--v", "--i")) for a in argv), \
            (argv, code, err)
        return
    assert code in (0, 2), (argv, code, err)
    if code == 2:
        assert err.startswith("mjfast: error: ") and err.endswith("\n") and err.count("\n") == 1, \
            (argv, err)
        assert len(err) <= 1200, (argv, err[:300])
    elif "--json" in argv and out:
        json.loads(out)


@FUZZ
@given(data=st.data())
def test_cli(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as root:
        argv, stdin = data.draw(command_line(root), label="argv")
        check_run(argv, stdin)
