"""Every fast loop checks the hand size itself: a wrong-sized row is reported, never scored."""

from __future__ import annotations

import numpy as np
import pytest

import mjfast
from mjfast import InvalidHandError


@pytest.mark.parametrize("form", ["all", "regular", "seven_pairs"])
@pytest.mark.parametrize("void_rule", [True, False])
@pytest.mark.parametrize("tiles, row", [(34, 1), (12, 2), (15, 1)])
def test_wrong_size_rows_are_reported(form: str, void_rule: bool, tiles: int, row: int) -> None:
    good = mjfast.parse_hand("123m456m789m23p55p")
    bad = np.zeros(27, np.uint8)
    for k in range(tiles):  # spread over kinds, at most 4 each
        bad[k % 27] += 1
    hands = np.stack([good] * 4)
    hands[row] = bad
    with pytest.raises(InvalidHandError, match=rf"^hands\[{row}\]: {tiles} concealed tiles with 0 melds; "
                                               r"expected 13 or 14$"):
        mjfast.shanten(hands, form=form, void_rule=void_rule)
    out = mjfast.shanten(hands, form=form, void_rule=void_rule, errors="coerce")
    assert out[row] == mjfast.INVALID_ROW
    assert (np.delete(out, row) == mjfast.shanten(good, form=form, void_rule=void_rule)).all()
