#include "tests/support/scenario_table.h"

#include <algorithm>
#include <stdexcept>

#include "daemon/journal/records/paytable_codec.h"
#include "daemon/journal/records/record_kinds.h"
#include "daemon/journal/records/settlement_records.h"

namespace pitlink::test {

using journal::JournalTransaction;
using nlohmann::json;
namespace kind = journal::kind;
namespace reason = journal::reason;

ScenarioTable::ScenarioTable(journal::Journal& journal, game::Paytable paytable, std::int64_t nextRoundId,
                             std::function<void()> waitForCommit)
    : journal_(journal),
      paytable_(std::move(paytable)),
      sha_(journal::paytableSha256(paytable_)),
      wait_(std::move(waitForCommit)),
      nextRoundId_(nextRoundId) {}

void ScenarioTable::submit(JournalTransaction tx) {
    pending_ = true;
    journal_.submit(std::move(tx), [this](const journal::CommitResult& result) {
        last_ = result;
        pending_ = false;
    });
    while (pending_ && wait_) {
        wait_();
    }
    if (pending_) {
        throw std::logic_error("ScenarioTable: commit did not complete");
    }
}

void ScenarioTable::record(std::string_view what, json body) {
    JournalTransaction tx = journal_.begin();
    tx.add(what, std::nullopt, std::nullopt, std::move(body));
    submit(std::move(tx));
}

void ScenarioTable::loadPaytable() {
    JournalTransaction tx = journal_.begin();
    tx.add(kind::kPaytableLoaded, std::nullopt, std::nullopt,
           json{{"id", paytable_.id}, {"sha256", sha_}, {"content", journal::paytableToJson(paytable_)}});
    submit(std::move(tx));
}

void ScenarioTable::startShoe(std::int64_t shoe) {
    shoe_ = shoe;
    roundInShoe_ = 0;
    JournalTransaction tx = journal_.begin();
    tx.add(kind::kShoeStarted, std::nullopt, std::nullopt,
           json{{"shoe", shoe},
                {"decks", 8},
                {"source", "rng"},
                {"cards", 416},
                {"burn_card", "9H"},
                {"burned", 10},
                {"cut_from_end", 14}});
    submit(std::move(tx));
}

std::int64_t ScenarioTable::openRound(game::SettleRule rule) {
    roundId_ = nextRoundId_++;
    rule_ = rule;
    nextBet_ = 1;
    bets_.clear();
    cards_.clear();
    JournalTransaction tx = journal_.begin();
    json opened{
        {"shoe", shoe_}, {"round_in_shoe", ++roundInShoe_}, {"paytable", paytable_.id}, {"paytable_sha256", sha_}};
    if (rule == game::SettleRule::PerSpot) {
        opened["settle"] = game::settleRuleName(rule);
    }
    tx.add(kind::kRoundOpened, roundId_, std::nullopt, std::move(opened));
    submit(std::move(tx));
    return roundId_;
}

std::int64_t ScenarioTable::bet(std::int64_t station, game::BetType spot, game::Money stake) {
    const std::int64_t index = nextBet_++;
    JournalTransaction tx = journal_.begin();
    tx.add(kind::kBetAccepted, roundId_, station,
           json{{"bet", index}, {"spot", game::betTypeName(spot)}, {"stake", stake}, {"action", "bet"}});
    tx.credit(station, -stake, reason::kBet, roundId_, {.ref = "bet " + std::to_string(index)});
    submit(std::move(tx));
    bets_.push_back(journal::RoundBet{index, station, spot, stake, "bet"});
    return index;
}

void ScenarioTable::withdraw(std::int64_t betIndex) {
    const auto it = std::find_if(bets_.begin(), bets_.end(), [&](const auto& b) { return b.index == betIndex; });
    JournalTransaction tx = journal_.begin();
    tx.add(kind::kBetWithdrawn, roundId_, it->station, json{{"bet", betIndex}});
    tx.credit(it->station, it->stake, reason::kBetReturn, roundId_, {.ref = "bet " + std::to_string(betIndex)});
    submit(std::move(tx));
    bets_.erase(it);
}

void ScenarioTable::close() {
    JournalTransaction tx = journal_.begin();
    tx.add(kind::kRoundClosed, roundId_, std::nullopt, json::object());
    submit(std::move(tx));
}

void ScenarioTable::deal(game::Card card) {
    const auto position = static_cast<std::int64_t>(cards_.size()) + 1;
    JournalTransaction tx = journal_.begin();
    tx.add(kind::kCardDealt, roundId_, std::nullopt,
           json{{"position", position}, {"card", card.toString()}, {"source", "rng"}, {"rescans", 0}});
    submit(std::move(tx));
    cards_.push_back(journal::DealtCard{position, card});
}

void ScenarioTable::settle() {
    std::string problem;
    const auto coup = journal::completeCoup(cards_, problem);
    if (!coup) {
        throw std::logic_error("ScenarioTable::settle: " + problem);
    }
    JournalTransaction tx = journal_.begin();
    journal::addSettlement(tx, roundId_, *coup, bets_, journal::settleBets(*coup, bets_, paytable_, rule_), paytable_,
                           sha_);
    submit(std::move(tx));
}

void ScenarioTable::voidRound(const std::string& why) {
    JournalTransaction tx = journal_.begin();
    journal::addVoid(tx, roundId_, bets_, why);
    submit(std::move(tx));
}

void ScenarioTable::ticketIn(std::int64_t station, game::Money amount, const std::string& validation) {
    JournalTransaction tx = journal_.begin();
    tx.add(kind::kTicketRedeemed, std::nullopt, station, json{{"validation", validation}, {"amount", amount}});
    tx.credit(station, amount, reason::kTicketIn, std::nullopt, {.ref = validation});
    submit(std::move(tx));
}

void ScenarioTable::ticketOut(std::int64_t station, game::Money amount, const std::string& validation) {
    JournalTransaction tx = journal_.begin();
    tx.add(kind::kTicketIssued, std::nullopt, station, json{{"validation", validation}, {"amount", amount}});
    const game::Money nonrestricted = std::min(amount, tx.promo(station).held.nonrestricted);
    tx.credit(station, -amount, reason::kTicketOut, std::nullopt,
              {.ref = validation, .promo = journal::PromoParts{0, -nonrestricted}});
    submit(std::move(tx));
}

void ScenarioTable::tip(std::int64_t station, game::Money amount) {
    JournalTransaction tx = journal_.begin();
    tx.add(kind::kTip, std::nullopt, station, json{{"amount", amount}});
    tx.credit(station, -amount, reason::kTip);
    submit(std::move(tx));
}

void ScenarioTable::handpay(std::int64_t station, game::Money amount) {
    JournalTransaction pending = journal_.begin();
    pending.add(kind::kHandpayPending, std::nullopt, station, json{{"amount", amount}, {"kind", "cancelled_credit"}});
    submit(std::move(pending));
    JournalTransaction reset = journal_.begin();
    reset.add(kind::kHandpayReset, std::nullopt, station,
              json{{"amount", amount}, {"kind", "cancelled_credit"}, {"by", "attendant"}});
    reset.credit(station, -amount, reason::kHandpay);
    submit(std::move(reset));
}

void ScenarioTable::aftRecord(std::int64_t station, const journal::AftTransferRecord& record) {
    JournalTransaction tx = journal_.begin();
    tx.add(record, std::nullopt, station);
    submit(std::move(tx));
}

void ScenarioTable::aftAcknowledged(std::int64_t station, const std::string& id) {
    JournalTransaction tx = journal_.begin();
    tx.add(journal::AftAcknowledgedRecord{id}, std::nullopt, station);
    submit(std::move(tx));
}

void ScenarioTable::aftTransfer(std::int64_t station, const journal::AftTransferRecord& record, game::Money amount,
                                journal::PromoParts parts, std::string_view reason) {
    JournalTransaction tx = journal_.begin();
    tx.add(record, std::nullopt, station);
    if (amount != 0) {
        tx.credit(station, amount, reason, std::nullopt, {.ref = "aft " + record.id, .promo = parts});
    }
    submit(std::move(tx));
}

void ScenarioTable::expireRestricted(std::int64_t station, game::Money amount, const std::string& ref) {
    JournalTransaction tx = journal_.begin();
    tx.credit(station, -amount, reason::kRestrictedExpired, std::nullopt,
              {.ref = ref, .promo = journal::PromoParts{-amount, 0}});
    submit(std::move(tx));
}

void ScenarioTable::snapshot() {
    pending_ = true;
    journal_.snapshot([this](const journal::CommitResult& result) {
        last_ = result;
        pending_ = false;
    });
    while (pending_ && wait_) {
        wait_();
    }
}

}  // namespace pitlink::test
