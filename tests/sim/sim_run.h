#pragma once
// One run of the simulation (simulation.h): the class Simulation, its code by part:
// - simulation.cpp: the frame: the simulated table's configuration, the daemon's life (boot),
//   one step of the workload and the run;
// - sim_actors.cpp: the workload's actors: the dealer, the stations, the operator, the buttons;
// - sim_host_side.cpp: the accounting host on the SAS links (sim_accounting_host.h) as the run
//   drives it;
// - sim_faults.cpp: a crash (the process killed, the power cut) and what the recovery must keep;
// - sim_checks.cpp: the checks: the journal (journal_checker.h) at checkpoints, the SAS meters
//   and tickets against it, the drain and the end.
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>
#include <sqlite3.h>

#include <algorithm>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <vector>

#include "daemon/app/daemon.h"
#include "daemon/config/config.h"
#include "daemon/config/paytable_loader.h"
#include "daemon/engine/engine_requests.h"
#include "daemon/game/card.h"
#include "daemon/game/random_source.h"
#include "daemon/io/ordered_replies.h"
#include "daemon/sas/station_meters.h"
#include "tests/sim/journal_checker.h"
#include "tests/sim/sim_accounting_host.h"
#include "tests/sim/sim_aft_host.h"
#include "tests/sim/sim_executor.h"
#include "tests/sim/sim_modbus_device.h"
#include "tests/sim/sim_sas_line.h"
#include "tests/sim/sim_worker.h"
#include "tests/sim/simulation.h"
#include "tests/support/power_loss_vfs.h"

namespace pitlink::sim {

using nlohmann::json;

inline constexpr int kStations = 8;
// The dealer's one-deck shoe is cut with this many cards behind the cut card.
inline constexpr std::size_t kCardsBehindCut = 12;
inline constexpr const char* kSpots[] = {"player",      "banker",   "tie", "player_pair",
                                         "banker_pair", "any_pair", "big", "small"};
inline constexpr std::uint16_t kDealButton = 0;
inline constexpr std::uint16_t kVoidButton = 1;
inline constexpr std::uint16_t kKeyButton = 2;
inline constexpr std::uint16_t kShoeButton = 3;
inline constexpr std::uint16_t kDoorSwitch = 4;
inline constexpr std::uint16_t kCountedKey = 5;  // the module counts its edges in input register kKeyCounter
inline constexpr std::uint16_t kKeyCounter = 40;
inline constexpr std::int64_t kClockToleranceS = 3600;
inline constexpr std::int64_t kAftTransferLimit = 50'000;  // sas.aft.transfer_limit (cents)
inline constexpr std::int64_t kJackpotLimit = 120'000;     // cashier.jackpot_limit (cents)

// The stations on SAS links to the accounting host (address = station). On even seeds the host
// redeems every ticket (`cashier.ticket_in_local: false`) and six stations are linked; on odd
// seeds tickets are redeemed locally and three are. The others cannot print tickets (hand-pays).
[[nodiscard]] std::vector<std::int64_t> sasStationsFor(bool hostRedeems);

// The simulated controller's games (seed 000's multi-game station): the first is the dealer's live
// game; seeds give it one to three RNG games beside it, which deal by themselves on their timers.
[[nodiscard]] std::vector<std::string> simGames(std::uint64_t seed);

// The simulated table's pitlink.yaml (simulation.cpp).
[[nodiscard]] std::string configYaml(const std::filesystem::path& dir, std::uint64_t seed);

// One connection to the engine link or the control socket, as the simulation sees it: the ids
// it wrote, in order, and the replies it must get, exactly once and in that order.
// Whether the accounting host had delayed the station's next game (LP 2E) when a bet was sent:
// well inside the delay it cannot be accepted; well outside it cannot be refused for it.
enum class HostDelay : std::uint8_t { NotABet, Inside, Outside, AtTheEdge };

struct Awaited {
    std::int64_t id = 0;
    std::string op;
    HostDelay delay = HostDelay::NotABet;
    // A station op: what the host knew of the station's AFT lock when it was sent.
    std::optional<LockView> aftLock;
    std::int64_t station = 0;  // a station op's
};

struct Connection {
    std::string name;
    bool control = false;
    std::vector<std::int64_t> stations;  // the stations whose ops it writes
    std::shared_ptr<io::OrderedReplies> replies;
    engine::EngineSession session;  // what its hello said (several games)
    std::deque<Awaited> awaiting;
    std::int64_t nextId = 1;
};

class Simulation {
public:
    explicit Simulation(const SimOptions& options);
    ~Simulation();
    SimResult run();

private:
    // --- the daemon's life ---

