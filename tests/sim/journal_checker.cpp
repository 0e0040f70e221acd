#include "tests/sim/journal_checker.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <memory>
#include <set>
#include <tuple>

#include "tests/sim/checker_baccarat.h"

namespace pitlink::sim {

using nlohmann::json;

namespace {

struct Bet {
    std::int64_t station = 0;
    std::string spot;
    std::int64_t stake = 0;
    int endings = 0;  // settled, withdrawn or returned by a void
    bool settled = false;
};

// One bet.settled: what it says it settled and returned.
struct Settled {
    std::int64_t seq = 0;
    std::int64_t station = 0;
    std::string spot;
    std::int64_t stake = 0;
    std::vector<std::int64_t> covers;  // bet numbers
    std::int64_t returned = 0;
};

struct Round {
    std::string game;                           // its round.opened's (several games)
    bool bySpot = false;                        // round.opened says settle: "spot"
    std::map<std::int64_t, std::string> cards;  // position -> card
    std::map<std::int64_t, Bet> bets;           // bet number in the round
    std::vector<Settled> settlements;
    int settled = 0;
    int voided = 0;
    std::optional<Coup> finalCoup;  // the cards in force (a re-settlement's last)
    bool resettled = false;
    std::map<std::int64_t, std::int64_t> creditsByStation;  // settlement + re-settlement credits ("due")
};

std::vector<std::string> cardsOf(const json& list) {
    std::vector<std::string> out;
    for (const auto& c : list) {
        out.push_back(c.get<std::string>());
    }
    return out;
}

int points(const std::string& card) {
    const char rank = card.empty() ? '0' : card[0];
    return rank == 'A' ? 1 : (rank >= '2' && rank <= '9') ? rank - '0' : 0;
}

int total(const std::vector<std::string>& hand) {
    int sum = 0;
    for (const auto& card : hand) {
        sum += points(card);
    }
    return sum % 10;
}

// A settled round's mark on the roads, by the checker's own reading of its hands.
std::string resultOf(const Coup& coup) {
    const int p = total(coup.player);
    const int b = total(coup.banker);
    std::string mark(1, p > b ? 'P' : b > p ? 'B' : 'T');
    const auto pair = [](const std::vector<std::string>& hand) {
        return hand.size() >= 2 && !hand[0].empty() && !hand[1].empty() && hand[0][0] == hand[1][0];
    };
    mark += pair(coup.player) ? "p" : "";
    mark += pair(coup.banker) ? "b" : "";
    const bool natural = (coup.player.size() == 2 && p >= 8) || (coup.banker.size() == 2 && b >= 8);
    if (natural) {
        mark += std::to_string(b > p ? b : p);
    }
    return mark;
}

}  // namespace

int CheckedShoe::total() const {
    int sum = 0;
    for (const auto& [card, n] : left) {
        sum += n;
    }
    return sum;
}

namespace {

void addProblem(CheckReport& report, const std::string& what) {
    if (report.problems.size() < 20) {
        report.problems.push_back(what);
    }
}

}  // namespace

// What the checker learned from the records fed to it, each once and in order; a check reports
// from it (finish), adding what only the whole can say: every round ended, every bet paid as its
// cards say, each station's money conserved.
struct JournalChecker::State {
    CheckReport report;  // what feeding found: problems, meters, tickets, bets
    std::int64_t fed = 0;
    std::int64_t lastSeq = 0;
    std::map<std::int64_t, Round> rounds;
    std::map<std::int64_t, std::int64_t> balance;  // the credit records' chain
    std::map<std::int64_t, std::int64_t> sums;     // the checker's own sums of money in and out
    std::set<std::int64_t> handpayPending;         // stations locked for a hand-pay
    std::set<std::string> redeemedTickets;
    std::set<std::string> issuedTickets;
    // (station, game) -> the round it disputes
    std::map<std::pair<std::int64_t, std::string>, std::int64_t> openDisputes;
    std::set<std::int64_t> reserved;  // stations reserved for their player
    std::set<std::string> faulted;    // Modbus points with a fault raised
    // Several games: the first (whose records may name none), from daemon.started; each other
    // game's reader shoe; each game's round opened last; the games each station plays (absent:
    // the first only).
    std::string firstGame;
    std::map<std::string, std::optional<CheckedShoe>> otherShoes;
    std::map<std::string, std::int64_t> lastRoundOf;
    std::map<std::int64_t, std::vector<std::string>> joined;
    bool roundOpen = false;                              // the first game's (its lamps are the module's)
    CreditTypesChecker types;                            // credit types and cashless transfers (issue 36)
    ProtectionChecker protection{simProtectionRules()};  // game protection (issue 38)

