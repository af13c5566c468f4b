"""Issue 15: money never wraps. Every amount and fan field of Rules is bounded so that the
payment arithmetic holds it exactly (int64 ledgers, int16 batch fans), the worst allowed values
run fast and give exact amounts, and no Settlement or Round ledger that fails to sum to zero is
ever returned."""

from __future__ import annotations

import time

import numpy as np
import pytest

from mjfast.errors import InvalidArgumentError
from mjfast.rules import MAX_AMOUNT, MAX_FAN, Fan, Rules, rules_from_json
from mjfast.scoring import fan, max_fan, score
from mjfast.settlement import PlayerState, Round, Settlement, Transfer, settle_draw
from mjfast.settlement.model import check_conserving
from mjfast.tiles import parse_hand

INT64_MAX = 2**63 - 1
AMOUNT_FIELDS = ("exposed_kong", "added_kong", "concealed_kong", "hua_zhu")
FAN_FIELDS = ("root_fan", "gang_shang_hua", "gang_shang_pao", "qiang_gang_hu", "hai_di",
              "men_qing", "zhong_zhang", "qia_xin_wu", "zi_mei_dui", "yi_tiao_long",
              "fan_display_offset")

# Worst allowed rules: every amount at its bound, and with no cap a hand of four roots reaches
# exactly MAX_FAN (清对 8 + 4 roots x 10; the extras that could add more are off).
WORST = dict(cap=None, root_fan=10, base_fan={Fan.QING_DUI: 8}, gang_shang_hua=0,
             gang_shang_pao=0, qiang_gang_hu=0, exposed_kong=MAX_AMOUNT, added_kong=MAX_AMOUNT,
             concealed_kong=MAX_AMOUNT, hua_zhu=MAX_AMOUNT, jia_jia_you=True)
FOUR_KONGS = ["kong_concealed:1m", "kong_concealed:2m", "kong_concealed:3m", "kong_concealed:4m"]


def exact_net(transfers, n=4):
    """Received minus paid per player, in Python ints (never wraps)."""
    net = [0] * n
    for t in transfers:
        net[t.receiver] += t.amount
        net[t.payer] -= t.amount
    return net


# ------------------------------------------------------------------------------ Rules bounds

def test_the_issue_example_is_refused():
    with pytest.raises(InvalidArgumentError, match=r"concealed_kong.*2\*\*48"):
        Round(Rules(concealed_kong=2**62)).kong(1, "5s", "kong_concealed")


@pytest.mark.parametrize("field", AMOUNT_FIELDS)
def test_amount_fields_are_bounded(field):
    assert getattr(Rules(**{field: MAX_AMOUNT}), field) == MAX_AMOUNT
    for bad in (MAX_AMOUNT + 1, 2**62, 10**30, 10**5000):
        with pytest.raises(InvalidArgumentError, match=field) as err:
            Rules(**{field: bad})
        assert str(MAX_AMOUNT) in str(err.value) and len(str(err.value)) < 300


@pytest.mark.parametrize("field", FAN_FIELDS)
def test_fan_fields_are_bounded(field):
    assert getattr(Rules(**{field: MAX_FAN}), field) == MAX_FAN
    for bad in (MAX_FAN + 1, 10**10, 10**5000):
        with pytest.raises(InvalidArgumentError, match=field) as err:
            Rules(**{field: bad})
        assert f"0 to {MAX_FAN}" in str(err.value) and len(str(err.value)) < 300


def test_base_fan_values_are_bounded():
    assert Rules(base_fan={Fan.QI_DUI: MAX_FAN}).base_fan[Fan.QI_DUI] == MAX_FAN
    for bad in (MAX_FAN + 1, 2 * 10**10):
        with pytest.raises(InvalidArgumentError, match=f"base_fan\\[QI_DUI\\].*0 to {MAX_FAN}"):
            Rules(base_fan={Fan.QI_DUI: bad})


