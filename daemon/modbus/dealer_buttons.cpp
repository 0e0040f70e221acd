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

DealerButtons::DealerButtons(const TableIoSettings& settings, table::Table& table, journal::Journal& journal,
                             std::function<std::int64_t()> now)
    : settings_(settings), table_(table), journal_(journal), now_(std::move(now)) {}

void DealerButtons::expire(std::int64_t nowMs) {
    if (armed_ && nowMs > armed_->until) {
        spdlog::info("button {}: {} not confirmed in time, not done", armed_->button, buttonActionName(armed_->action));
        armed_.reset();
    }
}

void DealerButtons::pressed(std::size_t input) {
    ++presses_;
    const std::string& name = settings_.points.inputs.at(input).name;
    const ButtonSettings& button = settings_.buttons.at(input);
    journal::ButtonPressedRecord record;
    record.button = name;
    record.action = buttonActionName(button.action);
    expire(now_());
    if (button.action == ButtonAction::Confirm) {
        if (!armed_) {
            record.outcome = "nothing to confirm";
            journal(record);
            return;
        }
        const Armed armed = *armed_;
        armed_.reset();
        record.confirms = buttonActionName(armed.action);
        record.armedBy = armed.button;
        carryOut(armed.action, [this, record = std::move(record)](const table::Reply& reply) {
            journal(withAnswer(record, reply, "confirmed"));
        });
        return;
    }
    if (button.needsConfirm) {
        armed_ = Armed{button.action, name, now_() + settings_.confirmWindow.count()};
        record.outcome = "armed";
        journal(record);
        return;
    }
    carryOut(button.action, [this, record = std::move(record)](const table::Reply& reply) {
        journal(withAnswer(record, reply, "done"));
    });
}

void DealerButtons::journal(const journal::ButtonPressedRecord& record) {
    spdlog::info("button {}: {} {}{}", record.button, record.action, record.outcome,
                 record.error ? " (" + *record.error + ": " + record.message.value_or("") + ")" : "");
    if (journal_.failed()) {
        return;  // the table is tilted: nothing can be recorded
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(record);
    journal_.submit(std::move(tx));
}

void DealerButtons::carryOut(ButtonAction action, std::function<void(const table::Reply&)> answered) {
    switch (action) {
        case ButtonAction::CloseBets:
            if (table::bettingOpen(table_.phase())) {
                table_.closeBets(std::move(answered));
            } else if (table_.phase() == table::RoundPhase::Idle) {
                table_.openRound(std::move(answered));
            } else {
                // Nothing for the table to refuse: the button's own rule, journaled with the press.
                answered(table::Reply::refused("past_betting", "the round is past betting (" +
                                                                   std::string(table::roundPhaseName(table_.phase())) +
                                                                   "): nothing to close"));
            }
            return;
        case ButtonAction::NewShoe:
            table_.newShoe(std::move(answered));
            return;
        case ButtonAction::VoidRound:
            table_.voidRound("void button", kWho, std::move(answered));
            return;
        case ButtonAction::AttendantKey: {
            std::vector<std::int64_t> calling;
            for (std::int64_t n = 1; n <= table_.stationCount(); ++n) {
                if (table_.wallet(n).attendantCalled) {
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
                table_.clearAttendant(n, "attendant key", [=](const table::Reply& reply) {
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
