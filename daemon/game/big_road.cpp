#include "daemon/game/big_road.h"

namespace pitlink::game {

RoundMarks RoundMarks::of(const Outcome& o) {
    RoundMarks m;
    m.winner = o.winner;
    m.playerPair = o.playerPair;
    m.bankerPair = o.bankerPair;
    if (o.natural()) {
        // A natural always decides the coup, so the winner's total is the natural shown
        // (on a tie both hands hold it).
        m.natural = o.winner == Winner::Banker ? o.bankerTotal : o.playerTotal;
    }
    return m;
}

bool BigRoad::add(const RoundMarks& round) {
    if (round.winner == Winner::Tie) {
        if (cells_.empty()) {
            ++leadingTies_;
        } else {
            ++cells_.back().ties;
        }
        return false;
    }
    const bool newRun = cells_.empty() || cells_.back().side != round.winner;
    BigRoadCell cell;
    cell.side = round.winner;
    if (newRun) {
        columnLengths_.push_back(0);
    }
    cell.column = static_cast<int>(columnLengths_.size()) - 1;
    cell.row = columnLengths_.back()++;
    cell.drawn = grid_.place(newRun);
    cell.playerPair = round.playerPair;
    cell.bankerPair = round.bankerPair;
    cell.natural = round.natural;
    if (cells_.empty() && leadingTies_ > 0) {
        cell.ties = leadingTies_;
        cell.tieFirst = true;
    }
    cells_.push_back(cell);
    return true;
}

}  // namespace pitlink::game
