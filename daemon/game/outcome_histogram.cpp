#include "daemon/game/outcome_histogram.h"

namespace pitlink::game {

int outcomeSignature(const Outcome& o) {
    return outcomeSignature(mainSignature(o.playerTotal, o.bankerTotal, o.playerCards, o.bankerCards),
                            pairSignature(o.playerPair, o.bankerPair),
                            suitSignature(o.playerPerfectPair, o.bankerPerfectPair, o.nines));
}

Outcome outcomeFromSignature(int signature) {
    const int suits = signature % kSuitSignatures;
    const int pairs = (signature / kSuitSignatures) % kPairSignatures;
    const int main = signature / kSuitSignatures / kPairSignatures;
    Outcome o;
    o.bankerCards = static_cast<std::uint8_t>(main % 2 + 2);
    o.playerCards = static_cast<std::uint8_t>((main / 2) % 2 + 2);
    o.bankerTotal = static_cast<std::uint8_t>((main / 4) % 10);
    o.playerTotal = static_cast<std::uint8_t>(main / 40);
    o.winner = winnerOf(o.playerTotal, o.bankerTotal);
    o.playerPair = (pairs & 2) != 0;
    o.bankerPair = (pairs & 1) != 0;
    o.playerPerfectPair = ((suits / 8) & 2) != 0;
    o.bankerPerfectPair = ((suits / 8) & 1) != 0;
    o.nines = static_cast<NinesPattern>(suits % 8);
    return o;
}

}  // namespace pitlink::game
