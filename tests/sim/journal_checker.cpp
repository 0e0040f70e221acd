#include "tests/sim/journal_checker.h"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <set>
#include <stdexcept>
#include <tuple>

namespace pitlink::sim {

using nlohmann::json;

namespace {

struct Db {
    Db(const std::string& path, const char* vfs) {
        if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, vfs) != SQLITE_OK) {
            const std::string error = db != nullptr ? sqlite3_errmsg(db) : "out of memory";
            sqlite3_close(db);
            throw std::runtime_error("checker: cannot open " + path + ": " + error);
        }
    }
    ~Db() { sqlite3_close(db); }
    Db(const Db&) = delete;
    Db& operator=(const Db&) = delete;
    sqlite3* db = nullptr;
};

// The journal's files in chain order, found as schema/README.md "Segments" describes them and
// nothing more: journal.db a regular file (one file), or a link to the active segment, with the
// sealed ones numbered below it in journal.db.segments/.
std::vector<std::string> segmentFiles(const std::string& path) {
    namespace fs = std::filesystem;
    if (!fs::is_symlink(path)) {
        return {path};
    }
    const fs::path active = fs::path(path).parent_path() / fs::read_symlink(path);
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(path + ".segments")) {
        const std::string name = entry.path().filename().string();
        if (name.size() == 17 && name.starts_with("segment-") && name.ends_with(".db") &&
            name <= active.filename().string()) {
            files.push_back(entry.path().string());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

// Its implicit special members only destroy and copy std and nlohmann values; clang-tidy 14
// reports a possible throw there that it cannot place.
// NOLINTNEXTLINE(bugprone-exception-escape)
struct Row {
    std::int64_t seq = 0;
    std::string kind;
    std::optional<std::int64_t> round;
    std::optional<std::int64_t> station;
    json body;
};

std::vector<Row> readRecords(sqlite3* db) {
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db, "SELECT seq, kind, round_id, station, body FROM record ORDER BY seq", -1, &stmt,
                           nullptr) != SQLITE_OK) {
        throw std::runtime_error(std::string("checker: ") + sqlite3_errmsg(db));
    }
    std::vector<Row> rows;
    while (sqlite3_step(stmt) == SQLITE_ROW) {
        Row r;
        r.seq = sqlite3_column_int64(stmt, 0);
        r.kind = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 1));
        if (sqlite3_column_type(stmt, 2) != SQLITE_NULL) {
            r.round = sqlite3_column_int64(stmt, 2);
        }
        if (sqlite3_column_type(stmt, 3) != SQLITE_NULL) {
            r.station = sqlite3_column_int64(stmt, 3);
        }
        r.body = json::parse(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 4)));
        rows.push_back(std::move(r));
    }
    sqlite3_finalize(stmt);
    return rows;
}

// --- the checker's own baccarat (docs/rules.md), on card names such as "9S", "TD", "KH" ---

int pointsOf(const std::string& card) {
    const char rank = card.at(0);
    if (rank == 'A') {
        return 1;
    }
    if (rank >= '2' && rank <= '9') {
        return rank - '0';
    }
    return 0;  // T J Q K
}

int total(const std::vector<std::string>& hand) {
    int sum = 0;
    for (const auto& c : hand) {
        sum += pointsOf(c);
    }
    return sum % 10;
}

struct Coup {
    std::vector<std::string> player;
    std::vector<std::string> banker;
};

// Cards in deal order -> hands by the drawing rules; nullopt when they are not a complete coup.
std::optional<Coup> handsOf(const std::vector<std::string>& cards) {
    if (cards.size() < 4) {
        return std::nullopt;
    }
    Coup c{{cards[0], cards[2]}, {cards[1], cards[3]}};
    std::size_t next = 4;
    const int p = total(c.player);
    const int b = total(c.banker);
    if (p < 8 && b < 8) {
        std::optional<int> third;
        if (p <= 5) {
            if (next >= cards.size()) {
                return std::nullopt;
            }
            third = pointsOf(cards[next]);
            c.player.push_back(cards[next++]);
        }
        bool bankerDraws = false;
        if (!third) {
            bankerDraws = b <= 5;
        } else {
            const int v = *third;
            bankerDraws = b <= 2 || (b == 3 && v != 8) || (b == 4 && v >= 2 && v <= 7) ||
                          (b == 5 && v >= 4 && v <= 7) || (b == 6 && v >= 6 && v <= 7);
        }
        if (bankerDraws) {
            if (next >= cards.size()) {
                return std::nullopt;
            }
            c.banker.push_back(cards[next++]);
        }
    }
    if (next != cards.size()) {
        return std::nullopt;
    }
    return c;
}

