// The run's checks (sim_run.h): the journal at checkpoints, the SAS meters and tickets against it,
// the drain and the end.
#include "tests/sim/sim_run.h"

namespace pitlink::sim {

std::string Simulation::path() const {
    return (options_.dir / "journal.db").string();
}

void Simulation::checkpoint(const std::string& where) {
    if (!result_.ok || daemon_->journal() == nullptr) {
        return;
    }
    for (const auto& c : connections_) {
        if (c->replies->duplicates() != 0) {
            fail(where + ": " + c->name + " got a reply twice");
            return;
        }
    }
    // A quiet moment (what is in flight commits), so that the daemon's committed state can be
    // compared with the journal's; the workload waits meanwhile, as if nobody played.
    for (int i = 0; i < 100 && daemon_->journal()->inFlight() > 0 && !test::PowerLoss::powerIsOff(); ++i) {
        clockMs_ += 2;
        executor_->runUntil(clockMs_);
    }
    if (test::PowerLoss::powerIsOff() || daemon_->journal()->failed()) {
        return;  // the next step restarts the daemon, and checks the journal after its recovery
    }
    CheckReport report;
    try {
        report = checker_.check(path(), test::kPowerLossVfs);
    } catch (const std::exception& error) {
        fail(where + ": the journal cannot be read: " + error.what());
        return;
    }
    if (!report.ok()) {
        std::string all;
        for (const auto& p : report.problems) {
            all += "\n    " + p;
        }
        fail(where + ": the journal does not reconcile:" + all);
        return;
    }
    result_.records = report.records;
    result_.roundsSettled = report.settledRounds;
    result_.roundsVoided = report.voidedRounds;
    result_.otherGameRounds = 0;
    for (const auto& [game, rounds] : report.roundsByGame) {
        result_.otherGameRounds += game != games_.front() && !game.empty() ? rounds : 0;
    }
    result_.otherGameBets = report.otherGameBets;
    result_.gameChanges = report.gameChanges;
    result_.edges = report.protection.edges;
    result_.edgeClosures = report.protection.closures;
    result_.guardedBets = report.protection.acceptedGuarded;
    result_.closedRefusals = report.protection.refusedClosed;
    result_.pendingRefusals = report.protection.refusedPending;
    result_.counterAlerts = report.protection.alerts;
    const journal::Journal& j = *daemon_->journal();
    if (j.lastCommittedSeq() > 0 && !test::PowerLoss::powerIsOff()) {
        committedSeq_ = j.lastCommittedSeq();
        committedHash_ = checker_.hashAtLastCheck(committedSeq_);
        if (committedHash_.empty()) {  // committed after the check read the files
            committedHash_ = recordHash(path(), test::kPowerLossVfs, committedSeq_);
        }
    }
    if (j.inFlight() == 0 && !j.failed()) {
        // Nothing on its way: the daemon's credits are the checker's.
        for (std::int64_t s = 1; s <= kStations; ++s) {
            const auto it = report.credits.find(s);
            const std::int64_t mine = it == report.credits.end() ? 0 : it->second;
            if (j.committed().credits(s) != mine) {
                fail(where + ": station " + std::to_string(s) + " holds " + std::to_string(j.committed().credits(s)) +
                     " credits in the daemon, " + std::to_string(mine) + " by the journal's own sums");
                return;
            }
        }
        checkMeters(where, report);
        checkAft(where, report);
        checkShoe(where, report);
    }
    checkTickets(where, report);
}

void Simulation::checkShoe(const std::string& where, const CheckReport& report) {
    const bool booted = justBooted_;
    justBooted_ = false;
    if (!report.shoe) {
        return;  // no reader shoe has started, or the last one ended
    }
    const CheckedShoe& mine = *report.shoe;
    const table::Table& t = *daemon_->table();
    const std::string shoe = "shoe " + std::to_string(mine.shoe);
    if (t.shoeNumber() != mine.shoe) {
        fail(where + ": the table is on shoe " + std::to_string(t.shoeNumber()) + ", the journal on " + shoe +
             (booted ? " (not resumed at the start)" : ""));
        return;
    }
    if (t.roundInShoe() != mine.roundInShoe) {
        fail(where + ": " + shoe + " is at round " + std::to_string(t.roundInShoe()) + " on the table, " +
             std::to_string(mine.roundInShoe) + " by the journal");
        return;
    }
    const game::ShoeComposition left = t.shoeLeft();
    for (const auto& [name, count] : mine.left) {
        if (left.count(*game::parseCard(name)) != count) {
            fail(where + ": " + shoe + " holds " + std::to_string(left.count(*game::parseCard(name))) + " " + name +
                 " on the table, " + std::to_string(count) + " by the journal's own count");
            return;
        }
    }
    if (left.total() != mine.total()) {
        fail(where + ": " + shoe + " holds " + std::to_string(left.total()) + " cards on the table, " +
             std::to_string(mine.total()) + " by the journal");
        return;
    }
    std::vector<std::string> beads;
    for (const game::RoundMarks& marks : t.scoreboard().beads()) {
        std::string mark(1, game::winnerLetter(marks.winner));
        mark += marks.playerPair ? "p" : "";
        mark += marks.bankerPair ? "b" : "";
        mark += marks.natural != 0 ? std::to_string(marks.natural) : "";
        beads.push_back(mark);
    }
    if (beads != mine.results) {
        fail(where + ": " + shoe + "'s roads hold " + std::to_string(beads.size()) + " results on the table, " +
             std::to_string(mine.results.size()) + " by the journal, or others");
        return;
    }
    ++result_.shoeChecks;
    if (booted && mine.roundInShoe > 0) {
        ++result_.shoesResumed;
        if (mine.startedSeq < firstSeqOfActive(path(), test::kPowerLossVfs)) {
            ++result_.shoesResumedAcrossRotation;
        }
    }
}

// After every step, from the daemon's committed ledger (what SAS answers from): each station's
// SAS meters balance (protocols/sas/README.md "Meters") and none has gone down since the
// last step, across crashes too (what was committed stays committed).
void Simulation::checkMeterIdentity() {
    if (!result_.ok || daemon_ == nullptr || daemon_->journal() == nullptr) {
        return;
    }
    for (const auto& [station, account] : daemon_->journal()->committed().stations()) {
        const sas::StationSasMeters m = sas::stationSasMeters(account);
        // With the AFT terms (protocols/sas/README.md "Meters"), from the account's own meters.
        using journal::Meter;
        const journal::MeterSet& a = account.meters;
        const std::int64_t aftIn = a[Meter::TransferInCashable] + a[Meter::TransferInRestricted] +
                                   a[Meter::TransferInNonrestricted] + a[Meter::BonusCashable] +
                                   a[Meter::BonusNonrestricted];
        const std::int64_t aftOut =
            a[Meter::TransferOutCashable] + a[Meter::TransferOutRestricted] + a[Meter::TransferOutNonrestricted];
        const std::int64_t balance = m.ticketIn + m.coinOut + m.keyedOn + aftIn + m.legacyBonus - m.coinIn -
                                     m.cancelled - m.keyedOff - aftOut - m.attendantPaidBonus -
                                     a[Meter::RestrictedExpired];
        if (m.current != balance) {
            fail("step " + std::to_string(result_.step) + ": station " + std::to_string(station) +
                 "'s SAS meters do not balance: current credits " + std::to_string(m.current) +
                 " != " + std::to_string(balance));
            return;
        }
        const sas::StationSasMeters before = lastSasMeters_[station];
        const std::vector<std::pair<const char*, std::pair<std::int64_t, std::int64_t>>> counted{
            {"coin in", {before.coinIn, m.coinIn}},       {"coin out", {before.coinOut, m.coinOut}},
            {"jackpot", {before.jackpot, m.jackpot}},     {"cancelled", {before.cancelled, m.cancelled}},
            {"ticket in", {before.ticketIn, m.ticketIn}}, {"keyed on", {before.keyedOn, m.keyedOn}},
            {"keyed off", {before.keyedOff, m.keyedOff}}};
        for (const auto& [name, values] : counted) {
            if (values.second < values.first) {
                fail("step " + std::to_string(result_.step) + ": station " + std::to_string(station) + "'s SAS " +
                     name + " meter went down from " + std::to_string(values.first) + " to " +
                     std::to_string(values.second));
                return;
            }
        }
        lastSasMeters_[station] = m;
    }
}

// What the accounting host reads is what the journal says: current credits (LP 1A) and the
// meters of LP 2F, each against the checker's own sums of the bet and credit records (4 BCD
// bytes, 5 for the cents meters: what is reported keeps the low digits). And what a host
// reconciles from its reads alone: current credits = ticket in + coin out + keyed on - coin in
// - cancelled credits - keyed off (protocols/sas/README.md "Meters"; the denomination is 1).
void Simulation::checkMeters(const std::string& where, const CheckReport& report) {
    static const std::vector<std::uint8_t> kFirst = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0D, 0x0E};
    static const std::vector<std::uint8_t> kSecond = {0x21, 0x22, 0x23, 0xFA, 0xFD, 0xFE};
    for (const std::int64_t s : host_.stations()) {
        const auto it = report.meters.find(s);
        const StationMeters mine = it == report.meters.end() ? StationMeters{} : it->second;
        const std::map<std::uint8_t, std::int64_t> expected{{0x00, mine.coinIn},
                                                            {0x01, mine.coinOut},
                                                            {0x02, mine.jackpots},
                                                            {0x03, mine.handpaid},
                                                            {0x04, mine.cancelled},
                                                            {0x05, mine.gamesPlayed},
                                                            {0x06, mine.gamesWon},
                                                            {0x07, mine.gamesLost},
                                                            {0x0D, mine.ticketIn},
                                                            {0x0E, mine.ticketOut},
                                                            {0x21, mine.bonusHandpaid},
                                                            {0x22, mine.settledPaid},
                                                            {0x23, mine.handpaid + mine.jackpots + mine.bonusHandpaid},
                                                            {0xFA, mine.keyedOn},
                                                            {0xFD, mine.keyedOff},
                                                            {0xFE, mine.restrictedExpired}};
        const auto credits = host_.currentCredits(s);
        auto meters = host_.meters(s, kFirst);
        const auto more = host_.meters(s, kSecond);
        ++result_.meterChecks;
        if (!credits || !meters || !more) {
            return;  // the host reported what was wrong
        }
        meters->insert(more->begin(), more->end());
        const std::int64_t current = mine.credits + mine.inPlay;
        if (*credits != current % 100'000'000) {
            fail(where + ": station " + std::to_string(s) + "'s SAS current credits meter reads " +
                 std::to_string(*credits) + ", the journal's own sums say " + std::to_string(current) + " (" +
                 std::to_string(mine.credits) + " and " + std::to_string(mine.inPlay) + " in play)");
            return;
        }
        for (const auto& [code, value] : expected) {
            const std::int64_t modulus = code == 0x0D || code == 0x0E ? 10'000'000'000 : 100'000'000;
            if (meters->at(code) != value % modulus) {
                fail(where + ": station " + std::to_string(s) + "'s SAS meter " + std::to_string(code) + " reads " +
                     std::to_string(meters->at(code)) + ", the journal's own sums say " + std::to_string(value));
                return;
            }
        }
        const auto aftMeters = host_.meters(s, {0xA0, 0xA2, 0xA4, 0xAE, 0xB0, 0xB8, 0xBA, 0xBC});
        if (!aftMeters) {
            return;
        }
        meters->insert(aftMeters->begin(), aftMeters->end());
        const auto legacy = host_.legacyBonusMeters(s);  // LP 9A: the identity's legacy bonus term
        if (!legacy) {
            return;
        }
        if (*legacy != mine.legacyBonus % 100'000'000) {
            fail(where + ": station " + std::to_string(s) + "'s LP 9A legacy bonuses read " + std::to_string(*legacy) +
                 ", the journal's own sums say " + std::to_string(mine.legacyBonus));
            return;
        }
        const auto& m = *meters;
        const std::int64_t in = m.at(0x0D) + m.at(0x01) + m.at(0xFA) + m.at(0xA0) + m.at(0xA2) + m.at(0xA4) +
                                m.at(0xAE) + m.at(0xB0) + *legacy;
        const std::int64_t out =
            m.at(0x00) + m.at(0x04) + m.at(0xFD) + m.at(0xFE) + m.at(0xB8) + m.at(0xBA) + m.at(0xBC) + m.at(0x21);
        if (*credits != in - out) {
            fail(where + ": station " + std::to_string(s) + "'s SAS meters do not reconcile: current credits " +
                 std::to_string(*credits) + " != " + std::to_string(in) + " in - " + std::to_string(out) + " out");
            return;
        }
        if (!checkPlays(where, s, mine, {m.at(0x00), m.at(0x01), m.at(0x02), m.at(0x05)})) {
            return;
        }
    }
}

