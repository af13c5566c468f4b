// A batch entry point over nyanten (https://github.com/Cryolite/nyanten, header-only C++), so that
// mjfast.bench times it in the same process, on the same (n, 27) uint8 arrays as mjfast.
//
// nyanten_shanten(rows, n, out): out[i] = regular-form shanten (replacement number - 1) of row i,
// its 27 suit counts with the 7 honour counts zero: Nyanten::Standard_::calculateReplacementNumber,
// the regular-form part of nyanten's calculateReplacementNumber (which also takes seven pairs and
// thirteen orphans, riichi style). Rows must hold 1 or 2 (mod 3) tiles, at most 14, counts <= 4
// (mjfast.bench checks its samples against mjfast before timing).
#include <nyanten/standard/replacement_number.hpp>

#include <cstdint>
#include <cstring>

extern "C" int64_t nyanten_shanten(const uint8_t *rows, int64_t n, int8_t *out) {
  uint8_t hand[34] = {0};  // the honours stay 0
  for (int64_t i = 0; i < n; ++i) {
    std::memcpy(hand, rows + 27 * i, 27);
    unsigned tiles = 0;
    for (int k = 0; k < 27; ++k) tiles += hand[k];
    out[i] = static_cast<int8_t>(
        Nyanten::Standard_::calculateReplacementNumber(hand, static_cast<std::uint_fast8_t>(tiles)) - 1);
  }
  return n;
}
