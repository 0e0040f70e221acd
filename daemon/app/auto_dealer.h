#pragma once
// Deals rounds from the internal RNG shoe on the round timing of the configuration, on the
// logic thread's io_context, journaling every step (shoe, round opened, closed, each card,
// settlement) and going on only once the step has committed. The table of issue 5 takes the
// place of this loop (stations, bets, engine link); the shoe handling and the journaling order
// are the ones it keeps.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "daemon/app/config.h"
#include "daemon/game/paytable.h"
#include "daemon/game/random_source.h"
#include "daemon/game/scoreboard.h"
#include "daemon/game/shoe.h"
#include "daemon/journal/journal.h"

namespace pitlink::app {

struct DealerStart {
    std::int64_t nextRoundId = 1;
    std::uint32_t nextShoeNumber = 1;
};

class AutoDealer {
public:
    using Tilt = std::function<void(const std::string& why)>;
    // Stops the io_context after `maxRounds` rounds (0 = run until stopped). `tilt` is called
    // once if the journal fails; no round is dealt after it.
    AutoDealer(boost::asio::io_context& io, const Config& config, game::RandomSource& random,
               journal::Journal& journal, const game::Paytable& paytable, DealerStart start, std::uint64_t maxRounds,
               Tilt tilt);
    void start();
    void stop();
    [[nodiscard]] std::uint64_t roundsDealt() const { return rounds_; }

private:
    void openRound();
    void closeAndDeal();
    void finishRound(const game::Coup& coup);
    // Submits; `next` runs after the commit, unless the journal failed (tilt) or we stopped.
    void commit(journal::JournalTransaction tx, std::function<void()> next);

    boost::asio::io_context& io_;
    const Config& config_;
    game::RandomSource& random_;
    journal::Journal& journal_;
    const game::Paytable& paytable_;
    std::string paytableSha_;
    std::uint64_t maxRounds_;
    Tilt tilt_;
    boost::asio::steady_timer timer_;
    std::unique_ptr<game::Shoe> shoe_;
    game::Scoreboard scoreboard_;
    std::int64_t roundId_;
    std::uint32_t nextShoe_;
    std::uint32_t roundInShoe_ = 0;
    std::uint64_t rounds_ = 0;
    bool stopped_ = false;
};

}  // namespace pitlink::app
