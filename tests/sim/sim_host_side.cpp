// The accounting host on the SAS links, as the run drives it (sim_run.h, sim_accounting_host.h).
#include "tests/sim/sim_run.h"

namespace pitlink::sim {

std::vector<sas::LinkOutput*> Simulation::sasOutputs() {
    std::vector<sas::LinkOutput*> outputs;
    for (auto& line : lines_) {
        outputs.push_back(&line);
    }
    return outputs;
}

// Writes one poll into the station's port and returns what it answered (the host's wire).
std::vector<std::uint8_t> Simulation::poll(std::int64_t station, const std::vector<std::uint8_t>& frame) {
    SimSasLine& line = lines_[static_cast<std::size_t>(station - 1)];
    line.answer.clear();
    bool first = true;
    for (const std::uint8_t b : frame) {
        daemon_->sas()->port(station)->receive(sas::WireByte{b, first}, first);
        first = false;
    }
    return line.answer;
}

// The host polls its links in turn, one every 30 ms of simulated time, and acts on the
// exceptions it reads (sim_accounting_host.h).
void Simulation::hostPolls() {
    if (clockMs_ >= nextHostPollMs_ && daemon_ != nullptr && daemon_->sas() != nullptr) {
        host_.pollNext();
        aft_.advance(clockMs_);  // every open transfer on by one poll
        nextHostPollMs_ = clockMs_ + 30;
    }
}

// The host on its own initiative: LP 94 (remote hand-pay reset, racing the attendant's reset
// on the control socket), LP 1A, LP 2E (a game delay of up to 3 s, or its end, racing the
// stations' bets), or now and then LP 7F (its clock, mostly within the tolerance, sometimes
// far off).
void Simulation::accountingHost() {
    const auto& linked = host_.stations();
    const std::int64_t station =
        lockedOr(linked[std::uniform_int_distribution<std::size_t>(0, linked.size() - 1)(random_)], linked);
    const int roll = std::uniform_int_distribution<int>(0, 99)(random_);
    if (roll < 45) {
        remoteHandpayReset(station);
        if (random_() % 3 == 0) {
            send(*connections_.back(), json{{"cmd", "handpay_reset"}, {"station", station}});  // the attendant too
        }
    } else if (roll < 52) {
        // A legacy bonus (LP 8A), racing the station's bets in every game for its wallet.
        ++result_.sasPolls;
        const auto taken = host_.legacyBonus(station, std::uniform_int_distribution<std::int64_t>(1, 2000)(random_),
                                             static_cast<std::uint8_t>(random_() % 3));
        result_.legacyBonuses += taken.value_or(false) ? 1 : 0;
    } else if (roll < 78) {
        ++result_.sasPolls;
        host_.currentCredits(station);
    } else if (roll < 90) {
        ++result_.sasPolls;
        const int tenths = roll < 81 ? 0 : std::uniform_int_distribution<int>(1, 30)(random_);
        const std::int64_t sentMs = clockMs_;
        if (host_.delayGame(station, tenths)) {
            hostDelayUntil_[station] = tenths == 0 ? 0 : sentMs + std::int64_t{tenths} * 100;
        }
    } else {
        ++result_.sasPolls;
        const std::int64_t stationMs =
            executor_->wallMs() + daemon_->sas()->statusJson().value("clock_offset_ms", std::int64_t{0});
        const std::int64_t far = roll < 93 ? (roll % 2 == 0 ? 1 : -1) * (kClockToleranceS + 600) * 1000 : 0;
        host_.setClock(station, executor_->wallMs() + hostSkewMs_ + far, stationMs, kClockToleranceS);
    }
}

// The host's cashless side, at one of its links: mostly a station the stations' connections are
// betting at, so that locks and transfers race bets, cash-outs and rounds.
void Simulation::aftHost() {
    const auto& linked = host_.stations();
    ++result_.sasPolls;
    const std::int64_t answered = aft_.stats().registrationsAnswered;
    aft_.act(linked[std::uniform_int_distribution<std::size_t>(0, linked.size() - 1)(random_)], clockMs_);
    // As after the host's polls (step()): an answer given to the host's first send of a change
    // here is followed by the power cut too. A station that answered an LP B7 before its record
    // was durable would lose the asset number it told the host of (the host then finds the old
    // one in its next LP 73 answer); its answers come only on a repeat, never on the first send.
    if (options_.faults && aft_.stats().registrationsAnswered > answered &&
        std::uniform_int_distribution<int>(0, 3)(random_) == 0) {
        ++result_.registrationCrashes;
        crash("power cut with a registration change just answered", 0.5);
    }
}

// A hard host cash-out offered (6A): two times in three, before the host takes it, the operator
// re-settles the station's last round with a bet so that its slip loses (a win taken back can
// leave nothing to take: 86f2833) and the last rounds of the games it plays with other cards,
// and the station bets at once in one of them, racing for the credits offered (refused while its
// cash-out is pending, journaled like an acceptance).
bool Simulation::raceHardOffer(std::int64_t station) {
    if (random_() % 3 == 0 || daemon_ == nullptr || daemon_->table() == nullptr) {
        return false;
    }
    const std::vector<std::string> playing = daemon_->table()->wallet(station).games;
    if (playing.empty()) {
        return false;
    }
    Connection& o = *connections_.back();
    if (const auto slip = lastSlip_.find(station); slip != lastSlip_.end()) {
        // Player 9 against banker 6 loses a banker or tie slip; banker 9 against player 6 a
        // player or tie one (no pair either way).
        const bool player = slip->second.second.contains("player");
        send(o, json{{"cmd", "resettle"},
                     {"round", slip->second.first},
                     {"cards", player ? "2H 9S 4C KD" : "9S 2H KD 4C"},
                     {"reason", "video review"}});
    }
    for (const std::string& game : playing) {
        const std::int64_t last = gameTable(game).roundId();
        for (std::int64_t round = std::max<std::int64_t>(1, last - 1); round <= last; ++round) {
            send(o, game,
                 json{{"cmd", "resettle"}, {"round", round}, {"cards", randomCoup()}, {"reason", "video review"}});
        }
    }
    for (const auto& c : connections_) {
        if (!c->control && std::find(c->stations.begin(), c->stations.end(), station) != c->stations.end()) {
            const std::string& game =
                playing[std::uniform_int_distribution<std::size_t>(0, playing.size() - 1)(random_)];
            send(*c, game, json{{"op", "bet"}, {"station", station}, {"spot", "player"}, {"stake", 500}});
            break;
        }
    }
    return true;
}

void Simulation::noteTilts() {
    if (daemon_ == nullptr || daemon_->table() == nullptr) {
        return;
    }
    for (const auto& game : daemon_->games()) {
        if (game->tilted()) {
            aft_.tilted();
            return;
        }
    }
}

// LP 94: answered 00 (reset), 01 (unable) or 02 (not in a hand-pay).
void Simulation::remoteHandpayReset(std::int64_t station) {
    ++result_.sasPolls;
    host_.remoteHandpayReset(station);
}

// Mostly a station locked for a hand-pay among `among`, so that the attendant's reset and
// the host's LP 94 race for it; else `fallback`.
std::int64_t Simulation::lockedOr(std::int64_t fallback, const std::vector<std::int64_t>& among) {
    std::vector<std::int64_t> locked;
    for (const std::int64_t n : among) {
        if (daemon_->table()->wallet(n).handpay) {
            locked.push_back(n);
        }
    }
    if (locked.empty() || random_() % 10 < 3) {
        return fallback;
    }
    return locked[std::uniform_int_distribution<std::size_t>(0, locked.size() - 1)(random_)];
}

}  // namespace pitlink::sim
