#include "daemon/app/auto_dealer.h"

#include <spdlog/spdlog.h>

#include "daemon/app/coup_format.h"
#include "daemon/game/outcome.h"
#include "daemon/game/third_card_rule.h"
#include "daemon/journal/paytable_codec.h"
#include "daemon/journal/record_kinds.h"
#include "daemon/journal/round_settlement.h"

namespace pitlink::app {

using nlohmann::json;
namespace kind = journal::kind;

AutoDealer::AutoDealer(boost::asio::io_context& io, const Config& config, game::RandomSource& random,
                       journal::Journal& journal, const game::Paytable& paytable, DealerStart start,
                       std::uint64_t maxRounds, Tilt tilt)
    : io_(io), config_(config), random_(random), journal_(journal), paytable_(paytable),
      paytableSha_(journal::paytableSha256(paytable)), maxRounds_(maxRounds), tilt_(std::move(tilt)), timer_(io),
      roundId_(start.nextRoundId), nextShoe_(start.nextShoeNumber) {}

void AutoDealer::start() { openRound(); }

void AutoDealer::stop() {
    stopped_ = true;
    timer_.cancel();
}

void AutoDealer::commit(journal::JournalTransaction tx, std::function<void()> next) {
    journal_.submit(std::move(tx), [this, next = std::move(next)](const journal::CommitResult& result) {
        if (!result.ok) {
            if (!stopped_) {
                stopped_ = true;
                tilt_(result.error);
            }
            return;
        }
        if (!stopped_) {
            next();
        }
    });
}

void AutoDealer::openRound() {
    journal::JournalTransaction tx = journal_.begin();
    if (!shoe_ || shoe_->cutCardOut()) {
        if (shoe_) {
            tx.add(kind::kShoeEnded, std::nullopt, std::nullopt,
                   json{{"shoe", shoe_->number()}, {"rounds", roundInShoe_}, {"cards_left", shoe_->remaining()}});
        }
        const std::uint32_t number = nextShoe_++;
        shoe_ = std::make_unique<game::Shoe>(config_.table.shoe, random_, number);
        scoreboard_ = game::Scoreboard(number);  // roads reset at every new shoe
        roundInShoe_ = 0;
        tx.add(kind::kShoeStarted, std::nullopt, std::nullopt,
               json{{"shoe", number},
                    {"decks", config_.table.shoe.decks},
                    {"source", "rng"},
                    {"cards", shoe_->size()},
                    {"cut_from_end", config_.table.shoe.cutCardFromEnd},
                    {"burn_card", shoe_->burnCard().toString()},
                    {"burned", shoe_->burnedCount()}});
        spdlog::info("shoe {}: {} decks shuffled, cut card {} from the end, burn card {} ({} burned)", number,
                     config_.table.shoe.decks, config_.table.shoe.cutCardFromEnd, shoe_->burnCard().toString(),
                     shoe_->burnedCount());
    }
    ++roundInShoe_;
    tx.add(kind::kRoundOpened, roundId_, std::nullopt,
           json{{"shoe", shoe_->number()},
                {"round_in_shoe", roundInShoe_},
                {"paytable", paytable_.id},
                {"paytable_sha256", paytableSha_}});
    commit(std::move(tx), [this] {
        timer_.expires_after(config_.rounds.betsOpen + config_.rounds.lastBets);
        timer_.async_wait([this](const boost::system::error_code& ec) {
            if (!ec) {
                closeAndDeal();
            }
        });
    });
}

void AutoDealer::closeAndDeal() {
    journal::JournalTransaction closed = journal_.begin();
    closed.add(kind::kRoundClosed, roundId_, std::nullopt, json::object());
    commit(std::move(closed), [] {});
    // Each card is its own transaction, as a card from a physical shoe is; the writer keeps
    // their order, and the settlement goes on only after all of them have committed.
    int position = 0;
    const game::Coup coup = game::dealCoup([&] {
        const game::Card card = shoe_->draw();
        journal::JournalTransaction tx = journal_.begin();
        tx.add(kind::kCardDealt, roundId_, std::nullopt,
               json{{"position", ++position}, {"card", card.toString()}, {"source", "rng"}, {"rescans", 0}});
        commit(std::move(tx), [] {});
        return card;
    });
    journal::JournalTransaction settle = journal_.begin();
    journal::addSettlement(settle, roundId_, coup, {}, paytable_, paytableSha_);
    commit(std::move(settle), [this, coup] { finishRound(coup); });
}

void AutoDealer::finishRound(const game::Coup& coup) {
    const game::Outcome outcome = game::evaluate(coup);
    scoreboard_.add(outcome);
    ++rounds_;
    spdlog::info("shoe {} round {}: {} (round #{})", shoe_->number(), roundInShoe_, describeCoup(coup, outcome), roundId_);
    ++roundId_;
    if (shoe_->cutCardOut()) {
        const game::ShoeStatistics& st = scoreboard_.statistics();
        spdlog::info("shoe {}: cut card out after round {}, {} cards left; Banker {}, Player {}, Tie {}, "
                     "Banker pairs {}, Player pairs {}, naturals {}",
                     shoe_->number(), roundInShoe_, shoe_->remaining(), st.bankerWins, st.playerWins, st.ties,
                     st.bankerPairs, st.playerPairs, st.naturals);
    }
    if (maxRounds_ != 0 && rounds_ >= maxRounds_) {
        stopped_ = true;
        io_.stop();
        return;
    }
    openRound();
}

}  // namespace pitlink::app