// Each game's meters (LP 52) and each denomination's (B0 around LP 2F, game 0) against the
// checker's own sums of the settlement and jackpot credits naming them, and what a host checks
// from its reads alone: the games add up to game 0, and so do the denominations.
bool Simulation::checkPlays(const std::string& where, std::int64_t s, const StationMeters& mine,
                            const std::array<std::int64_t, 4>& whole) {
    const auto fails = [&](const std::string& what, const std::array<std::int64_t, 4>& read,
                           const std::array<std::int64_t, 4>& want) {
        if (read == want) {
            return false;
        }
        fail(where + ": station " + std::to_string(s) + "'s " + what + " reads coin in, coin out, jackpot, games " +
             std::to_string(read[0]) + ", " + std::to_string(read[1]) + ", " + std::to_string(read[2]) + ", " +
             std::to_string(read[3]) + "; expected " + std::to_string(want[0]) + ", " + std::to_string(want[1]) + ", " +
             std::to_string(want[2]) + ", " + std::to_string(want[3]));
        return true;
    };
    const auto sumOf = [&](const auto& pick) {
        std::array<std::int64_t, 4> sum{};
        for (const auto& [key, play] : mine.plays) {
            if (pick(key.first, key.second)) {
                for (std::size_t i = 0; i < 4; ++i) {
                    sum[i] += play[i];
                }
            }
        }
        for (std::int64_t& v : sum) {
            v %= 100'000'000;
        }
        return sum;
    };
    std::array<std::int64_t, 4> games{};
    for (std::size_t g = 0; g < games_.size(); ++g) {
        const auto read = host_.gameMeters(s, static_cast<int>(g + 1));
        if (!read) {
            return false;
        }
        const auto want =
            sumOf([&](const std::string& game, std::int64_t) { return game == games_[g] || (g == 0 && game.empty()); });
        if (fails("game " + std::to_string(g + 1), *read, want)) {
            return false;
        }
        for (std::size_t i = 0; i < 4; ++i) {
            games[i] += (*read)[i];
        }
    }
    // Table C-4 codes of the simulation's denominations (0.01 and 1.00).
    static const std::map<std::int64_t, std::uint8_t> kCodes{{1, 0x01}, {100, 0x06}};
    std::array<std::int64_t, 4> denominations{};
    for (const game::Money d : config_.table.denominations) {
        const auto read = host_.denominationMeters(s, kCodes.at(d));
        if (!read) {
            return false;
        }
        if (fails("denomination " + std::to_string(d), *read,
                  sumOf([&](const std::string&, std::int64_t denomination) { return denomination == d; }))) {
            return false;
        }
        for (std::size_t i = 0; i < 4; ++i) {
            denominations[i] += (*read)[i];
        }
    }
    for (std::int64_t& v : games) {
        v %= 100'000'000;
    }
    for (std::int64_t& v : denominations) {
        v %= 100'000'000;
    }
    return !fails("sum of the games", games, whole) && !fails("sum of the denominations", denominations, whole);
}