def test_no_cap_bounds_the_largest_fan_a_hand_can_reach():
    Rules(**WORST)  # exactly MAX_FAN
    for rules in ({**WORST, "root_fan": 11}, {"cap": None, "root_fan": 12},
                  {"cap": MAX_FAN + 1, "root_fan": 12}, {"cap": 10**9, "root_fan": MAX_FAN}):
        with pytest.raises(InvalidArgumentError, match="cap"):
            Rules(**rules)
    with pytest.raises(InvalidArgumentError, match="cap"):
        Rules.preset("qq", men_qing=MAX_FAN)
    # with a cap the same values are fine: the multiplier stops at 2**cap
    assert Rules(cap=MAX_FAN, root_fan=MAX_FAN, men_qing=MAX_FAN).multiplier(10**6) == 2**MAX_FAN
    # a cap above every fan a hand can reach is no cap: the same bounds hold
    with pytest.raises(InvalidArgumentError, match="cap.*2147483647"):
        Rules(cap=10**30)
    big_cap = Rules(cap=2**31 - 1)
    assert big_cap.multiplier(MAX_FAN) == 2**MAX_FAN
    with pytest.raises(InvalidArgumentError, match="multiplier"):
        big_cap.multiplier(10**10)
    with pytest.raises(InvalidArgumentError, match="hua_zhu"):  # 满格 = 2**cap: too much
        big_cap.hua_zhu_amount()
    assert Rules(cap=MAX_FAN).hua_zhu_amount() == MAX_AMOUNT


def test_multiplier_without_cap_is_bounded():
    assert Rules.preset("qq").multiplier(MAX_FAN) == 2**MAX_FAN
    for internal in (MAX_FAN + 1, 10**10):
        with pytest.raises(InvalidArgumentError, match="multiplier"):
            Rules.preset("qq").multiplier(internal)


def test_rules_json_and_replace_are_bounded():
    with pytest.raises(InvalidArgumentError, match="root_fan"):
        rules_from_json({"preset": "qq", "overrides": {"root_fan": 10**10}})
    with pytest.raises(InvalidArgumentError, match="QING_YI_SE"):
        rules_from_json({"preset": "chengdu", "overrides": {"base_fan": {"QING_YI_SE": 2 * 10**10}}})
    with pytest.raises(InvalidArgumentError, match="hua_zhu"):
        Rules().replace(hua_zhu=2**63)


# --------------------------------------------------------------- worst allowed values, exact

def test_worst_allowed_fan_scores_fast_and_exactly():
    rules = Rules(**WORST)
    start = time.perf_counter()
    r = score("55m", win_tile="5m", melds=FOUR_KONGS, self_drawn=True, rules=rules)
    m = max_fan("5m", melds=FOUR_KONGS, rules=rules)
    assert time.perf_counter() - start < 1.0
    assert (r.fan, r.raw_fan, r.multiplier) == (MAX_FAN, MAX_FAN, 2**MAX_FAN)
    assert (m.fan, m.payment) == (MAX_FAN, 2**MAX_FAN)
    # the batch kernels' int16 fans hold it too, with the largest display offset
    shown = Rules(**WORST, fan_display_offset=MAX_FAN)
    rows = np.stack([parse_hand("55m")] * 2)
    assert fan(rows, np.array([4, 4]), melds=FOUR_KONGS, rules=shown,
               self_drawn=True).tolist() == [2 * MAX_FAN] * 2
    assert max_fan(rows[:, :] - np.eye(27, dtype=np.uint8)[4], melds=FOUR_KONGS,
                   rules=shown).tolist() == [2 * MAX_FAN] * 2
    capped = Rules(cap=MAX_FAN, root_fan=MAX_FAN, base_fan={Fan.QING_DUI: MAX_FAN},
                   fan_display_offset=MAX_FAN)
    r = score("55m", win_tile="5m", melds=FOUR_KONGS, self_drawn=True, rules=capped)
    assert (r.fan, r.raw_fan, r.multiplier) == (2 * MAX_FAN, 6 * MAX_FAN, 2**MAX_FAN)


