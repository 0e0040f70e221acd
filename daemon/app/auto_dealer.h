#pragma once
// Deals rounds from the internal RNG shoe on the round timing of the configuration, on the
// logic thread's io_context. The table of issue 5 takes the place of this loop; the shoe
// handling (cut card, new shoe, numbering) is the one it will keep.

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <memory>

#include "daemon/app/config.h"
#include "daemon/game/random_source.h"
#include "daemon/game/scoreboard.h"
#include "daemon/game/shoe.h"

namespace pitlink::app {

class AutoDealer {
public:
    // Stops the io_context after `maxRounds` rounds (0 = run until stopped).
    AutoDealer(boost::asio::io_context& io, const Config& config, game::RandomSource& random, std::uint64_t maxRounds);
    void start();
    void stop();

    [[nodiscard]] std::uint64_t roundsDealt() const { return rounds_; }

private:
    void scheduleRound();
    void dealRound();

    boost::asio::io_context& io_;
    const Config& config_;
    game::RandomSource& random_;
    std::uint64_t maxRounds_;
    boost::asio::steady_timer timer_;
    std::unique_ptr<game::Shoe> shoe_;
    game::Scoreboard scoreboard_;
    std::uint32_t roundInShoe_ = 0;
    std::uint64_t rounds_ = 0;
};

}  // namespace pitlink::app
