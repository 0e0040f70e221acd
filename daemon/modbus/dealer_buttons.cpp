#include "daemon/modbus/dealer_buttons.h"

#include <spdlog/spdlog.h>

#include <memory>

namespace pitlink::modbus {

namespace {

constexpr const char* kWho = "dealer";

// The press's record once the table has answered: done, or refused with the rule.
journal::ButtonPressedRecord withAnswer(journal::ButtonPressedRecord record, const table::Reply& reply,
                                        const char* doneOutcome) {
    if (reply.ok) {
        record.outcome = doneOutcome;
    } else {
        record.outcome = "refused";
        record.error = reply.error;
        record.message = reply.message;
    }
    return record;
}

}  // namespace

DealerButtons::DealerButtons(const TableIoSettings& settings, std::vector<table::Table*> games,
                             journal::Journal& journal, std::function<std::int64_t()> now)
    : settings_(settings), games_(std::move(games)), journal_(journal), now_(std::move(now)) {}

void DealerButtons::expire(std::int64_t nowMs) {
    for (auto it = armed_.begin(); it != armed_.end();) {
        if (nowMs > it->second.until) {
            spdlog::info("button {}: {} not confirmed in time, not done", it->second.button,
                         buttonActionName(it->second.action));
            it = armed_.erase(it);
        } else {
            ++it;
        }
    }
}

void DealerButtons::pressed(std::size_t input) {
    ++presses_;
    const std::string& name = settings_.points.inputs.at(input).name;
    const ButtonSettings& button = settings_.buttons.at(input);
    const std::size_t gameIndex = inputGameOf(settings_, input);
    table::Table& game = *games_.at(gameIndex);
    journal::ButtonPressedRecord record;
    record.button = name;
    record.action = buttonActionName(button.action);
    expire(now_());
    if (button.action == ButtonAction::Confirm) {
        const auto armed = armed_.find(gameIndex);
        if (armed == armed_.end()) {
            record.outcome = "nothing to confirm";
            journal(record, game);
            return;
        }
        const Armed what = armed->second;
        armed_.erase(armed);
        record.confirms = buttonActionName(what.action);
        record.armedBy = what.button;
        carryOut(game, what.action, [this, &game, record = std::move(record)](const table::Reply& reply) {
            journal(withAnswer(record, reply, "confirmed"), game);
        });
        return;
    }
    if (button.needsConfirm) {
        armed_.insert_or_assign(gameIndex, Armed{button.action, name, now_() + settings_.confirmWindow.count()});
        record.outcome = "armed";
        journal(record, game);
        return;
    }
    carryOut(game, button.action, [this, &game, record = std::move(record)](const table::Reply& reply) {
        journal(withAnswer(record, reply, "done"), game);
    });
}

void DealerButtons::journal(const journal::ButtonPressedRecord& record, const table::Table& game) {
    spdlog::info("button {}: {} {}{}", record.button, record.action, record.outcome,
                 record.error ? " (" + *record.error + ": " + record.message.value_or("") + ")" : "");
    if (journal_.failed()) {
        return;  // the table is tilted: nothing can be recorded
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(record);
    if (games_.size() > 1) {
        tx.nameGame(game.name());
    }
    journal_.submit(std::move(tx));
}

void DealerButtons::carryOut(table::Table& game, ButtonAction action,
                             std::function<void(const table::Reply&)> answered) {
    switch (action) {
        case ButtonAction::CloseBets:
            if (table::bettingOpen(game.phase())) {
                game.closeBets(std::move(answered));
            } else if (game.phase() == table::RoundPhase::Idle) {
                game.openRound(std::move(answered));
            } else {
                // Nothing for the table to refuse: the button's own rule, journaled with the press.
                answered(table::Reply::refused("past_betting", "the round is past betting (" +
                                                                   std::string(table::roundPhaseName(game.phase())) +
                                                                   "): nothing to close"));
            }
            return;
        case ButtonAction::NewShoe:
            game.newShoe(std::move(answered));
            return;
        case ButtonAction::VoidRound:
            game.voidRound("void button", kWho, std::move(answered));
            return;
        case ButtonAction::AttendantKey: {
            std::vector<std::int64_t> calling;
            for (std::int64_t n = 1; n <= game.stationCount(); ++n) {
                if (game.wallet(n).attendantCalled) {
                    calling.push_back(n);
                }
            }
            if (calling.empty()) {
                answered(table::Reply::refused("no_call", "no station is calling an attendant"));
                return;
            }
            // One answer for the press: done when every call it cleared has committed.
            auto left = std::make_shared<std::size_t>(calling.size());
            auto firstRefusal = std::make_shared<std::optional<table::Reply>>();
            auto cleared = std::make_shared<std::size_t>(0);
            for (const std::int64_t n : calling) {
                game.clearAttendant(n, "attendant key", [=](const table::Reply& reply) {
                    if (reply.ok) {
                        ++*cleared;
                    } else if (!*firstRefusal) {
                        *firstRefusal = reply;
                    }
                    if (--*left == 0) {
                        answered(*cleared > 0 || !*firstRefusal ? table::Reply::accepted() : **firstRefusal);
                    }
                });
            }
            return;
        }
        case ButtonAction::Confirm:
            return;  // never armed itself
    }
}

}  // namespace pitlink::modbus
