// The workload's actors (sim_run.h): the dealer, the stations, the operator and the buttons, each
// writing pipelined bursts; every reply checked as it arrives.
#include "tests/sim/sim_run.h"

namespace pitlink::sim {

// A bet's expectation under the host's game delays: the daemon's delay starts when it reads
// the poll, a little after the host sent it, so only what is clearly inside or outside counts.
HostDelay Simulation::hostDelayOf(const std::string& op, const json& request) const {
    if ((op != "bet" && op != "repeat" && op != "double" && op != "raise") || !request.contains("station")) {
        return HostDelay::NotABet;
    }
    const auto it = hostDelayUntil_.find(request["station"].get<std::int64_t>());
    const std::int64_t until = it == hostDelayUntil_.end() ? 0 : it->second;
    if (clockMs_ < until - 5) {
        return HostDelay::Inside;
    }
    return until == 0 || clockMs_ > until + 200 ? HostDelay::Outside : HostDelay::AtTheEdge;
}

void Simulation::send(Connection& c, json request) {
    const std::int64_t id = c.nextId++;
    request["id"] = id;
    const std::string op =
        request.contains("op") ? request["op"].get<std::string>() : request["cmd"].get<std::string>();
    Awaited awaited{id, op, hostDelayOf(op, request), std::nullopt, 0};
    if (request.contains("station") && !c.control) {
        awaited.station = request["station"].get<std::int64_t>();
        awaited.aftLock = aft_.lockView(awaited.station, clockMs_);
    }
    c.awaiting.push_back(awaited);
    ++result_.requests;
    const io::OrderedReplies::Fill fill = c.replies->next();
    const std::string line = request.dump();
    if (c.control) {
        daemon_->control()->handle(line, control::Role::Root, "sim operator", fill);
    } else {
        daemon_->engine()->handle(c.session, line, fill);
    }
}

void Simulation::onReply(Connection& c, const std::string& line) {
    ++result_.replies;
    const json reply = json::parse(line, nullptr, false);
    if (reply.is_discarded() || !reply.contains("id") || !reply["id"].is_number_integer()) {
        fail(c.name + ": a reply without its id: " + line);
        return;
    }
    const std::int64_t id = reply["id"].get<std::int64_t>();
    if (c.awaiting.empty() || c.awaiting.front().id != id) {
        fail(c.name + ": reply to request " + std::to_string(id) + " out of order (expected " +
             (c.awaiting.empty() ? std::string("none") : std::to_string(c.awaiting.front().id)) + ")");
        return;
    }
    const Awaited awaited = c.awaiting.front();
    const std::string& op = awaited.op;
    c.awaiting.pop_front();
    const bool ok = reply.value("ok", false);
    if (op == "bet" && ok && reply["data"].contains("round") && reply["data"].contains("slip")) {
        auto& [round, spots] = lastSlip_[awaited.station];
        round = reply["data"]["round"].get<std::int64_t>();
        spots.clear();
        for (const auto& [spot, stake] : reply["data"]["slip"].items()) {
            spots.insert(spot);
        }
    }
    if (op == "new_shoe" && &c == connections_[0].get() && ok) {
        dealerShoe_ = reply["data"].value("shoe", 0);
        dealerShoeAnswered_ = true;
    }
    if (awaited.delay == HostDelay::Inside && ok) {
        fail(c.name + ": " + op + " accepted while the host delayed the station's next game (LP 2E): " + line);
    } else if (awaited.delay != HostDelay::Inside && awaited.delay != HostDelay::AtTheEdge &&
               reply.value("error", "") == "host_delay") {
        fail(c.name + ": " + op + " refused for a host delay the host had not set or had ended: " + line);
    } else if (reply.value("error", "") == "host_delay") {
        ++result_.hostDelayRefusals;
    }
    // An AFT lock the host holds for sure refuses the station's bets, cash-outs and tips; a lock
    // it knows released refuses nothing.
    const bool lockRefusal = reply.value("error", "") == "aft_locked";
    const bool moneyOp = awaited.delay != HostDelay::NotABet || op == "cash_out" || op == "tip";
    if (awaited.aftLock == LockView::Locked && moneyOp && ok) {
        fail(c.name + ": " + op + " accepted while the host held the station locked (LP 74): " + line);
    } else if (lockRefusal && awaited.aftLock == LockView::Free) {
        fail(c.name + ": " + op + " refused for an AFT lock the host had not asked or had released: " + line);
    }
    result_.aftLockRefusals += lockRefusal ? 1 : 0;
    if (op == "cash_out" && ok && reply["data"].contains("to_host")) {
        // Taken by the host (AFT host cash-out): by one of its transfers to the host, which the
        // end matches (finishAft: the host may learn its status after this reply).
        ++result_.aftHostCashoutReplies;
        hostCashoutReplies_.emplace_back(awaited.station, reply["data"]["to_host"].get<std::int64_t>());
    }
    result_.leavesRefused += reply.value("error", "") == "bets_on_table" ? 1 : 0;
    if (!ok) {
        ++result_.refused;
        const std::string error = reply.value("error", "");
        if (error == "bad_request" || error == "bad_field" || error == "missing_field" || error == "unknown_op" ||
            error == "malformed_json") {
            fail(c.name + ": the simulation wrote a request the daemon could not read (" + op + "): " + line);
        }
        // Every connection serves the games it asks for, and each of them is configured.
        if (op == "hello" || error == "unknown_game" || error == "not_your_game" || error == "not_dealer") {
            fail(c.name + ": " + op + " refused for its game: " + line);
        }
    }
}

// The dealer: a round opened, its bets closed and its coup dealt, from its own one-deck shoe,
// each as a pipelined burst; with a card too many, an impossible card, an unreadable card or
// a void racing the last card now and then.
void Simulation::dealer() {
    Connection& d = *connections_[0];
    table::Table& t = *daemon_->table();
    std::uniform_int_distribution<int> percent(0, 99);
    switch (t.phase()) {
        case table::RoundPhase::Idle: {
            // An opening a due rotation holds (another game is in a round) is answered when it
            // runs: the dealer waits for that answer before it opens again.
            if (std::any_of(d.awaiting.begin(), d.awaiting.end(),
                            [](const Awaited& a) { return a.op == "open_round"; })) {
                return;
            }
            if (t.tilts().contains("reader") && percent(random_) < 30) {
                send(d, json{{"op", "reader"}, {"ok", true}});  // the reader works again
            }
            // The table ends the shoe once no more cards are left than the cut had behind it. After
            // a restart the table goes on with the dealer's shoe, unless the new_shoe that started
            // it was lost (never answered, or the table is back on an older shoe).
            const bool shoeLost = dealerRestarted_ && (!dealerShoeAnswered_ || t.shoeNumber() < dealerShoe_);
            dealerRestarted_ = false;
            if (shoe_.size() - next_ <= kCardsBehindCut || t.shoeNumber() == 0 || shoeLost) {
                newDealerShoe();
                dealerShoeAnswered_ = false;
                send(d, json{{"op", "new_shoe"}});
                reportShoePreparation(d);
            }
            if (percent(random_) < 2) {
                send(d, json{{"op", "reader"}, {"ok", false}, {"message", "reader cover open"}});
            }
            send(d, json{{"op", "open_round"}});
            if (percent(random_) < 3) {
                send(d, json{{"op", "cut"}, {"cards_behind", kCardsBehindCut}});  // too late: shoe_in_play
            }
            return;
        }
        case table::RoundPhase::BetsOpen:
        case table::RoundPhase::LastBets:
            if (percent(random_) < 40) {
                return;  // the players are still betting
            }
            send(d, json{{"op", "close_bets"}});
            dealCoup(d, t.roundId());
            return;
        case table::RoundPhase::Closed:
        case table::RoundPhase::Dealing:
            if (dealerRound_ != t.roundId()) {
                dealCoup(d, t.roundId());  // the window closed by itself, or a button did
            } else if (percent(random_) < 10) {
                send(d, json{{"op", "void_round"}, {"reason", "dealer saw a problem"}});
            }
            return;
    }
}

// The reader's report of the shoe's cut and burn (seeds 003/004), pipelined after new_shoe;
// now and then reported twice (already_reported) or with a count that does not match.
void Simulation::reportShoePreparation(Connection& d) {
    std::uniform_int_distribution<int> percent(0, 99);
    send(d, json{{"op", "cut"}, {"cards_behind", kCardsBehindCut}});
    const game::Card turned = *game::parseCard(shoe_[0]);
    json burned = json::array();
    for (int i = 0; i <= turned.burnCount(); ++i) {
        burned.push_back(shoe_[next_++]);
        seen_.insert(burned.back().get<std::string>());
    }
    if (percent(random_) < 5) {
        send(d, json{{"op", "burn"}, {"cards", json::array({burned[0]})}});  // burn_count: one card is never a burn
    }
    send(d, json{{"op", "burn"}, {"cards", burned}});
    if (percent(random_) < 5) {
        send(d, json{{"op", "burn"}, {"cards", burned}});  // already_reported
    }
}

void Simulation::newDealerShoe() {
    shoe_.clear();
    for (const char* suit : {"C", "D", "H", "S"}) {
        for (const char* rank : {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"}) {
            shoe_.push_back(std::string(rank) + suit);
        }
    }
    std::shuffle(shoe_.begin(), shoe_.end(), random_);
    next_ = 0;
    seen_.clear();
}

void Simulation::dealCoup(Connection& d, std::int64_t round) {
    dealerRound_ = round;
    std::uniform_int_distribution<int> percent(0, 99);
    std::vector<std::string> coup;
    while (next_ < shoe_.size() && coup.size() < 6) {
        coup.push_back(shoe_[next_++]);
        if (isCompleteCoup(coup)) {
            break;
        }
    }
    for (std::size_t i = 0; i < coup.size(); ++i) {
        if (percent(random_) < 3) {
            send(d, json{{"op", "card_unreadable"}});
        }
        if (percent(random_) < 2 && !seen_.empty()) {
            // A card already out of this one-deck shoe: impossible, a misdeal.
            send(d, json{{"op", "card"}, {"card", *seen_.begin()}});
        }
        send(d, json{{"op", "card"}, {"card", coup[i]}});
        seen_.insert(coup[i]);
    }
    const int roll = percent(random_);
    if (roll < 8 && next_ < shoe_.size()) {
        send(d, json{{"op", "card"}, {"card", shoe_[next_]}});  // one card too many
    } else if (roll < 16) {
        send(d, json{{"op", "void_round"}, {"reason", "void racing the last card"}});
    }
}

// Cents to add to a stake so that it is not a multiple of 20: a Banker win of 19/20 then breaks,
// and a spot paid per addition would come to less than the spot paid whole. Half the stakes
// stay whole credits of 1.00, which the stations that chose that denomination can play.
std::int64_t Simulation::oddCents() {
    static constexpr std::int64_t kCents[] = {10, 30, 55, 5};
    return random_() % 2 == 0 ? 0 : kCents[random_() % std::size(kCents)];
}

// Station connections: bursts of station ops, pipelined.
void Simulation::stations() {
    std::uniform_int_distribution<std::size_t> which(1, 3);
    Connection& c = *connections_[which(random_)];
    const int burst = std::uniform_int_distribution<int>(1, 5)(random_);
    for (int i = 0; i < burst; ++i) {
        const std::int64_t station =
            c.stations[std::uniform_int_distribution<std::size_t>(0, c.stations.size() - 1)(random_)];
        stationOp(c, station);
    }
}

void Simulation::stationOp(Connection& c, std::int64_t station) {
    if (random_() % 100 < 2) {
        joinOrLeave(c, station);
        return;
    }
    // Mostly a game the station plays (its player's screen shows those), now and then any game
    // (refused not_joined, journaled).
    const std::vector<std::string>& playing = daemon_->table()->wallet(station).games;
    const std::string game = playing.empty() || random_() % 5 == 0
                                 ? anyGame()
                                 : playing[std::uniform_int_distribution<std::size_t>(0, playing.size() - 1)(random_)];
    const int roll = std::uniform_int_distribution<int>(0, 99)(random_);
    std::uniform_int_distribution<int> hundreds(1, 50);
    if (roll < 45) {
        const char* spot = kSpots[std::uniform_int_distribution<std::size_t>(0, std::size(kSpots) - 1)(random_)];
        // A spot built in steps (settled on its whole stake, issue 30): now and then the
        // station's last spot again.
        if (const auto last = lastSpot_.find(station); last != lastSpot_.end() && random_() % 3 == 0) {
            spot = last->second;
        }
        lastSpot_[station] = spot;
        std::int64_t stake = std::int64_t{hundreds(random_)} * 100 + oddCents();
        if (roll < 2) {
            stake = 15'000;  // a tie of 15,000 wins 120,000: the jackpot hand-pay
            spot = "tie";
        }
        send(c, game, json{{"op", "bet"}, {"station", station}, {"spot", spot}, {"stake", stake}});
        if (config_.rounds.confirmBets && random_() % 3 != 0) {
            send(c, game, json{{"op", "confirm"}, {"station", station}});
        }
    } else if (roll < 52) {
        send(c, game, json{{"op", "clear"}, {"station", station}});
    } else if (roll < 59) {
        send(c, game, json{{"op", "undo"}, {"station", station}});
    } else if (roll < 64) {
        send(c, game, json{{"op", "repeat"}, {"station", station}});
    } else if (roll < 66) {
        send(c, game, json{{"op", "double"}, {"station", station}});
    } else if (roll < 68) {
        // Raise by a chip, and now and then a limit level (refused under bets), racing the
        // round's close and the other stations' requests like any bet.
        if (roll == 66) {
            send(c, game,
                 json{{"op", "raise"},
                      {"station", station},
                      {"chip", std::int64_t{hundreds(random_)} * 100 + oddCents()}});
        } else {
            send(c, game, json{{"op", "limit_level"}, {"station", station}, {"level", 1 + random_() % 2}});
        }
    } else if (roll < 80) {
        std::int64_t amount = std::int64_t{hundreds(random_)} * 400;
        std::string validation = std::to_string(1'000'000 + ++tickets_);
        if (hostRedeems_ && host_.linked(station)) {
            validation = host_.ticketToInsert(amount);  // the host decides; the amount is the ticket's
        }
        send(c, game, json{{"op", "ticket_in"}, {"station", station}, {"validation", validation}, {"amount", amount}});
    } else if (roll < 88) {
        send(c, game, json{{"op", "cash_out"}, {"station", station}});
    } else if (roll < 94) {
        send(c, game, json{{"op", "tip"}, {"station", station}, {"amount", hundreds(random_) * 10}});
    } else if (roll < 97) {
        send(c, game, json{{"op", "call_attendant"}, {"station", station}});
    } else if (roll == 97) {
        send(c, game, json{{"op", "status"}});
    } else if (roll == 98) {
        floorFunction(c, station, game);
    } else if (random_() % 2 == 0) {
        send(c, game, json{{"op", "roads"}});
    } else {
        send(c, game, json{{"op", "bet_list"}, {"station", station}, {"rounds", 1 + random_() % 5}});
    }
}

void Simulation::send(Connection& c, const std::string& game, json request) {
    if (games_.size() > 1 && (game != games_.front() || random_() % 2 == 0)) {
        request["game"] = game;
    }
    send(c, std::move(request));
}

const std::string& Simulation::anyGame() {
    return games_[std::uniform_int_distribution<std::size_t>(0, games_.size() - 1)(random_)];
}

table::Table& Simulation::gameTable(const std::string& name) {
    for (const auto& game : daemon_->games()) {
        if (game->name() == name) {
            return *game;
        }
    }
    throw std::logic_error("the daemon has no game " + name);
}

// A station joins a game or leaves one (seed 000's X: refused while it has bets in it), racing its
// own bets and the game's close in the same burst; at a one-game table it leaves its only game now
// and then (its bets then refused not_joined until it joins it again).
void Simulation::joinOrLeave(Connection& c, std::int64_t station) {
    const std::string& game = anyGame();
    const bool leave = random_() % 100 < (games_.size() > 1 ? 40 : 10);
    send(c, game, json{{"op", leave ? "leave" : "join"}, {"station", station}});
}

// Issue 20's station functions, racing the rest: a dispute of the current or last deal
// (the table then holds until the operator decides), a reservation with or without a PIN and
// its release with a PIN that may be wrong, auto-repeat turned on or off.
void Simulation::floorFunction(Connection& c, std::int64_t station, const std::string& game) {
    const table::Table& t = gameTable(game);
    static constexpr const char* kPins[] = {"1111", "2222"};
    const int roll = std::uniform_int_distribution<int>(0, 7)(random_);
    if (roll < 2) {
        const std::int64_t round = std::max<std::int64_t>(1, t.roundId() - static_cast<std::int64_t>(random_() % 2));
        send(c, game,
             json{{"op", "dispute"}, {"station", station}, {"round", round}, {"text", "the card was misread"}});
    } else if (roll < 4) {
        json reserve{{"op", "reserve"}, {"station", station}, {"on", true}};
        if (random_() % 2 == 0) {
            reserve["pin"] = kPins[random_() % 2];
        }
        send(c, game, reserve);
    } else if (roll < 6) {
        send(c, game, json{{"op", "reserve"}, {"station", station}, {"on", false}, {"pin", kPins[random_() % 2]}});
    } else if (roll == 6) {
        send(c, game, json{{"op", "auto_repeat"}, {"station", station}, {"on", random_() % 2 == 0}});
    } else if (random_() % 2 == 0) {
        send(c, game, json{{"op", "denomination"}, {"station", station}, {"value", random_() % 2 == 0 ? 1 : 100}});
    } else {
        // A live table: no DEAL button and no Keep Bets On (refused, journaled, in order).
        send(c, game, json{{"op", random_() % 2 == 0 ? "deal" : "keep_bets"}, {"station", station}, {"on", true}});
    }
}

// The operator on the control commands.
void Simulation::operatorAction() {
    Connection& o = *connections_.back();
    const std::int64_t station = std::uniform_int_distribution<std::int64_t>(1, kStations)(random_);
    const int roll = std::uniform_int_distribution<int>(0, 99)(random_);
    table::Table& t = *daemon_->table();
    // An open dispute holds the table: the operator decides it first, now and then by
    // re-settling the disputed round with other cards (refused while it is still dealt).
    for (std::int64_t n = 1; n <= kStations; ++n) {
        if (t.station(n).dispute && roll < 60) {
            json decision{{"cmd", "dispute_resolve"},
                          {"station", n},
                          {"decision", roll < 40 ? "upheld" : "rejected"},
                          {"reason", "floor decision"}};
            if (roll < 20) {
                decision["cards"] = randomCoup();
                decision["round"] = t.station(n).dispute->round;
            }
            send(o, decision);
            return;
        }
    }
    if (roll >= 95) {
        send(o, json{{"cmd", "reserve_release"}, {"station", station}});
    } else if (roll < 30) {
        const std::int64_t locked = lockedOr(station, allStations());
        send(o, json{{"cmd", "handpay_reset"}, {"station", locked}});
        if (host_.linked(locked) && random_() % 2 == 0) {
            remoteHandpayReset(locked);  // the host's LP 94 at the same moment
        }
    } else if (roll < 55) {
        send(o, json{{"cmd", "attendant_clear"}, {"station", station}});
    } else if (roll < 65) {
        send(o, anyGame(), json{{"cmd", "void_round"}, {"reason", "operator void"}});
    } else if (roll < 70) {
        send(o, anyGame(), json{{"cmd", "shoe_new"}});
    } else if (roll < 72) {
        json limits{{"cmd", "station_limits"}, {"station", station}};
        if (roll == 70) {
            limits["max"] = std::int64_t{20} * 100;
        }
        send(o, limits);
    } else if (roll < 76) {
        // What the module reports now: answered after its next cycle, in order with the rest.
        send(o, json{{"cmd", "io"}});
    } else if (roll < 78) {
        // A lamp test: accepted between rounds, refused (and journaled) during one.
        send(o, json{{"cmd", "lamps_test"}, {"step_ms", 100}});
    } else if (t.roundId() > 1) {
        // A re-settlement of a recent round with other cards, racing the round in play.
        const std::int64_t round = std::uniform_int_distribution<std::int64_t>(
            std::max<std::int64_t>(1, t.roundId() - 5), t.roundId())(random_);
        send(o, json{{"cmd", "resettle"}, {"round", round}, {"cards", randomCoup()}, {"reason", "video review"}});
    }
}

std::vector<std::int64_t> Simulation::allStations() {
    std::vector<std::int64_t> all;
    for (std::int64_t n = 1; n <= kStations; ++n) {
        all.push_back(n);
    }
    return all;
}

std::string Simulation::randomCoup() {
    std::vector<std::string> deck;
    for (const char* suit : {"C", "D", "H", "S"}) {
        for (const char* rank : {"A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"}) {
            deck.push_back(std::string(rank) + suit);
        }
    }
    std::shuffle(deck.begin(), deck.end(), random_);
    std::vector<std::string> coup;
    for (const auto& card : deck) {
        coup.push_back(card);
        if (isCompleteCoup(coup)) {
            break;
        }
    }
    std::string text;
    for (const auto& card : coup) {
        text += (text.empty() ? "" : " ") + card;
    }
    return text;
}

// A dealer button held for a few polls, then released; a tap on the key whose edges the
// module counts (shorter than a poll: only its counter sees it); now and then the side door
// opened for a while (a tilt racing the round).
void Simulation::pressButton() {
    static constexpr std::uint16_t kButtons[] = {kDealButton, kVoidButton, kKeyButton, kShoeButton,
                                                 kCountedKey, kCountedKey, kDoorSwitch};
    const std::uint16_t button = kButtons[std::uniform_int_distribution<std::size_t>(0, 6)(random_)];
    if (button == kCountedKey) {
        ++inputRegisters_[kKeyCounter];  // wraps at 65536 like the module's
        return;
    }
    if (inputs_[button] || (button == kDoorSwitch && random_() % 4 != 0)) {
        return;
    }
    inputs_[button] = true;
    pressed_[button] =
        clockMs_ + (button == kDoorSwitch ? std::uniform_int_distribution<std::int64_t>(300, 1500)(random_)
                                          : std::uniform_int_distribution<std::int64_t>(120, 300)(random_));
}

void Simulation::releaseButtons() {
    for (auto it = pressed_.begin(); it != pressed_.end();) {
        if (it->second <= clockMs_) {
            inputs_[it->first] = false;
            it = pressed_.erase(it);
        } else {
            ++it;
        }
    }
}

}  // namespace pitlink::sim