// What a bet of `stake` on `spot` returns (stake + win, the stake alone on a push, 0 when lost)
// under the standard paytable (etc/paytables/standard.yaml); nullopt for a spot it does not know.
std::optional<std::int64_t> returned(const std::string& spot, std::int64_t stake, const Coup& c) {
    const int p = total(c.player);
    const int b = total(c.banker);
    const auto pays = [stake](std::int64_t num, std::int64_t den) { return stake + stake * num / den; };
    const bool playerPair = c.player[0].at(0) == c.player[1].at(0);
    const bool bankerPair = c.banker[0].at(0) == c.banker[1].at(0);
    const std::size_t count = c.player.size() + c.banker.size();
    if (spot == "player") {
        return p > b ? pays(1, 1) : p == b ? stake : 0;
    }
    if (spot == "banker") {
        return b > p ? pays(19, 20) : p == b ? stake : 0;
    }
    if (spot == "tie") {
        return p == b ? pays(8, 1) : 0;
    }
    if (spot == "player_pair") {
        return playerPair ? pays(11, 1) : 0;
    }
    if (spot == "banker_pair") {
        return bankerPair ? pays(11, 1) : 0;
    }
    if (spot == "any_pair") {
        return playerPair || bankerPair ? pays(5, 1) : 0;
    }
    if (spot == "big") {
        return count >= 5 ? pays(1, 2) : 0;
    }
    if (spot == "small") {
        return count == 4 ? pays(3, 2) : 0;
    }
    return std::nullopt;
}

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

}  // namespace

bool isCompleteCoup(const std::vector<std::string>& cards) {
    return handsOf(cards).has_value();
}

