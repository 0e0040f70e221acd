// The table I/O of a controller of several games (issue 34): each lamp shows its own game, each
// button acts on its own game and its press names it, a confirm press carries out only what its
// game's buttons armed, a lamp test of one game runs while another deals, a module that does not
// answer tilts only the games whose points it carries, and `io` answers by game. Two modules in
// memory, one per game, on a manual clock; the games' journal commits when the test flushes it.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <vector>

#include "daemon/journal/records/record_kinds.h"
#include "daemon/modbus/table_io.h"
#include "tests/support/memory_modbus_device.h"
#include "tests/unit/controller_fixture.h"

namespace pitlink::modbus {
namespace {

using std::chrono::milliseconds;
using table::Reply;
using table::Respond;

constexpr std::uint16_t kBetsCoil = 1;
constexpr std::uint16_t kIdleCoil = 3;
// The buttons are bits of input register 0 of their game's module.
constexpr std::uint16_t kFirstButton = 1;  // alpha: void (needs confirming); beta: close bets
constexpr std::uint16_t kConfirmButton = 2;

// alpha's lamp and buttons on module alpha-io, beta's on beta-io.
TableIoSettings twoGames() {
    TableIoSettings s;
    s.enabled = true;
    s.poll = milliseconds(20);
    s.debounce = milliseconds(20);
    s.reconnectMin = milliseconds(100);
    s.reconnectMax = milliseconds(400);
    s.offlineTilt = milliseconds(500);
    ModuleSettings alpha;
    alpha.name = "alpha-io";
    ModuleSettings beta;
    beta.name = "beta-io";
    beta.connection.port = 1503;
    s.modules = {alpha, beta};
    s.points.outputs = {{"alpha_bets", OutputKind::Coil, kBetsCoil, 0},
                        {"beta_bets", OutputKind::Coil, kBetsCoil, 0},
                        {"beta_idle", OutputKind::Coil, kIdleCoil, 0}};
    s.lamps = {{{TableCondition::BetsOpen, LampState::On}},
               {{TableCondition::BetsOpen, LampState::On}},
               {{TableCondition::Idle, LampState::On}}};
    s.outputModule = {0, 1, 1};
    s.outputGame = {0, 1, 1};
    s.points.inputs = {{"alpha_void", InputKind::InputRegisterBit, 0, 0, false, std::nullopt},
                       {"alpha_confirm", InputKind::InputRegisterBit, 0, 1, false, std::nullopt},
                       {"beta_close", InputKind::InputRegisterBit, 0, 0, false, std::nullopt},
                       {"beta_confirm", InputKind::InputRegisterBit, 0, 1, false, std::nullopt}};
    s.buttons = {{ButtonAction::VoidRound, true, milliseconds(10'000)},
                 {ButtonAction::Confirm, false, milliseconds(10'000)},
                 {ButtonAction::CloseBets, false, milliseconds(10'000)},
                 {ButtonAction::Confirm, false, milliseconds(10'000)}};
    s.inputModule = {0, 0, 1, 1};
    s.inputGame = {0, 0, 1, 1};
    return s;
}

struct TwoGameIo : table::Controller4 {
    TwoGameIo() : table::Controller4({"alpha", "beta"}) {
        io.emplace(settings, std::vector<table::Table*>{&game(0), &game(1)}, *journal, timers,
                   [this](std::size_t module, CycleRequest request, std::function<void(CycleResult)> done) {
                       done(runCycle(module == 0 ? alphaIo : betaIo, request));
                   });
    }
    ~TwoGameIo() { io.reset(); }
    TwoGameIo(const TwoGameIo&) = delete;
    TwoGameIo& operator=(const TwoGameIo&) = delete;

    void advance(milliseconds by) {
        timers.advance(by);
        deferred.flush();
    }
    // A press of the button at `bits` of `module`'s input register 0, held 100 ms.
    void press(test::MemoryDevice& module, std::uint16_t bits) {
        module.inputRegisters[0] = bits;
        advance(milliseconds(100));
        module.inputRegisters[0] = 0;
        advance(milliseconds(100));
    }

    TableIoSettings settings = twoGames();
    test::MemoryDevice alphaIo;
    test::MemoryDevice betaIo;
    std::optional<TableIo> io;
};

TEST(TableIoGames, EachLampShowsItsOwnGame) {
    TwoGameIo f;
    f.io->start();
    EXPECT_FALSE(f.alphaIo.coils[kBetsCoil]);
    EXPECT_FALSE(f.betaIo.coils[kBetsCoil]);
    EXPECT_TRUE(f.betaIo.coils[kIdleCoil]);
    f.open(1);
    f.advance(milliseconds(20));
    EXPECT_TRUE(f.betaIo.coils[kBetsCoil]);
    EXPECT_FALSE(f.betaIo.coils[kIdleCoil]);
    EXPECT_FALSE(f.alphaIo.coils[kBetsCoil]);  // alpha is idle
    f.open(0);
    f.advance(milliseconds(20));
    EXPECT_TRUE(f.alphaIo.coils[kBetsCoil]);
    const nlohmann::json status = f.io->statusJson();
    EXPECT_EQ(status.at("games").at("beta").at("lamps"), (nlohmann::json{"beta_bets", "beta_idle"}));
    EXPECT_EQ(status.at("games").at("alpha").at("buttons"), (nlohmann::json{"alpha_void", "alpha_confirm"}));
}

TEST(TableIoGames, AButtonActsOnItsGameAndAConfirmOnlyOnWhatItsGameArmed) {
    TwoGameIo f;
    f.open(0);
    f.open(1);
    f.io->start();
    f.press(f.betaIo, kFirstButton);  // beta's close bets
    EXPECT_FALSE(table::bettingOpen(f.game(1).phase()));
    EXPECT_TRUE(table::bettingOpen(f.game(0).phase()));
    f.press(f.alphaIo, kFirstButton);  // alpha's void: armed
    EXPECT_TRUE(table::bettingOpen(f.game(0).phase()));
    f.press(f.betaIo, kConfirmButton);  // beta has nothing armed: alpha's round stays
    EXPECT_TRUE(table::bettingOpen(f.game(0).phase()));
    f.press(f.alphaIo, kConfirmButton);
    EXPECT_EQ(f.game(0).phase(), table::RoundPhase::Idle);  // voided
    const auto presses = f.bodies(journal::kind::kButtonPressed);
    ASSERT_EQ(presses.size(), 4U);
    EXPECT_EQ(presses[0].at("game"), "beta");
    EXPECT_EQ(presses[0].at("outcome"), "done");
    EXPECT_EQ(presses[1].at("game"), "alpha");
    EXPECT_EQ(presses[1].at("outcome"), "armed");
    EXPECT_EQ(presses[2].at("game"), "beta");
    EXPECT_EQ(presses[2].at("outcome"), "nothing to confirm");
    EXPECT_EQ(presses[3].at("game"), "alpha");
    EXPECT_EQ(presses[3].at("outcome"), "confirmed");
    EXPECT_EQ(presses[3].at("confirms"), "void_round");
    EXPECT_EQ(f.bodies(journal::kind::kRoundVoided).size(), 1U);
}

TEST(TableIoGames, ALampTestOfOneGameRunsWhileAnotherDeals) {
    TwoGameIo f;
    f.open(0);
    f.io->start();
    const auto test = [&](std::optional<std::size_t> game) {
        return f.call([&](Respond r) { f.io->lampTest(milliseconds(100), "tech", game, r); });
    };
    const Reply started = test(1);
    ASSERT_TRUE(started.ok) << started.message;
    f.advance(milliseconds(20));
    EXPECT_TRUE(f.alphaIo.coils[kBetsCoil]);  // alpha's players still read their lamp
    EXPECT_TRUE(f.betaIo.coils[kBetsCoil]);   // beta's first lamp alone
    EXPECT_FALSE(f.betaIo.coils[kIdleCoil]);
    f.advance(milliseconds(100));
    EXPECT_FALSE(f.betaIo.coils[kBetsCoil]);
    EXPECT_TRUE(f.betaIo.coils[kIdleCoil]);
    EXPECT_TRUE(f.alphaIo.coils[kBetsCoil]);
    f.advance(milliseconds(120));
    EXPECT_FALSE(f.io->statusJson().at("lamp_test"));
    EXPECT_TRUE(f.betaIo.coils[kIdleCoil]);  // beta is idle: its lamps show it again
    EXPECT_FALSE(f.betaIo.coils[kBetsCoil]);
    // Every lamp, or alpha's: alpha is in a round.
    EXPECT_EQ(test(std::nullopt).error, "round_in_progress");
    EXPECT_EQ(test(0).error, "round_in_progress");
    const auto records = f.bodies(journal::kind::kModbusLampTest);
    ASSERT_EQ(records.size(), 3U);
    EXPECT_EQ(records[0].at("game"), "beta");
    EXPECT_EQ(records[0].at("lamps"), (nlohmann::json{"beta_bets", "beta_idle"}));
    EXPECT_FALSE(records[1].contains("game"));
    EXPECT_EQ(records[1].at("lamps").size(), 3U);
    EXPECT_EQ(records[2].at("game"), "alpha");
}

TEST(TableIoGames, AModuleThatDoesNotAnswerTiltsOnlyTheGamesOfItsPoints) {
    TwoGameIo f;
    f.betaIo.refuseConnect = true;
    f.io->start();
    f.advance(milliseconds(520));
    EXPECT_EQ(f.game(1).tilts().count("modbus:beta-io"), 1U);
    EXPECT_TRUE(f.game(0).tilts().empty());
    f.betaIo.refuseConnect = false;
    f.advance(milliseconds(500));
    EXPECT_TRUE(f.game(1).tilts().empty());
    const auto raised = f.bodies(journal::kind::kTiltRaised);
    ASSERT_EQ(raised.size(), 1U);
    EXPECT_EQ(raised[0].at("game"), "beta");
}

TEST(TableIoGames, IoAnswersByGame) {
    TwoGameIo f;
    f.io->start();
    std::optional<nlohmann::json> all;
    std::optional<nlohmann::json> beta;
    f.io->readIo(std::nullopt, [&](const nlohmann::json& io) { all = io; });
    f.io->readIo(1, [&](const nlohmann::json& io) { beta = io; });
    f.advance(milliseconds(20));
    ASSERT_TRUE(all && beta);
    EXPECT_EQ(all->at("modules").at(0).at("outputs").at(0).at("game"), "alpha");
    EXPECT_EQ(all->at("modules").at(1).at("inputs").size(), 2U);
    EXPECT_TRUE(beta->at("modules").at(0).at("outputs").empty());  // alpha-io carries none of beta's
    ASSERT_EQ(beta->at("modules").at(1).at("outputs").size(), 2U);
    EXPECT_EQ(beta->at("modules").at(1).at("outputs").at(1).at("name"), "beta_idle");
    EXPECT_EQ(beta->at("modules").at(1).at("inputs").at(0).at("game"), "beta");
}

}  // namespace
}  // namespace pitlink::modbus