    void boot();
    std::shared_ptr<Connection> connection(std::string name, bool control, std::vector<std::int64_t> stations);
    void powerOff();

    // The process dies: its memory and whatever was not yet committed go; the file stays (with
    // what a power cut lost). Then a new process recovers from it and the workload goes on.
    void crash(const std::string& how, double keep);

    // --- one step of the workload ---

    void step();

    // A bet's expectation under the host's game delays: the daemon's delay starts when it reads
    // the poll, a little after the host sent it, so only what is clearly inside or outside counts.
    HostDelay hostDelayOf(const std::string& op, const json& request) const;
    void send(Connection& c, json request);
    void onReply(Connection& c, const std::string& line);

    // The dealer: a round opened, its bets closed and its coup dealt, from its own one-deck shoe,
    // each as a pipelined burst; with a card too many, an impossible card, an unreadable card or
    // a void racing the last card now and then.
    void dealer();

    // The reader's report of the shoe's cut and burn (seeds 003/004), pipelined after new_shoe;
    // now and then reported twice (already_reported) or with a count that does not match.
    void reportShoePreparation(Connection& d);
    void newDealerShoe();
    void dealCoup(Connection& d, std::int64_t round);

    // Cents to add to a stake so that it is not a multiple of 20: a Banker win of 19/20 then breaks,
    // and a spot paid per addition would come to less than the spot paid whole. Half the stakes
    // stay whole credits of 1.00, which the stations that chose that denomination can play.
    std::int64_t oddCents();

    // Station connections: bursts of station ops, pipelined.
    void stations();
    void stationOp(Connection& c, std::int64_t station);
    // Several games: a station op for a game drawn at random (sometimes without `game`: the
    // connection's first), and now and then a station joining or leaving a game, racing its bets.
    void send(Connection& c, const std::string& game, json request);
    [[nodiscard]] const std::string& anyGame();
    [[nodiscard]] table::Table& gameTable(const std::string& name);
    void joinOrLeave(Connection& c, std::int64_t station);

    // Issue 20's station functions, racing the rest: a dispute of the current or last deal
    // (the table then holds until the operator decides), a reservation with or without a PIN and
    // its release with a PIN that may be wrong, auto-repeat turned on or off.
    void floorFunction(Connection& c, std::int64_t station, const std::string& game);

    // The operator on the control commands.
    void operatorAction();
    static std::vector<std::int64_t> allStations();
    std::string randomCoup();

    // A dealer button held for a few polls, then released; a tap on the key whose edges the
    // module counts (shorter than a poll: only its counter sees it); now and then the side door
    // opened for a while (a tilt racing the round).
    void pressButton();
    void releaseButtons();

    // --- the accounting host (SAS) ---

    std::vector<sas::LinkOutput*> sasOutputs();

    // Writes one poll into the station's port and returns what it answered (the host's wire).
    std::vector<std::uint8_t> poll(std::int64_t station, const std::vector<std::uint8_t>& frame);

    // The host polls its links in turn, one every 30 ms of simulated time, and acts on the
    // exceptions it reads (sim_accounting_host.h).
    void hostPolls();

    // The host on its own initiative: LP 94 (remote hand-pay reset, racing the attendant's reset
    // on the control socket), LP 1A, LP 2E (a game delay of up to 3 s, or its end, racing the
    // stations' bets), or now and then LP 7F (its clock, mostly within the tolerance, sometimes
    // far off).
    void accountingHost();

    // The host's cashless side (sim_aft_host.h): registrations, locks racing the stations' bets
    // and cash-outs, transfers racing rounds, at a station of its links.
    void aftHost();
    // A hard host cash-out offered (6A), raced two times in three (SimAftHost::onHardOffer).
    bool raceHardOffer(std::int64_t station);
    // Any game tilted: a lock the host holds may have been released.
    void noteTilts();

    // LP 94: answered 00 (reset), 01 (unable) or 02 (not in a hand-pay).
    void remoteHandpayReset(std::int64_t station);

    // Mostly a station locked for a hand-pay among `among`, so that the attendant's reset and
    // the host's LP 94 race for it; else `fallback`.
    std::int64_t lockedOr(std::int64_t fallback, const std::vector<std::int64_t>& among);

    // --- checks ---

    [[nodiscard]] std::string path() const;
    void checkpoint(const std::string& where);

    // After every step, from the daemon's committed ledger (what SAS answers from): each station's
    // SAS meters balance (protocols/sas/README.md "Meters") and none has gone down since the
    // last step, across crashes too (what was committed stays committed).
    void checkMeterIdentity();

