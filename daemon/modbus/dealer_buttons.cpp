#include "daemon/modbus/dealer_buttons.h"

#include <spdlog/spdlog.h>

#include "daemon/journal/record_kinds.h"

namespace pitlink::modbus {

namespace {

constexpr const char* kWho = "dealer";

table::Respond logReply(std::string button, std::string_view action) {
    return [button = std::move(button), action = std::string(action)](const table::Reply& reply) {
        if (reply.ok) {
            spdlog::info("button {}: {} done", button, action);
        } else {
            spdlog::info("button {}: {} refused by the table: {} ({})", button, action, reply.message, reply.error);
        }
    };
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
    nlohmann::json body{{"button", name}, {"action", buttonActionName(button.action)}};
    expire(now_());
    if (button.action == ButtonAction::Confirm) {
        if (!armed_) {
            body["outcome"] = "nothing to confirm";
            journalThen(body, {});
            return;
        }
        const Armed armed = *armed_;
        armed_.reset();
        body["outcome"] = "confirmed";
        body["confirms"] = buttonActionName(armed.action);
        journalThen(body, [this, armed] { carryOut(armed.action, armed.button); });
        return;
    }
    if (button.needsConfirm) {
        armed_ = Armed{button.action, name, now_() + settings_.confirmWindow.count()};
        body["outcome"] = "armed";
        journalThen(body, {});
        return;
    }
    body["outcome"] = "done";
    journalThen(body, [this, action = button.action, name] { carryOut(action, name); });
}

void DealerButtons::journalThen(const nlohmann::json& body, std::function<void()> act) {
    spdlog::info("button {}: pressed ({})", body.value("button", ""), body.value("outcome", ""));
    if (journal_.failed()) {
        return;  // the table is tilted: nothing a button asks can be recorded
    }
    journal::JournalTransaction tx = journal_.begin();
    tx.add(journal::kind::kButtonPressed, std::nullopt, std::nullopt, body);
    journal_.submit(std::move(tx), [act = std::move(act)](const journal::CommitResult& result) {
        if (result.ok && act) {
            act();
        }
    });
}

void DealerButtons::carryOut(ButtonAction action, const std::string& button) {
    const std::string_view name = buttonActionName(action);
    switch (action) {
        case ButtonAction::CloseBets:
            if (table::bettingOpen(table_.phase())) {
                table_.closeBets(logReply(button, name));
            } else if (table_.phase() == table::RoundPhase::Idle) {
                table_.openRound(logReply(button, name));
            } else {
                spdlog::info("button {}: the round is past betting ({})", button,
                             table::roundPhaseName(table_.phase()));
            }
            return;
        case ButtonAction::NewShoe:
            table_.newShoe(logReply(button, name));
            return;
        case ButtonAction::VoidRound:
            table_.voidRound("void button", kWho, logReply(button, name));
            return;
        case ButtonAction::AttendantKey:
            for (std::int64_t n = 1; n <= table_.stationCount(); ++n) {
                if (table_.station(n).attendantCalled) {
                    table_.clearAttendant(n, "attendant key", logReply(button, name));
                }
            }
            return;
        case ButtonAction::Confirm:
            return;  // never armed itself
    }
}

}  // namespace pitlink::modbus