def test_worst_allowed_round_is_exact_and_conserves():
    r = Round(Rules(**WORST))
    for tile in "1234":
        r.kong(0, tile + "m", "kong_concealed")
    r.win(0, "5m", hands="55m", melds=FOUR_KONGS)                     # 自摸: 2**48 + 1 each
    for tile in "1234":
        r.kong(1, tile + "p", "kong_concealed")
    r.kong(2, "1s", "kong", from_player=3)                            # + 家家有 from player 1
    s = r.draw([None,
                PlayerState("5p", melds=[f"kong_concealed:{t}p" for t in "1234"]),  # ready
                PlayerState("56m567p23456s", melds=["kong:1s"]),      # three suits: 花猪
                PlayerState("6689m6799m57899s")])                     # not ready
    amounts = {t.amount for t in r.transfers}
    assert {MAX_AMOUNT, MAX_AMOUNT + 1, 2**MAX_FAN} <= amounts
    net = r.net.tolist()
    assert net == exact_net(r.transfers) and sum(net) == 0
    assert r.matrix.sum(axis=0).tolist() == [sum(t.amount for t in r.transfers if t.receiver == j)
                                             for j in range(4)]
    assert s.net.tolist() == exact_net(s.transfers)


# ---------------------------------------------------------------------- ledgers and transfers

def test_transfer_amount_fits_int64():
    assert Transfer(0, 1, INT64_MAX, "dian_pao").amount == INT64_MAX
    with pytest.raises(InvalidArgumentError, match="amount"):
        Transfer(0, 1, INT64_MAX + 1, "dian_pao")


def test_settlement_sums_past_int64_are_refused_not_wrapped():
    big = [Transfer(0, 1, 2**62, "dian_pao"), Transfer(0, 1, 2**62, "dian_pao")]
    with pytest.raises(InvalidArgumentError, match="int64"):
        Settlement.from_transfers(big)
    with pytest.raises(InvalidArgumentError, match="int64"):
        Settlement(tuple(big))
    paid = [Transfer(0, j, 2**62, "dian_pao") for j in (1, 2)]  # player 0 pays 2**63 in all
    with pytest.raises(InvalidArgumentError, match="int64"):
        Settlement.from_transfers(paid)
    ok = Settlement.from_transfers([Transfer(0, 1, INT64_MAX, "dian_pao"),
                                    Transfer(1, 0, INT64_MAX, "dian_pao")])
    assert ok.net.tolist() == [0, 0, 0, 0] and int(ok.matrix[0, 1]) == INT64_MAX


def test_kong_income_amounts_are_bounded():
    with pytest.raises(InvalidArgumentError, match="kong_income"):
        PlayerState("1112345678999m", kong_income=[(1, MAX_AMOUNT + 1)])
    state = PlayerState("4455m1688p22669s", kong_income=[(1, MAX_AMOUNT)] * 3)
    s = settle_draw([state, PlayerState("1112345678999s"), None, None],
                    Rules(kong_refund=True))
    assert s.net.tolist() == exact_net(s.transfers)


def test_conservation_is_checked():
    matrix = np.array([[0, 5], [3, 0]], dtype=np.int64)
    check_conserving(matrix, np.array([-2, 2], dtype=np.int64), [[0, 5], [3, 0]])
    with pytest.raises(AssertionError, match="sum to zero"):
        check_conserving(matrix, np.array([-2, 3], dtype=np.int64), [[0, 5], [3, 0]])
    with pytest.raises(AssertionError, match="exact"):  # an int64 total that wrapped
        check_conserving(matrix, np.array([-2, 2], dtype=np.int64), [[0, 5 + 2**64], [3, 0]])