CheckReport checkJournal(const std::string& path, const char* vfs) {
    CheckReport report;
    std::vector<Row> rows;
    for (const std::string& file : segmentFiles(path)) {
        const Db db(file, vfs);
        std::vector<Row> segment = readRecords(db.db);
        if (!rows.empty() && (segment.empty() || segment.front().seq != rows.back().seq + 1)) {
            report.problems.push_back(file + " does not continue at record " + std::to_string(rows.back().seq + 1));
        }
        rows.insert(rows.end(), std::make_move_iterator(segment.begin()), std::make_move_iterator(segment.end()));
    }
    report.records = static_cast<std::int64_t>(rows.size());
    auto problem = [&report](const std::string& what) {
        if (report.problems.size() < 20) {
            report.problems.push_back(what);
        }
    };

    std::map<std::int64_t, Round> rounds;
    std::map<std::int64_t, std::int64_t> balance;  // the credit records' chain
    std::map<std::int64_t, std::int64_t> sums;     // the checker's own sums of money in and out
    std::set<std::int64_t> handpayPending;         // stations locked for a hand-pay
    std::set<std::string> redeemedTickets;
    std::set<std::string> issuedTickets;
    std::map<std::int64_t, std::int64_t> openDisputes;  // station -> the round it disputes
    std::set<std::int64_t> reserved;                    // stations reserved for their player
    std::set<std::string> faulted;                      // Modbus points with a fault raised
    bool roundOpen = false;
    for (const Row& r : rows) {
        const std::string& k = r.kind;
        const auto atRound = [&]() -> Round& { return rounds[r.round.value_or(0)]; };
        // A reserved station takes no bet, no ticket, no cash-out and gives no tip (README
        // "Reserve"): nothing of the kind may be journaled for it until it is released.
        const bool moneyMove = k == "bet.accepted" || k == "ticket.redeemed" || k == "ticket.issued" ||
                               (k == "handpay.pending" && r.body.value("kind", "") == "cancelled_credit") ||
                               (k == "credit" && r.body.value("reason", "") == "tip");
        if (moneyMove && r.station && reserved.contains(*r.station)) {
            problem("record " + std::to_string(r.seq) + " (" + k + ") for station " + std::to_string(*r.station) +
                    " while it is reserved");
        }
        if (k == "round.opened" || k == "round.settled" || k == "round.voided") {
            roundOpen = k == "round.opened";
        }
        if (k == "daemon.started") {
            faulted.clear();  // faults are found again by a new process
        } else if (k == "button.pressed") {
            // A press says what came of it; a refusal names its rule.
            const std::string outcome = r.body.value("outcome", "");
            static const std::set<std::string> kOutcomes{"done", "confirmed", "refused", "armed", "nothing to confirm"};
            if (!kOutcomes.contains(outcome) || (outcome == "refused" && r.body.value("error", "").empty())) {
                problem("record " + std::to_string(r.seq) + ": button.pressed with outcome '" + outcome + "'" +
                        (outcome == "refused" ? " and no rule" : ""));
            }
        } else if (k == "modbus.lamp_test") {
            // A lamp test takes the lamps from the players: never while a round is open.
            if (r.body.value("outcome", "") == "started" && roundOpen) {
                problem("record " + std::to_string(r.seq) + ": a lamp test started during a round");
            }
        } else if (k == "modbus.fault") {
            const std::string point = r.body.value("point", "");
            const bool active = r.body.value("active", false);
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
            // An open dispute holds the table: the floor decides before the next deal.
            if (!openDisputes.empty()) {
                problem("round " + std::to_string(*r.round) + " opened while station " +
                        std::to_string(openDisputes.begin()->first) + "'s dispute of round " +
                        std::to_string(openDisputes.begin()->second) + " is open");
            }
            // Every round of a run is opened by this version: settled by spot (schema/README.md
            // "Settlement by spot"); a round without the mark would be paid per bet.
            const std::string rule = r.body.value("settle", "");
            if (rule != "spot") {
                problem("round " + std::to_string(*r.round) + " opened with settle '" + rule + "', not 'spot'");
            }
            rounds[*r.round].bySpot = rule == "spot";
        } else if (k == "dispute.raised") {
            if (!openDisputes.emplace(*r.station, r.round.value_or(0)).second) {
                problem("station " + std::to_string(*r.station) + ": a second dispute open at record " +
                        std::to_string(r.seq));
            }
        } else if (k == "dispute.resolved") {
            const auto it = openDisputes.find(*r.station);
            if (it == openDisputes.end() || it->second != r.round.value_or(0)) {
                problem("station " + std::to_string(*r.station) + ": a dispute resolved at record " +
                        std::to_string(r.seq) + " that was not open (resolved twice?)");
            } else {
                openDisputes.erase(it);
            }
        } else if (k == "station.reserved") {
            const bool on = r.body.at("reserved").get<bool>();
            if (on && !reserved.insert(*r.station).second) {
                problem("station " + std::to_string(*r.station) + " reserved twice at record " + std::to_string(r.seq));
            } else if (!on && reserved.erase(*r.station) == 0) {
                problem("station " + std::to_string(*r.station) + " released at record " + std::to_string(r.seq) +
                        " without a reservation");
            }
        } else if (k == "card.dealt") {
            atRound().cards[r.body.at("position").get<std::int64_t>()] = r.body.at("card").get<std::string>();
        } else if (k == "bet.accepted") {
            Bet b{*r.station, r.body.at("spot").get<std::string>(), r.body.at("stake").get<std::int64_t>(), 0, {}};
            if (!atRound().bets.emplace(r.body.at("bet").get<std::int64_t>(), b).second) {
                problem("round " + std::to_string(*r.round) + ": bet " + r.body.at("bet").dump() + " accepted twice");
            }
            sums[*r.station] -= b.stake;
            report.meters[*r.station].inPlay += b.stake;
            ++report.bets;
        } else if (k == "bet.withdrawn") {
            Round& round = atRound();
            const auto it = round.bets.find(r.body.at("bet").get<std::int64_t>());
            if (it == round.bets.end()) {
                problem("record " + std::to_string(r.seq) + ": a bet withdrawn that was never accepted");
                continue;
            }
            ++it->second.endings;
            sums[it->second.station] += it->second.stake;
            report.meters[it->second.station].inPlay -= it->second.stake;
        } else if (k == "bet.settled") {
            // By spot: {"bets": [numbers], ...} covering a station's spot; per bet: {"bet": n, ...}.
            Round& round = atRound();
            Settled settled{r.seq,
                            *r.station,
                            r.body.at("spot").get<std::string>(),
                            r.body.at("stake").get<std::int64_t>(),
                            {},
                            r.body.at("returned").get<std::int64_t>()};
            if (round.bySpot != r.body.contains("bets") || r.body.contains("bet") == round.bySpot) {
                problem("record " + std::to_string(r.seq) + ": a bet.settled of the wrong shape for its round");
                continue;
            }
            settled.covers = round.bySpot ? r.body.at("bets").get<std::vector<std::int64_t>>()
                                          : std::vector<std::int64_t>{r.body.at("bet").get<std::int64_t>()};
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
            } else if (cardsOf(r.body.at("player")) != round.finalCoup->player ||
                       cardsOf(r.body.at("banker")) != round.finalCoup->banker) {
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
            round.finalCoup = Coup{cardsOf(r.body.at("player")), cardsOf(r.body.at("banker"))};
        } else if (k == "ticket.redeemed" || k == "ticket.issued") {
            TicketRecord t{*r.station, r.body.at("validation").get<std::string>(),
                           r.body.at("amount").get<std::int64_t>(), r.body.value("host", false)};
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
        } else if (k == "handpay.pending") {
            handpayPending.insert(*r.station);
        } else if (k == "handpay.reset") {
            if (handpayPending.erase(*r.station) == 0) {
                problem("station " + std::to_string(*r.station) + ": hand-pay reset at record " +
                        std::to_string(r.seq) + " with none pending (paid twice?)");
            }
        } else if (k == "credit") {
            const std::int64_t s = *r.station;
            const std::int64_t amount = r.body.at("amount").get<std::int64_t>();
            const std::int64_t after = r.body.at("balance").get<std::int64_t>();
            if (balance[s] + amount != after) {
                problem("station " + std::to_string(s) + ": credit record " + std::to_string(r.seq) + " leaves " +
                        std::to_string(after) + " after " + std::to_string(balance[s]) + " and " +
                        std::to_string(amount));
            }
            if (after < 0) {
                problem("station " + std::to_string(s) + ": credits below zero at record " + std::to_string(r.seq));
            }
            balance[s] = after;
            const std::string why = r.body.at("reason").get<std::string>();
            StationMeters& m = report.meters[s];
            m.credits = after;
            if (why == "settlement") {
                const std::int64_t wagered = r.body.at("wagered").get<std::int64_t>();
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
            } else if (why == "resettlement") {
                (amount >= 0 ? m.keyedOn : m.keyedOff) += amount >= 0 ? amount : -amount;
            }
            if (why == "ticket_in" || why == "ticket_out" || why == "handpay" || why == "jackpot" || why == "tip") {
                sums[s] += amount;  // money in and out of the table
            } else if (why == "settlement") {
                atRound().creditsByStation[s] += amount;
            } else if (why == "resettlement") {
                atRound().creditsByStation[s] += r.body.at("due").get<std::int64_t>();
                sums[s] +=
                    amount - r.body.at("due").get<std::int64_t>();  // a shortfall the station could not give back
            }
        }
    }

    rounds.erase(0);  // records of no round
    const std::optional<std::int64_t> roundInProgress =
        rounds.empty() ? std::nullopt : std::optional<std::int64_t>(rounds.rbegin()->first);
    for (auto& [id, round] : rounds) {
        ++report.rounds;
        report.settledRounds += round.settled > 0 ? 1 : 0;
        report.voidedRounds += round.voided > 0 ? 1 : 0;
        const std::string name = "round " + std::to_string(id);
        const int endings = round.settled + round.voided;
        if (endings > 1) {
            problem(name + " ended " + std::to_string(endings) + " times (settled " + std::to_string(round.settled) +
                    ", voided " + std::to_string(round.voided) + ")");
        }
        if (endings == 0 && roundInProgress != id) {
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
            const std::int64_t got = round.creditsByStation[station];
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
    for (const std::int64_t s : stations) {
        // Stakes standing in the round in progress are out of both: they are not back yet.
        if (sums[s] != balance[s]) {
            problem("station " + std::to_string(s) + ": money in, out and won comes to " + std::to_string(sums[s]) +
                    " but the credits held are " + std::to_string(balance[s]));
        }
        report.credits[s] = balance[s];
    }
    return report;
}

std::string recordHash(const std::string& path, const char* vfs, std::int64_t seq) {
    for (const std::string& file : segmentFiles(path)) {
        const Db db(file, vfs);
        sqlite3_stmt* stmt = nullptr;
        sqlite3_prepare_v2(db.db, "SELECT hash FROM record WHERE seq = ?", -1, &stmt, nullptr);
        sqlite3_bind_int64(stmt, 1, seq);
        std::string hash;
        if (sqlite3_step(stmt) == SQLITE_ROW) {
            hash.assign(static_cast<const char*>(sqlite3_column_blob(stmt, 0)),
                        static_cast<std::size_t>(sqlite3_column_bytes(stmt, 0)));
        }
        sqlite3_finalize(stmt);
        if (!hash.empty()) {
            return hash;
        }
    }
    return {};
}

std::int64_t lastSeq(const std::string& path, const char* vfs) {
    const Db db(segmentFiles(path).back(), vfs);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db.db, "SELECT coalesce(max(seq), 0) FROM record", -1, &stmt, nullptr);
    std::int64_t seq = 0;
    if (sqlite3_step(stmt) == SQLITE_ROW) {
        seq = sqlite3_column_int64(stmt, 0);
    }
    sqlite3_finalize(stmt);
    return seq;
}

}  // namespace pitlink::sim
