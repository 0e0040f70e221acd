#pragma once
// 128-bit intermediates for products of money and ratio terms (GCC/Clang extension).

namespace pitlink::game {

__extension__ using Int128 = __int128;
__extension__ using UInt128 = unsigned __int128;

}  // namespace pitlink::game