    void problem(const std::string& what) { addProblem(report, what); }
    [[nodiscard]] std::string gameOf(const CheckerRow& r) const {
        return r.body->is_object() && r.body->contains("game") ? r.body->at("game").get<std::string>() : firstGame;
    }
    [[nodiscard]] std::vector<std::string> gamesOf(std::int64_t station) const {
        const auto it = joined.find(station);
        return it != joined.end() ? it->second : std::vector<std::string>{firstGame};
    }
    void followGames(const CheckerRow& r);
    void feed(const CheckerRow& r);
    void followShoe(const CheckerRow& r);
    [[nodiscard]] static CheckReport finish(const State& fed, std::vector<std::string> fileProblems,
                                            std::int64_t records);
};

// The reader's shoe: every card that leaves it must be in it, by the checker's own count.
void JournalChecker::State::followShoe(const CheckerRow& r) {
    const std::string_view k = r.kind;
    const std::string game = gameOf(r);
    std::optional<CheckedShoe>& shoe = game == firstGame ? report.shoe : otherShoes[game];
    const std::string at = "record " + std::to_string(r.seq) + " (" + r.kind + ")";
    const auto takeOut = [&](const std::string& card, const char* how) {
        const auto it = shoe->left.find(card);
        if (it == shoe->left.end() || it->second == 0) {
            problem(at + ": " + how + " " + card + ", which shoe " + std::to_string(shoe->shoe) + " no longer holds");
        } else {
            --it->second;
        }
    };
    if (k == "shoe.started") {
        shoe.reset();
        if (r.body->value("source", "") == "reader") {
            shoe = CheckedShoe{r.body->at("shoe").get<std::int64_t>(), r.seq, 0, {}, {}};
            for (const char* suit : {"C", "D", "H", "S"}) {
                for (const char* rank : {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"}) {
                    shoe->left[std::string(rank) + suit] = r.body->at("decks").get<int>();
                }
            }
        }
    } else if (!shoe) {
        return;
    } else if (k == "shoe.ended") {
        shoe.reset();
    } else if (k == "shoe.burned") {
        for (const auto& card : cardsOf(r.body->at("cards"))) {
            takeOut(card, "burned");
        }
    } else if (k == "card.dealt") {
        takeOut(r.body->at("card").get<std::string>(), "dealt");
    } else if (k == "card.refused") {
        const std::string card = r.body->at("card").get<std::string>();
        if (r.body->value("reason", "").find("is left in the shoe") != std::string::npos && shoe->left[card] > 0) {
            problem(at + ": refused " + card + " as not left, but shoe " + std::to_string(shoe->shoe) + " holds " +
                    std::to_string(shoe->left[card]));
        }
    } else if (k == "round.opened") {
        // The shoe goes on across restarts: each round of it is the one after the last.
        const auto number = r.body->at("shoe").get<std::int64_t>();
        const auto inShoe = r.body->at("round_in_shoe").get<std::int64_t>();
        if (number != shoe->shoe || inShoe != shoe->roundInShoe + 1) {
            problem(at + ": round " + std::to_string(inShoe) + " of shoe " + std::to_string(number) +
                    " follows round " + std::to_string(shoe->roundInShoe) + " of shoe " + std::to_string(shoe->shoe));
        }
        shoe->roundInShoe = inShoe;
    } else if (k == "round.settled") {
        shoe->results.push_back(resultOf(Coup{cardsOf(r.body->at("player")), cardsOf(r.body->at("banker"))}));
    }
}

// Several games: which game is the first, which games each station plays, and that it bets only
// in those and leaves one only with none of its bets standing there (seed 000's X).
void JournalChecker::State::followGames(const CheckerRow& r) {
    const std::string_view k = r.kind;
    if (k == "daemon.started") {
        const auto games = r.body->value("games", std::vector<std::string>{});
        firstGame = games.empty() ? std::string() : games.front();
    } else if (k == "station.games") {
        const std::int64_t s = *r.station;
        const std::string game = r.body->at("game").get<std::string>();
        const std::string action = r.body->at("action").get<std::string>();
        std::vector<std::string> mine = gamesOf(s);
        if (action == "join" && std::find(mine.begin(), mine.end(), game) == mine.end()) {
            mine.push_back(game);
        } else if (action == "leave" && std::erase(mine, game) == 1) {
            const auto round = lastRoundOf.find(game);
            const Round* current = round != lastRoundOf.end() ? &rounds[round->second] : nullptr;
            if (current != nullptr && current->settled + current->voided == 0) {
                for (const auto& [number, bet] : current->bets) {
                    if (bet.station == s && bet.endings == 0) {
                        problem("record " + std::to_string(r.seq) + ": station " + std::to_string(s) + " left " + game +
                                " with bet " + std::to_string(number) + " of round " + std::to_string(round->second) +
                                " standing");
                        break;
                    }
                }
            }
        } else {
            problem("record " + std::to_string(r.seq) + ": station " + std::to_string(s) + " " + action + "s " + game +
                    ", which it " + (action == "join" ? "already plays" : "does not play"));
        }
        if (r.body->at("games").get<std::vector<std::string>>() != mine) {
            problem("record " + std::to_string(r.seq) + ": station " + std::to_string(s) + "'s games after " + action +
                    " " + game + " are " + r.body->at("games").dump() + ", by its joins and leaves " +
                    json(mine).dump());
        }
        joined[s] = mine;
        ++report.gameChanges;
    } else if (k == "bet.accepted") {
        const std::string game = gameOf(r);
        report.otherGameBets += game != firstGame ? 1 : 0;
        const std::vector<std::string> mine = gamesOf(*r.station);
        if (std::find(mine.begin(), mine.end(), game) == mine.end()) {
            problem("record " + std::to_string(r.seq) + ": a bet of station " + std::to_string(*r.station) + " in " +
                    (game.empty() ? std::string("the table's game") : game) + ", which it does not play");
        }
    }
}

void JournalChecker::State::feed(const CheckerRow& r) {
    ++fed;
    lastSeq = r.seq;
    followShoe(r);
    const std::string_view k = r.kind;  // compared with literals: the sizes first
    const auto atRound = [&]() -> Round& { return rounds[r.round.value_or(0)]; };
    // A reserved station takes no bet, no ticket, no cash-out and gives no tip (README
    // "Reserve"): nothing of the kind may be journaled for it until it is released.
    const bool moneyMove = k == "bet.accepted" || k == "ticket.redeemed" || k == "ticket.issued" ||
                           (k == "handpay.pending" && r.body->value("kind", "") == "cancelled_credit") ||
                           (k == "credit" && r.body->value("reason", "") == "tip");
    if (moneyMove && r.station && reserved.contains(*r.station)) {
        problem("record " + std::to_string(r.seq) + " (" + r.kind + ") for station " + std::to_string(*r.station) +
                " while it is reserved");
    }
    if ((k == "round.opened" || k == "round.settled" || k == "round.voided") && gameOf(r) == firstGame) {
        roundOpen = k == "round.opened";
    }
    followGames(r);
    protection.feed(r, gameOf(r), [this](const std::string& what) { problem(what); });
    if (k == "daemon.started") {
        faulted.clear();  // faults are found again by a new process
    } else if (k == "button.pressed") {
        // A press says what came of it; a refusal names its rule.
        const std::string outcome = r.body->value("outcome", "");
        static const std::set<std::string> kOutcomes{"done", "confirmed", "refused", "armed", "nothing to confirm"};
        if (!kOutcomes.contains(outcome) || (outcome == "refused" && r.body->value("error", "").empty())) {
            problem("record " + std::to_string(r.seq) + ": button.pressed with outcome '" + outcome + "'" +
                    (outcome == "refused" ? " and no rule" : ""));
        }
    } else if (k == "modbus.lamp_test") {
        // A lamp test takes the lamps from the players: never while a round is open.
        if (r.body->value("outcome", "") == "started" && roundOpen) {
            problem("record " + std::to_string(r.seq) + ": a lamp test started during a round");
        }
    } else if (k == "modbus.fault") {
        const std::string point = r.body->value("point", "");
        const bool active = r.body->value("active", false);
        if (active == faulted.contains(point)) {
            problem("record " + std::to_string(r.seq) + ": fault on " + point +
                    (active ? " raised twice" : " cleared but not raised"));
        }
        active ? static_cast<void>(faulted.insert(point)) : static_cast<void>(faulted.erase(point));
    }
    if (k == "round.opened") {
        if (rounds.contains(*r.round)) {
            problem("round " + std::to_string(*r.round) + " opened twice");
        }
        // An open dispute holds its game: the floor decides before the game's next deal.
        const std::string game = gameOf(r);
        for (const auto& [key, disputed] : openDisputes) {
            if (key.second == game) {
                problem("round " + std::to_string(*r.round) + " of " + game + " opened while station " +
                        std::to_string(key.first) + "'s dispute of round " + std::to_string(disputed) + " is open");
                break;
            }
        }
        rounds[*r.round].game = game;
        lastRoundOf[game] = *r.round;
        ++report.roundsByGame[game];
        // Every round of a run is opened by this version: settled by spot (schema/README.md
        // "Settlement by spot"); a round without the mark would be paid per bet.
        const std::string rule = r.body->value("settle", "");
        if (rule != "spot") {
            problem("round " + std::to_string(*r.round) + " opened with settle '" + rule + "', not 'spot'");
        }
        rounds[*r.round].bySpot = rule == "spot";
    } else if (k == "dispute.raised") {
        if (!openDisputes.emplace(std::make_pair(*r.station, gameOf(r)), r.round.value_or(0)).second) {
            problem("station " + std::to_string(*r.station) + ": a second dispute open at record " +
                    std::to_string(r.seq));
        }
    } else if (k == "dispute.resolved") {
        const auto it = openDisputes.find(std::make_pair(*r.station, gameOf(r)));
        if (it == openDisputes.end() || it->second != r.round.value_or(0)) {
            problem("station " + std::to_string(*r.station) + ": a dispute resolved at record " +
                    std::to_string(r.seq) + " that was not open (resolved twice?)");
        } else {
            openDisputes.erase(it);
        }
    } else if (k == "station.reserved") {
        const bool on = r.body->at("reserved").get<bool>();
        if (on && !reserved.insert(*r.station).second) {
            problem("station " + std::to_string(*r.station) + " reserved twice at record " + std::to_string(r.seq));
        } else if (!on && reserved.erase(*r.station) == 0) {
            problem("station " + std::to_string(*r.station) + " released at record " + std::to_string(r.seq) +
                    " without a reservation");
        }
    } else if (k == "card.dealt") {
        atRound().cards[r.body->at("position").get<std::int64_t>()] = r.body->at("card").get<std::string>();
    } else if (k == "bet.accepted") {
        Bet b{*r.station, r.body->at("spot").get<std::string>(), r.body->at("stake").get<std::int64_t>(), 0, {}};
        if (!atRound().bets.emplace(r.body->at("bet").get<std::int64_t>(), b).second) {
            problem("round " + std::to_string(*r.round) + ": bet " + r.body->at("bet").dump() + " accepted twice");
        }
        sums[*r.station] -= b.stake;
        report.meters[*r.station].inPlay += b.stake;
        ++report.bets;
    } else if (k == "bet.withdrawn") {
        Round& round = atRound();
        const auto it = round.bets.find(r.body->at("bet").get<std::int64_t>());
        if (it == round.bets.end()) {
            problem("record " + std::to_string(r.seq) + ": a bet withdrawn that was never accepted");
            return;
        }
        ++it->second.endings;
        sums[it->second.station] += it->second.stake;
        report.meters[it->second.station].inPlay -= it->second.stake;
    } else if (k == "bet.settled") {
        // By spot: {"bets": [numbers], ...} covering a station's spot; per bet: {"bet": n, ...}.
        Round& round = atRound();
        Settled settled{r.seq,
                        *r.station,
                        r.body->at("spot").get<std::string>(),
                        r.body->at("stake").get<std::int64_t>(),
                        {},
                        r.body->at("returned").get<std::int64_t>()};
        if (round.bySpot != r.body->contains("bets") || r.body->contains("bet") == round.bySpot) {
            problem("record " + std::to_string(r.seq) + ": a bet.settled of the wrong shape for its round");
            return;
        }
        settled.covers = round.bySpot ? r.body->at("bets").get<std::vector<std::int64_t>>()
                                      : std::vector<std::int64_t>{r.body->at("bet").get<std::int64_t>()};
        std::int64_t sum = 0;
        for (const std::int64_t number : settled.covers) {
            const auto it = round.bets.find(number);
            if (it == round.bets.end()) {
                problem("record " + std::to_string(r.seq) + ": a bet settled that was never accepted");
                continue;
            }
            if (it->second.station != settled.station || it->second.spot != settled.spot) {
                problem("record " + std::to_string(r.seq) + ": settles bet " + std::to_string(number) +
                        " of another station or spot");
            }
            ++it->second.endings;
            it->second.settled = true;
            sum += it->second.stake;
            report.meters[it->second.station].inPlay -= it->second.stake;
        }
        if (sum != settled.stake) {
            problem("record " + std::to_string(r.seq) + ": settles a stake of " + std::to_string(settled.stake) +
                    ", its bets come to " + std::to_string(sum));
        }
        round.settlements.push_back(std::move(settled));
    } else if (k == "round.settled") {
        Round& round = atRound();
        ++round.settled;
        std::vector<std::string> inOrder;
        for (const auto& [position, card] : round.cards) {
            inOrder.push_back(card);
        }
        round.finalCoup = handsOf(inOrder);
        if (!round.finalCoup) {
            problem("round " + std::to_string(*r.round) + " settled on cards that are not a complete coup");
        } else if (cardsOf(r.body->at("player")) != round.finalCoup->player ||
                   cardsOf(r.body->at("banker")) != round.finalCoup->banker) {
            problem("round " + std::to_string(*r.round) + " settled with hands other than its cards make");
        }
    } else if (k == "round.voided") {
        Round& round = atRound();
        ++round.voided;
        for (auto& [number, bet] : round.bets) {
            if (bet.endings == 0) {
                ++bet.endings;
                sums[bet.station] += bet.stake;  // every stake standing goes back
                report.meters[bet.station].inPlay -= bet.stake;
            }
        }
    } else if (k == "round.resettled") {
        Round& round = atRound();
        round.resettled = true;
        round.finalCoup = Coup{cardsOf(r.body->at("player")), cardsOf(r.body->at("banker"))};
    } else if (k == "ticket.redeemed" || k == "ticket.issued") {
        TicketRecord t{*r.station, r.body->at("validation").get<std::string>(),
                       r.body->at("amount").get<std::int64_t>(), r.body->value("host", false)};
        if (k == "ticket.issued") {
            // A validation number is printed once: a host refuses a second ticket with it.
            if (!issuedTickets.insert(t.validation).second) {
                problem("ticket " + t.validation + " issued twice (record " + std::to_string(r.seq) + ")");
            }
            report.ticketsOut.push_back(std::move(t));
        } else if (!redeemedTickets.insert(t.validation).second) {
            problem("ticket " + t.validation + " redeemed twice (record " + std::to_string(r.seq) + ")");
        } else {
            report.ticketsIn.push_back(std::move(t));
        }
    } else if (k == "aft.transfer") {
        types.transfer(r.seq, *r.station, *r.body, [this](const std::string& what) { problem(what); });
    } else if (k == "handpay.pending") {
        handpayPending.insert(*r.station);
    } else if (k == "handpay.reset") {
        if (handpayPending.erase(*r.station) == 0) {
            problem("station " + std::to_string(*r.station) + ": hand-pay reset at record " + std::to_string(r.seq) +
                    " with none pending (paid twice?)");
        }
    } else if (k == "credit") {
        const std::int64_t s = *r.station;
        const std::int64_t amount = r.body->at("amount").get<std::int64_t>();
        const std::int64_t after = r.body->at("balance").get<std::int64_t>();
        if (balance[s] + amount != after) {
            problem("station " + std::to_string(s) + ": credit record " + std::to_string(r.seq) + " leaves " +
                    std::to_string(after) + " after " + std::to_string(balance[s]) + " and " + std::to_string(amount));
        }
        if (after < 0) {
            problem("station " + std::to_string(s) + ": credits below zero at record " + std::to_string(r.seq));
        }
        balance[s] = after;
        types.credit(r.seq, s, *r.body, [this](const std::string& what) { problem(what); });
        const std::string why = r.body->at("reason").get<std::string>();
        StationMeters& m = report.meters[s];
        m.credits = after;
        if (why == "settlement" || why == "jackpot") {
            const auto game = r.body->find("game");
            const auto denomination = r.body->find("denomination");
            auto& play = m.plays[{game == r.body->end() ? std::string() : game->get<std::string>(),
                                  denomination == r.body->end() ? 1 : denomination->get<std::int64_t>()}];
            if (why == "settlement") {
                play[0] += r.body->at("wagered").get<std::int64_t>();
                play[1] += amount;
                ++play[3];
            } else {
                play[1] += amount;  // off coin out: hand-paid
                play[2] -= amount;
            }
        }
        if (why == "settlement") {
            const std::int64_t wagered = r.body->at("wagered").get<std::int64_t>();
            m.coinIn += wagered;
            m.coinOut += amount;
            m.settledPaid += amount;
            ++m.gamesPlayed;
            m.gamesWon += amount > wagered ? 1 : 0;
            m.gamesLost += amount < wagered ? 1 : 0;
        } else if (why == "ticket_in") {
            m.ticketIn += amount;
        } else if (why == "ticket_out") {
            m.ticketOut -= amount;
            m.cancelled -= amount;
        } else if (why == "handpay") {
            m.handpaid -= amount;
            m.cancelled -= amount;
        } else if (why == "jackpot") {
            m.jackpots -= amount;
            m.coinOut += amount;  // a hand-paid win is not paid by the machine (SAS 0001)
        } else if (why == "tip") {
            m.keyedOff -= amount;
        } else if (why == "legacy_bonus") {
            m.legacyBonus += amount;
        } else if (why == "bonus_handpay") {
            m.bonusHandpaid -= amount;
        } else if (why == "restricted_expired") {
            m.restrictedExpired -= amount;
        } else if (why == "resettlement") {
            (amount >= 0 ? m.keyedOn : m.keyedOff) += amount >= 0 ? amount : -amount;
        }
        if (why == "ticket_in" || why == "ticket_out" || why == "handpay" || why == "jackpot" || why == "tip" ||
            why == "transfer_in" || why == "bonus" || why == "transfer_out" || why == "restricted_expired" ||
            why == "legacy_bonus" || why == "bonus_handpay") {
            sums[s] += amount;  // money in and out of the table
        } else if (why == "settlement") {
            atRound().creditsByStation[s] += amount;
        } else if (why == "resettlement") {
            atRound().creditsByStation[s] += r.body->at("due").get<std::int64_t>();
            sums[s] += amount - r.body->at("due").get<std::int64_t>();  // a shortfall the station could not give back
        }
    }
}

CheckReport JournalChecker::State::finish(const State& fed, std::vector<std::string> fileProblems,
                                          std::int64_t records) {
    const auto& rounds = fed.rounds;
    const auto& balance = fed.balance;
    CheckReport report = fed.report;
    report.problems.insert(report.problems.begin(), fileProblems.begin(), fileProblems.end());
    report.records = records;
    std::map<std::int64_t, std::int64_t> sums = fed.sums;
    const auto problem = [&report](const std::string& what) { addProblem(report, what); };

    // Records of no round are kept under round 0: not a round. Each game's last round may be in
    // progress.
    std::set<std::int64_t> inProgress;
    for (const auto& [game, id] : fed.lastRoundOf) {
        inProgress.insert(id);
    }
    for (const auto& [id, round] : rounds) {
        if (id == 0) {
            continue;
        }
        ++report.rounds;
        report.settledRounds += round.settled > 0 ? 1 : 0;
        report.voidedRounds += round.voided > 0 ? 1 : 0;
        const std::string name = "round " + std::to_string(id) + (round.game.empty() ? "" : " of " + round.game);
        const int endings = round.settled + round.voided;
        if (endings > 1) {
            problem(name + " ended " + std::to_string(endings) + " times (settled " + std::to_string(round.settled) +
                    ", voided " + std::to_string(round.voided) + ")");
        }
        if (endings == 0 && !inProgress.contains(id)) {
            problem(name + " never ended");
        }
        for (const auto& [number, bet] : round.bets) {
            if (bet.endings > 1) {
                problem(name + ": bet " + std::to_string(number) + " paid or returned " + std::to_string(bet.endings) +
                        " times");
            }
            if (bet.endings == 0 && endings > 0) {
                problem(name + ": bet " + std::to_string(number) + " neither settled nor returned");
            }
        }
        if (round.settled == 0 || !round.finalCoup) {
            continue;
        }
        // What each station's bets return under the cards in force, by the checker's own rules.
        std::map<std::int64_t, std::int64_t> due;
        std::vector<std::string> inOrder;
        for (const auto& [position, card] : round.cards) {
            inOrder.push_back(card);
        }
        const auto dealt = handsOf(inOrder);
        // The stakes the round's rule settles, from the bets themselves: each station's spot
        // summed (by spot), or each bet (per bet). A spot is one bet: its whole stake is paid.
        std::map<std::tuple<std::int64_t, std::string, std::int64_t>, std::pair<std::int64_t, std::set<std::int64_t>>>
            stakes;  // (station, spot, bet number or 0) -> (summed stake, bet numbers)
        for (const auto& [number, bet] : round.bets) {
            if (bet.settled) {
                auto& [stake, numbers] = stakes[{bet.station, bet.spot, round.bySpot ? 0 : number}];
                stake += bet.stake;
                numbers.insert(number);
            }
        }
        for (const Settled& settled : round.settlements) {
            const auto key = std::make_tuple(settled.station, settled.spot, round.bySpot ? 0 : settled.covers.front());
            const auto it = stakes.find(key);
            if (it == stakes.end() ||
                it->second.second != std::set<std::int64_t>(settled.covers.begin(), settled.covers.end())) {
                problem(name + ": bet.settled " + std::to_string(settled.seq) + " (station " +
                        std::to_string(settled.station) + " " + settled.spot + ") does not settle the " +
                        (round.bySpot ? "spot's whole stake" : "bet") + " once");
                continue;
            }
            const auto first = dealt ? returned(settled.spot, it->second.first, *dealt) : std::nullopt;
            if (!first) {
                problem(name + ": bet on '" + settled.spot + "' the checker cannot settle");
                continue;
            }
            if (settled.returned != *first) {
                problem(name + ": bet.settled " + std::to_string(settled.seq) + " (" + settled.spot + " " +
                        std::to_string(it->second.first) + ") returned " + std::to_string(settled.returned) +
                        ", its cards say " + std::to_string(*first));
            }
        }
        for (const auto& [key, stake] : stakes) {
            const auto back = returned(std::get<1>(key), stake.first, *round.finalCoup);
            if (!back) {
                problem(name + ": bet on '" + std::get<1>(key) + "' the checker cannot settle");
                continue;
            }
            due[std::get<0>(key)] += *back;
        }
        for (const auto& [station, amount] : due) {
            const auto credited = round.creditsByStation.find(station);
            const std::int64_t got = credited != round.creditsByStation.end() ? credited->second : 0;
            if (got != amount) {
                problem(name + ": station " + std::to_string(station) + " was credited " + std::to_string(got) +
                        ", the cards in force say " + std::to_string(amount));
            }
            sums[station] += amount;
        }
        for (const auto& [station, amount] : round.creditsByStation) {
            if (!due.contains(station) && amount != 0) {
                problem(name + ": station " + std::to_string(station) + " credited without a bet");
            }
        }
    }
    std::set<std::int64_t> stations;
    for (const auto& [s, b] : balance) {
        stations.insert(s);
    }
    for (const auto& [s, b] : sums) {
        stations.insert(s);
    }
    const auto held = [&balance](std::int64_t s) {
        const auto it = balance.find(s);
        return it != balance.end() ? it->second : 0;
    };
    for (const std::int64_t s : stations) {
        // Stakes standing in the round in progress are out of both: they are not back yet.
        if (sums[s] != held(s)) {
            problem("station " + std::to_string(s) + ": money in, out and won comes to " + std::to_string(sums[s]) +
                    " but the credits held are " + std::to_string(held(s)));
        }
        report.credits[s] = held(s);
    }
    fed.types.finish(problem);
    report.creditTypes = fed.types.stations();
    report.transfers = fed.types.transfers();
    report.protection = fed.protection.counts();
    return report;
}

JournalChecker::JournalChecker() = default;
JournalChecker::~JournalChecker() = default;

void JournalChecker::close() {
    files_.close();
}

CheckReport JournalChecker::check(const std::string& path, const char* vfs) {
    std::vector<std::string> fileProblems;
    std::vector<std::shared_ptr<const std::vector<CheckerRow>>> segments;
    std::vector<const CheckerRow*> rows;
    const std::vector<std::string> files = segmentFiles(path);
    files_.keepOnly(files);
    for (const std::string& file : files) {
        const bool sealed = &file != &files.back();
        std::shared_ptr<const std::vector<CheckerRow>> segment = sealed ? files_.sealed(file) : nullptr;
        if (segment == nullptr) {
            segment = std::make_shared<const std::vector<CheckerRow>>(readSegment(file, vfs, &files_));
            if (sealed) {
                files_.keepSealed(file, segment);
            }
        }
        if (!rows.empty() && (segment->empty() || segment->front().seq != rows.back()->seq + 1)) {
            fileProblems.push_back(file + " does not continue at record " + std::to_string(rows.back()->seq + 1));
        }
        for (const CheckerRow& row : *segment) {
            rows.push_back(&row);
        }
        segments.push_back(std::move(segment));
    }
    // Feeds only what was added since the last check, unless a record fed before changed or went
    // (then from scratch: what a check says never depends on what an earlier one read).
    const std::int64_t changed = files_.takeLowestChanged();
    const bool same = state_ != nullptr && state_->fed <= static_cast<std::int64_t>(rows.size()) &&
                      (state_->fed == 0 || rows[static_cast<std::size_t>(state_->fed - 1)]->seq == state_->lastSeq) &&
                      changed > state_->lastSeq;
    if (!same) {
        state_ = std::make_unique<State>();
    }
    for (auto row = rows.begin() + state_->fed; row != rows.end(); ++row) {
        state_->feed(**row);
    }
    lastRead_ = std::move(segments);
    return State::finish(*state_, std::move(fileProblems), static_cast<std::int64_t>(rows.size()));
}

std::string JournalChecker::hashAtLastCheck(std::int64_t seq) const {
    for (const auto& segment : lastRead_) {
        if (!segment->empty() && segment->front().seq <= seq && seq <= segment->back().seq) {
            const auto row = std::lower_bound(segment->begin(), segment->end(), seq,
                                              [](const CheckerRow& r, std::int64_t s) { return r.seq < s; });
            return row != segment->end() && row->seq == seq ? row->hash : std::string();
        }
    }
    return {};
}

CheckReport checkJournal(const std::string& path, const char* vfs) {
    JournalChecker checker;
    return checker.check(path, vfs);
}

}  // namespace pitlink::sim
