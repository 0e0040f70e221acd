#include "daemon/game/scoreboard.h"

namespace pitlink::game {

Scoreboard::Scoreboard(std::uint32_t shoeNumber, ScoreboardLayout layout)
    : shoeNumber_(shoeNumber),
      layout_(layout),
      bigRoad_(layout.rows),
      derived_{DerivedRoad(1, layout.rows), DerivedRoad(2, layout.rows), DerivedRoad(3, layout.rows)} {}

void Scoreboard::add(const RoundMarks& round) {
    beads_.push_back(round);
    ++stats_.rounds;
    stats_.playerWins += round.winner == Winner::Player ? 1 : 0;
    stats_.bankerWins += round.winner == Winner::Banker ? 1 : 0;
    stats_.ties += round.winner == Winner::Tie ? 1 : 0;
    stats_.playerPairs += round.playerPair ? 1 : 0;
    stats_.bankerPairs += round.bankerPair ? 1 : 0;
    stats_.naturals += round.natural != 0 ? 1 : 0;
    if (bigRoad_.add(round)) {
        for (DerivedRoad& road : derived_) {
            road.follow(bigRoad_.cells().back(), bigRoad_.columnLengths());
        }
    }
}

Probe Scoreboard::probe() const {
    Probe p;
    for (std::size_t i = 0; i < derived_.size(); ++i) {
        p.banker[i] = derived_[i].probe(bigRoad_, Winner::Banker);
        p.player[i] = derived_[i].probe(bigRoad_, Winner::Player);
    }
    return p;
}

std::optional<std::vector<RoundMarks>> parseResults(std::string_view text) {
    std::vector<RoundMarks> rounds;
    for (const char c : text) {
        RoundMarks m;
        switch (c) {
            case 'B':
            case 'b':
                m.winner = Winner::Banker;
                break;
            case 'P':
            case 'p':
                m.winner = Winner::Player;
                break;
            case 'T':
            case 't':
                m.winner = Winner::Tie;
                break;
            default:
                return std::nullopt;
        }
        rounds.push_back(m);
    }
    return rounds;
}

}  // namespace pitlink::game