// Every ticket the journal credited through the host is one the host accepted, for its
// amount; every ticket printed at a linked station carries a number the host gave that
// station for that amount; a station without a link prints none.
void Simulation::checkTickets(const std::string& where, const CheckReport& report) {
    for (const TicketRecord& t : report.ticketsIn) {
        if (!t.host) {
            continue;
        }
        const auto it = host_.accepted().find(t.validation);
        if (it == host_.accepted().end() || it->second != t.amount) {
            fail(where + ": station " + std::to_string(t.station) + " credited ticket " + t.validation + " for " +
                 std::to_string(t.amount) + ", which the host did not accept for that");
            return;
        }
    }
    for (const TicketRecord& t : report.ticketsOut) {
        const auto it = host_.validated().find(t.validation);
        if (it == host_.validated().end() || it->second.first != t.station || it->second.second != t.amount) {
            fail(where + ": station " + std::to_string(t.station) + " printed ticket " + t.validation + " for " +
                 std::to_string(t.amount) + ", which the host did not validate for it");
            return;
        }
    }
}

// The end: every request answered once everything has committed, then the journal checked.
// Time passes until every request is answered and nothing is in flight, then until the host
// has read what is left (what it does raises more: 3D for the next record, 68).
void Simulation::drain() {
    // The dealer closes the reader's cover: a tilt would hold a cash-out the host takes in hard
    // mode (AFT host cash-out) for as long as it lasts.
    if (daemon_->table() != nullptr && daemon_->table()->tilts().contains("reader") && !connections_.empty()) {
        send(*connections_.front(), json{{"op", "reader"}, {"ok", true}});
    }
    for (int i = 0; i < 2000 && result_.ok; ++i) {
        clockMs_ += 10;
        executor_->runUntil(clockMs_);
        releaseButtons();
        hostPolls();
        bool answered = true;
        for (const auto& c : connections_) {
            answered = answered && c->awaiting.empty();
        }
        if (answered && daemon_->journal()->inFlight() == 0 && !aft_.open()) {
            break;
        }
    }
    if (test::PowerLoss::powerIsOff() || daemon_->journal()->failed()) {
        return;  // the process is restarted; what it had not answered goes with it
    }
    for (const auto& c : connections_) {
        if (!c->awaiting.empty()) {
            fail(c->name + ": request " + std::to_string(c->awaiting.front().id) + " (" + c->awaiting.front().op +
                 ") never answered");
            return;
        }
    }
    // The host reads what is left; what it does raises more (3D for the next record, 68), once
    // committed: time passes until nothing is left.
    for (int i = 0; i < 500; ++i) {
        const bool any = host_.drain();
        aft_.advance(clockMs_);
        clockMs_ += 20;
        executor_->runUntil(clockMs_);
        if (!any && daemon_->journal()->inFlight() == 0 && !aft_.open() && !host_.drain()) {
            break;
        }
    }
}

