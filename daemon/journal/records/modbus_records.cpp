#include "daemon/journal/records/modbus_records.h"

#include "daemon/journal/records/body_fields.h"

namespace pitlink::journal {

using nlohmann::json;

json toBody(const ButtonPressedRecord& record) {
    json body{{"button", record.button}, {"action", record.action}, {"outcome", record.outcome}};
    putIfSet(body, "error", record.error);
    putIfSet(body, "message", record.message);
    putIfSet(body, "confirms", record.confirms);
    putIfSet(body, "armed_by", record.armedBy);
    return body;
}

json toBody(const ModbusLinkRecord& record) {
    json body{{"up", record.up}, {"module", record.module}, {"device", record.device}};
    putIfSet(body, "error", record.error);
    if (record.ended) {
        body["down_ms"] = record.ended->downMs;
        body["failed_cycles"] = record.ended->failedCycles;
        body["errors"] = record.ended->errors;
    }
    return body;
}

json toBody(const ModbusFaultRecord& record) {
    json body{{"point", record.point},
              {"fault", record.fault},
              {"active", record.active},
              {"module", record.module},
              {"device", record.device}};
    if (const auto& stuck = record.detail.stuck) {
        body["written"] = stuck->holds ? "off" : "on";
        body["holds"] = stuck->holds ? "on" : "off";
        body["address"] = stuck->address;
        body["kind"] = stuck->kind;
    }
    putIfSet(body, "held_ms", record.detail.heldMs);
    putIfSet(body, "max_hold_ms", record.detail.maxHoldMs);
    return body;
}

json toBody(const ModbusLampTestRecord& record) {
    json body{{"by", record.by},
              {"step_ms", record.stepMs},
              {"lamps", record.lamps},
              {"modules_up", record.modulesUp},
              {"outcome", record.started ? "started" : "refused"}};
    putIfSet(body, "error", record.error);
    return body;
}

}  // namespace pitlink::journal
