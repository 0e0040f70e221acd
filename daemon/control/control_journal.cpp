// Control commands answered from the journal file itself, on the journal reader's thread so that
// the logic thread never waits for a disk read: recall, the inspector's audit, and the reading
// half of a re-settlement or of a dispute resolved by one (the round and its paytable).
#include <spdlog/spdlog.h>

#include "daemon/control/control_commands.h"
#include "daemon/game/outcome.h"
#include "daemon/journal/read/audit.h"
#include "daemon/journal/read/recall.h"
#include "daemon/journal/recovery.h"
#include "daemon/journal/resume_facts.h"

namespace pitlink::control {

using nlohmann::json;
using table::Reply;

namespace {

// A round as the journal holds it, with the paytable it was settled with: what a re-settlement
// is computed against (read off the logic thread).
struct SettledRound {
    journal::RoundHistory round;
    game::Paytable paytable;
};

SettledRound readSettledRound(journal::SegmentedJournal& journal, std::int64_t roundId) {
    journal::RoundHistory history = journal::reconstructRound(journal.recordsOfRound(roundId));
    auto paytable = journal::findJournaledPaytable(journal, history.paytableSha);
    if (!paytable) {
        throw std::runtime_error("the paytable " + history.paytableSha + " of round " + std::to_string(roundId) +
                                 " is not in the journal");
    }
    return SettledRound{std::move(history), std::move(*paytable)};
}

}  // namespace

void ControlCommands::recall(const ControlRequest& request, const Answer& answer) {
    const auto round = request.round;
    const auto station = request.station;
    const std::int64_t last = request.last;
    std::optional<journal::GameOfRounds> game;
    if (request.game) {  // a game of this controller (checked before)
        game = journal::GameOfRounds{*request.game, *request.game == games_.front()->name()};
    }
    auto failed = [answer](const std::string& error) { answer(Reply::refused("recall_failed", error)); };
    reader_.read<json>(
        [round, station, last, game](journal::SegmentedJournal& journal) {
            json rounds = json::array();
            if (round) {
                rounds.push_back(journal::recalledRoundJson(journal::recallRound(journal, *round)));
            } else {
                for (const auto& r : journal::recallRounds(journal, static_cast<int>(last), station, game)) {
                    rounds.push_back(journal::recalledRoundJson(r));
                }
            }
            return rounds;
        },
        [answer](json rounds) {
            answer.data(json{{"rounds", std::move(rounds)}});
        },
        failed);
}

void ControlCommands::audit(const Answer& answer) {
    reader_.read<json>(
        [](journal::SegmentedJournal& journal) { return journal::auditReportJson(journal::auditJournal(journal)); },
        [answer](json report) { answer.data(std::move(report)); },
        [answer](const std::string& error) { answer(Reply::refused("audit_failed", error)); });
}

void ControlCommands::roadsOfShoe(table::Table& game, std::int64_t shoe, const Answer& answer) {
    reader_.read<json>(
        [shoe](journal::SegmentedJournal& journal) {
            const std::vector<std::int64_t> rounds = journal::roundsOfShoe(journal, shoe);
            if (rounds.empty()) {
                throw std::runtime_error("the journal has no round of shoe " + std::to_string(shoe));
            }
            // Each settled round with the result in force (a re-settlement's corrected cards);
            // voided rounds leave no mark, as on the table's own scoreboard.
            std::vector<game::RoundMarks> marks;
            for (const std::int64_t id : rounds) {
                const journal::RoundHistory round = journal::reconstructRound(journal.recordsOfRound(id));
                if (round.state != journal::RoundState::Settled) {
                    continue;
                }
                const game::Coup coup = journal::coupInForce(round).value();
                marks.push_back(game::RoundMarks::of(game::evaluate(coup)));
            }
            return json{{"shoe", shoe}, {"beads", beadsJson(marks)}};
        },
        [&game, answer](json data) {
            data["table"] = game.name();
            answer.data(std::move(data));
        },
        [answer](const std::string& error) { answer(Reply::refused("no_such_shoe", error)); });
}

void ControlCommands::resettle(const ControlRequest& request, const std::string& user, const Answer& answer) {
    const auto round = request.round;
    const std::string& reason = request.reason;
    const std::vector<game::Card>& cards = request.cards;
    // One re-settlement of a round at a time: the second would be computed against a result in
    // force that the first is about to replace.
    const journal::RefusedRequest detail{.round = *round, .by = user};
    if (!resettling_.insert(*round).second) {
        table_.refuseRequest("resettle", std::nullopt, answer,
                             Reply::refused("busy", "round " + std::to_string(*round) + " is being re-settled already"),
                             detail);
        return;
    }
    auto finish = [this, roundId = *round, answer](const Reply& reply) {
        resettling_.erase(roundId);
        answer(reply);
    };
    // Read once every transaction submitted so far has committed: a settlement still in flight
    // is in the file by then (decided on the state that includes it).
    journal_.afterPending([this, roundId = *round, cards, reason, user, finish, detail] {
        reader_.read<SettledRound>(
            [roundId](journal::SegmentedJournal& journal) { return readSettledRound(journal, roundId); },
            [this, cards, reason, user, finish, detail](SettledRound read) {
                // The round's own game settles it again (its records name that game).
                table::Table* game = read.round.gameName.empty() ? &table_ : gameNamed(read.round.gameName);
                if (game == nullptr) {
                    table_.refuseRequest(
                        "resettle", std::nullopt, finish,
                        Reply::refused("cannot_resettle", "round " + std::to_string(read.round.roundId) + " is of " +
                                                              read.round.gameName +
                                                              ", which this controller no longer runs"),
                        detail);
                    return;
                }
                spdlog::warn("control: {} re-settles {}'s round {}: {}", user, game->name(), read.round.roundId,
                             reason);
                game->resettle(read.round, read.paytable, cards, reason, user, finish);
            },
            [this, finish, detail](const std::string& error) {
                table_.refuseRequest("resettle", std::nullopt, finish, Reply::refused("cannot_resettle", error),
                                     detail);
            });
    });
}

void ControlCommands::resolveDispute(table::Table& game, const ControlRequest& request, const std::string& user,
                                     const Answer& answer) {
    table::Table::DisputeDecision decision{*request.station, request.round, *request.upheld, request.reason, user};
    spdlog::warn("control: {} resolves station {}'s dispute: {} ({})", user, decision.station,
                 decision.upheld ? "upheld" : "rejected", decision.reason);
    if (request.cards.empty()) {
        game.resolveDispute(decision, {}, answer);
        return;
    }
    // The disputed round, read from the journal; the table checks it is the one disputed.
    if (decision.station > game.stationCount() || !game.station(decision.station).dispute) {
        game.resolveDispute(decision, {}, answer);  // refused there (no_dispute), and journaled
        return;
    }
    const std::int64_t roundId = game.station(decision.station).dispute->round;
    const journal::RefusedRequest detail{.round = roundId, .by = user};
    if (!resettling_.insert(roundId).second) {
        game.refuseRequest("dispute_resolve", decision.station, answer,
                           Reply::refused("busy", "round " + std::to_string(roundId) + " is being re-settled already"),
                           detail);
        return;
    }
    auto finish = [this, roundId, answer](const Reply& reply) {
        resettling_.erase(roundId);
        answer(reply);
    };
    // As for resettle: read once what was submitted before has committed.
    journal_.afterPending([this, &game, roundId, decision, cards = request.cards, finish, detail] {
        reader_.read<SettledRound>(
            [roundId](journal::SegmentedJournal& journal) { return readSettledRound(journal, roundId); },
            [&game, decision, cards, finish](const SettledRound& read) {
                game.resolveDispute(decision, table::Table::CorrectedRound{&read.round, &read.paytable, cards}, finish);
            },
            [&game, finish, decision, detail](const std::string& error) {
                game.refuseRequest("dispute_resolve", decision.station, finish,
                                   Reply::refused("cannot_resettle", error), detail);
            });
    });
}

}  // namespace pitlink::control