void Simulation::finish() {
    // No new faults at the end: one armed in the last steps that has not struck is forgotten;
    // one that struck (the power cut, a commit failed) is restarted from as a step would,
    // so that the end's checks read a journal a running daemon has recovered.
    test::PowerLoss::disarm();
    ending_ = true;
    drain();
    if (result_.ok && (test::PowerLoss::powerIsOff() || daemon_->journal()->failed())) {
        crash(test::PowerLoss::powerIsOff() ? "power cut at the end" : "restart after a failed commit at the end", 1.0);
        drain();
    }
    if (!result_.ok) {
        return;
    }
    checkpoint("end");
    if (!result_.ok) {
        return;
    }
    // Every ticket the journal credited through the host has reached its final status at the
    // host (68, LP 71 FF: 00), restarts or not: none stays pending for ever.
    // Every ticket printed has reached the host's database (3D, LP 4D), restarts or not.
    const CheckReport report = checker_.check(path(), test::kPowerLossVfs);
    finishAft(report);
    if (!result_.ok) {
        return;
    }
    for (const TicketRecord& t : report.ticketsIn) {
        if (t.host && !host_.redeemed().contains(t.validation)) {
            fail("end: ticket " + t.validation + " was credited at station " + std::to_string(t.station) +
                 " but the host never learnt that it was redeemed");
            return;
        }
    }
    for (const TicketRecord& t : report.ticketsOut) {
        if (!host_.knows(t.validation)) {
            fail("end: ticket " + t.validation + " was printed at station " + std::to_string(t.station) +
                 " but the host never read its record");
            return;
        }
    }
}

