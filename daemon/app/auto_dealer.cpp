#include "daemon/app/auto_dealer.h"

#include <spdlog/spdlog.h>

#include "daemon/app/coup_format.h"
#include "daemon/game/outcome.h"
#include "daemon/game/third_card_rule.h"

namespace pitlink::app {

AutoDealer::AutoDealer(boost::asio::io_context& io, const Config& config, game::RandomSource& random,
                       std::uint64_t maxRounds)
    : io_(io), config_(config), random_(random), maxRounds_(maxRounds), timer_(io) {}

void AutoDealer::start() { scheduleRound(); }

void AutoDealer::stop() { timer_.cancel(); }

void AutoDealer::scheduleRound() {
    timer_.expires_after(config_.rounds.betsOpen + config_.rounds.lastBets);
    timer_.async_wait([this](const boost::system::error_code& ec) {
        if (!ec) {
            dealRound();
        }
    });
}

void AutoDealer::dealRound() {
    if (!shoe_ || shoe_->cutCardOut()) {
        const std::uint32_t number = shoe_ ? shoe_->number() + 1 : 1;
        shoe_ = std::make_unique<game::Shoe>(config_.table.shoe, random_, number);
        scoreboard_ = game::Scoreboard(number);  // roads reset at every new shoe
        roundInShoe_ = 0;
        spdlog::info("shoe {}: {} decks shuffled, cut card {} from the end, burn card {} ({} burned)", number,
                     config_.table.shoe.decks, config_.table.shoe.cutCardFromEnd, shoe_->burnCard().toString(),
                     shoe_->burnedCount());
    }
    ++roundInShoe_;
    ++rounds_;
    const game::Coup coup = game::dealCoup([this] { return shoe_->draw(); });
    const game::Outcome outcome = game::evaluate(coup);
    scoreboard_.add(outcome);
    spdlog::info("shoe {} round {}: {}", shoe_->number(), roundInShoe_, describeCoup(coup, outcome));
    if (shoe_->cutCardOut()) {
        const game::ShoeStatistics& st = scoreboard_.statistics();
        spdlog::info("shoe {}: cut card out after round {}, {} cards left; Banker {}, Player {}, Tie {}, "
                     "Banker pairs {}, Player pairs {}, naturals {}",
                     shoe_->number(), roundInShoe_, shoe_->remaining(), st.bankerWins, st.playerWins, st.ties,
                     st.bankerPairs, st.playerPairs, st.naturals);
    }
    if (maxRounds_ != 0 && rounds_ >= maxRounds_) {
        io_.stop();
        return;
    }
    scheduleRound();
}

}  // namespace pitlink::app