    // What the accounting host reads is what the journal says: current credits (LP 1A) and the
    // meters of LP 2F, each against the checker's own sums of the bet and credit records (4 BCD
    // bytes, 5 for the cents meters: what is reported keeps the low digits). And what a host
    // reconciles from its reads alone: current credits = ticket in + coin out + keyed on - coin in
    // - cancelled credits - keyed off (protocols/sas/README.md "Meters"; the denomination is 1).
    void checkMeters(const std::string& where, const CheckReport& report);
    bool checkPlays(const std::string& where, std::int64_t station, const StationMeters& mine,
                    const std::array<std::int64_t, 4>& whole);

    // Every ticket the journal credited through the host is one the host accepted, for its
    // amount; every ticket printed at a linked station carries a number the host gave that
    // station for that amount; a station without a link prints none.
    void checkTickets(const std::string& where, const CheckReport& report);

    // Credit types and AFT (issue 36), at a quiet checkpoint: each linked station's 0019, 001A,
    // 001B and AFT meters (LP 2F) are the checker's sums of the credit records, LP 74's balances
    // are the types it holds, and the AFT meters are the host's own sums of the transfers it
    // resolved (a station with none open).
    void checkAft(const std::string& where, const CheckReport& report);
    // The end: every transaction ID the host sent resolved to one final status, each the journal's.
    void finishAft(const CheckReport& report);

    // The table's shoe in play is the checker's, when nothing is in flight: the same shoe, round
    // in shoe, every card left and every result on its roads. The first check after a start
    // counts a resumed shoe (issue 33).
    void checkShoe(const std::string& where, const CheckReport& report);

    // The end: every request answered once everything has committed, then the journal checked.
    // Time passes until every request is answered and nothing is in flight, then until the host
    // has read what is left (what it does raises more: 3D for the next record, 68).
    void drain();
    void finish();
    void fail(const std::string& what);
    SimOptions options_;
    std::mt19937_64 random_;
    game::SeededRandom tableRandom_;
    bool hostRedeems_;
    std::vector<std::string> games_;  // simGames(seed)
    std::vector<SimSasLine> lines_;   // station n's line is lines_[n - 1]
    SimAccountingHost host_;
    SimAftHost aft_;
    std::int64_t hostSkewMs_;  // the casino's clock against the controller's
    std::int64_t nextHostPollMs_ = 0;
    std::map<std::int64_t, std::int64_t> hostDelayUntil_;
    std::vector<std::pair<std::int64_t, std::int64_t>> hostCashoutReplies_;  // cash_out `to_host`: station, amount
    std::map<std::int64_t, const char*> lastSpot_;                           // each station's last spot bet
    // Each station's last round with a bet accepted, and the spots of its slip then (bet replies).
    std::map<std::int64_t, std::pair<std::int64_t, std::set<std::string>>> lastSlip_;
    std::map<std::int64_t, sas::StationSasMeters>
        lastSasMeters_;  // each station's, after the last step  // station -> end of its LP 2E delay (simulated ms)
    config::Config config_;
    game::Paytable paytable_;
    std::unique_ptr<SimExecutor> executor_;
    std::shared_ptr<bool> powerOff_;
    std::unique_ptr<app::Daemon> daemon_;
    bool ready_ = false;
    std::int64_t clockMs_ = 0;
    std::vector<std::shared_ptr<Connection>> connections_;
    std::map<std::uint16_t, bool> inputs_;
    std::map<std::uint16_t, std::uint16_t> inputRegisters_;  // the module's edge counters
    std::map<std::uint16_t, std::int64_t> pressed_;          // button -> when it is released
    std::vector<std::string> shoe_;
    std::size_t next_ = 0;
    std::set<std::string> seen_;
    std::int64_t dealerRound_ = 0;
    // The shoe number the table gave the dealer's last new_shoe, once answered: after a restart
    // the dealer goes on with its physical shoe only when the table still has it (a new_shoe
    // whose answer never came may have been lost with the power).
    std::int64_t dealerShoe_ = 0;
    bool dealerShoeAnswered_ = false;
    bool dealerRestarted_ = false;  // the daemon restarted since the dealer last found the table idle
    bool justBooted_ = false;       // no checkpoint since the daemon started
    bool ending_ = false;           // finish(): no new faults, not even at a rotation's steps
    std::int64_t tickets_ = 0;
    std::int64_t committedSeq_ = 0;
    std::string committedHash_;
    JournalChecker checker_;  // one for the run: each check feeds it what was added since the last
    SimResult result_;
};

}  // namespace pitlink::sim