void Simulation::checkAft(const std::string& where, const CheckReport& report) {
    // LP 2F asks at most 10 meters at once.
    static const std::vector<std::uint8_t> kFirst = {0x19, 0x1A, 0x1B, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xAE};
    static const std::vector<std::uint8_t> kSecond = {0xAF, 0xB0, 0xB1, 0xB8, 0xB9, 0xBA, 0xBB, 0xBC, 0xBD};
    for (const std::int64_t s : host_.stations()) {
        const auto it = report.creditTypes.find(s);
        const StationCreditTypes mine = it == report.creditTypes.end() ? StationCreditTypes{} : it->second;
        const auto& in = mine.transferIn;
        const auto& out = mine.transferOut;
        std::map<std::uint8_t, std::int64_t> expected{
            {0x19, mine.restrictedPlayed},    {0x1A, mine.nonrestrictedPlayed},
            {0x1B, mine.currentRestricted()}, {0xA0, in[0]},
            {0xA1, mine.transferInCount[0]},  {0xA2, in[1]},
            {0xA3, mine.transferInCount[1]},  {0xA4, in[2]},
            {0xA5, mine.transferInCount[2]},  {0xAE, mine.bonus[0]},
            {0xAF, mine.bonusCount[0]},       {0xB0, mine.bonus[1]},
            {0xB1, mine.bonusCount[1]},       {0xB8, out[0]},
            {0xB9, mine.transferOutCount[0]}, {0xBA, out[1]},
            {0xBB, mine.transferOutCount[1]}, {0xBC, out[2]},
            {0xBD, mine.transferOutCount[2]}};
        auto read = host_.meters(s, kFirst);
        const auto more = host_.meters(s, kSecond);
        if (!read || !more) {
            return;
        }
        read->insert(more->begin(), more->end());
        for (const auto& [code, value] : expected) {
            if (read->at(code) != value % 10'000'000'000) {
                fail(where + ": station " + std::to_string(s) + "'s SAS meter " + std::to_string(code) + " reads " +
                     std::to_string(read->at(code)) + ", the journal's own sums of credit types say " +
                     std::to_string(value));
                return;
            }
        }
        // What can move is what is held of each type, stakes in play aside.
        const std::int64_t credits = report.credits.contains(s) ? report.credits.at(s) : 0;
        const AftParts held{credits - mine.restricted - mine.nonrestricted, mine.restricted, mine.nonrestricted};
        const auto balances = aft_.balances(s, clockMs_);
        if (!balances) {
            return;
        }
        if (*balances != held) {
            fail(where + ": station " + std::to_string(s) + "'s LP 74 balances are " + std::to_string((*balances)[0]) +
                 "/" + std::to_string((*balances)[1]) + "/" + std::to_string((*balances)[2]) +
                 ", the journal's own sums " + std::to_string(held[0]) + "/" + std::to_string(held[1]) + "/" +
                 std::to_string(held[2]));
            return;
        }
        // The host's books of the transfers it resolved are the meters (none open: all resolved).
        if (aft_.open(s)) {
            continue;
        }
        const AftSums books = aft_.sums(s);
        if (books.in != in || books.inCount != mine.transferInCount || books.out != out ||
            books.outCount != mine.transferOutCount || books.bonus != mine.bonus ||
            books.bonusCount != mine.bonusCount) {
            fail(where + ": station " + std::to_string(s) + "'s AFT meters are not the host's own sums: in " +
                 std::to_string(in[0]) + "/" + std::to_string(in[1]) + "/" + std::to_string(in[2]) + " vs " +
                 std::to_string(books.in[0]) + "/" + std::to_string(books.in[1]) + "/" + std::to_string(books.in[2]) +
                 ", out " + std::to_string(out[0]) + "/" + std::to_string(out[1]) + "/" + std::to_string(out[2]) +
                 " vs " + std::to_string(books.out[0]) + "/" + std::to_string(books.out[1]) + "/" +
                 std::to_string(books.out[2]) + ", bonus " + std::to_string(mine.bonus[0]) + "/" +
                 std::to_string(mine.bonus[1]) + " vs " + std::to_string(books.bonus[0]) + "/" +
                 std::to_string(books.bonus[1]));
            return;
        }
        ++result_.meterChecks;
    }
}

void Simulation::finishAft(const CheckReport& report) {
    if (aft_.open()) {
        fail("end: transfers never resolved to a final status:" + aft_.openIds());
        return;
    }
    // Each ID the host resolved is the journal's: a success moved what it said, once; a refusal or
    // a cut moved nothing; C0/C1 were never journaled.
    for (const auto& [id, outcome] : aft_.log()) {
        const auto it = report.transfers.find(id);
        const bool success = outcome.status == 0x00 || outcome.status == 0x01;
        if (!outcome.journaled) {
            if (it != report.transfers.end()) {
                fail("end: transfer '" + id + "' answered " + std::to_string(outcome.status) + " is in the journal");
                return;
            }
            continue;
        }
        if (it == report.transfers.end() || it->second.status != outcome.status ||
            it->second.station != outcome.station || (success && it->second.moved != outcome.moved)) {
            fail("end: transfer '" + id + "' ended " + std::to_string(outcome.status) + " for the host, " +
                 (it == report.transfers.end() ? std::string("not in the journal")
                                               : "status " + std::to_string(it->second.status) + " in the journal"));
            return;
        }
    }
    // Each cash-out answered `to_host` was taken by one successful transfer to the host of that
    // station for that amount (host cash-out), each transfer taking one cash-out at most.
    std::multiset<std::pair<std::int64_t, std::int64_t>> toHost;
    for (const auto& [id, outcome] : aft_.log()) {
        if (outcome.type == 0x80 && (outcome.status == 0x00 || outcome.status == 0x01)) {
            toHost.emplace(outcome.station, outcome.moved[0] + outcome.moved[1] + outcome.moved[2]);
        }
    }
    for (const auto& reply : hostCashoutReplies_) {
        const auto it = toHost.find(reply);
        if (it == toHost.end()) {
            fail("end: station " + std::to_string(reply.first) + "'s cash-out was answered to_host " +
                 std::to_string(reply.second) + " with no transfer to the host of that amount");
            return;
        }
        toHost.erase(it);
    }
    for (const auto& [id, t] : report.transfers) {
        if (!aft_.log().contains(id)) {
            fail("end: the journal holds transfer '" + id + "' (status " + std::to_string(t.status) +
                 "), which the host never resolved");
            return;
        }
    }
}

void Simulation::fail(const std::string& what) {
    if (!result_.ok) {
        return;
    }
    result_.ok = false;
    result_.failure = "seed " + std::to_string(options_.seed) + ", step " + std::to_string(result_.step) + " (" +
                      std::to_string(clockMs_) + " ms simulated): " + what;
}

}  // namespace pitlink::sim
