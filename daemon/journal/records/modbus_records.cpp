#include "daemon/journal/records/modbus_records.h"

namespace pitlink::journal {

nlohmann::json modbusLinkJson(const ModbusLinkRecord& record) {
    nlohmann::json body{{"up", record.up}, {"module", record.module}, {"device", record.device}};
    if (record.error) {
        body["error"] = *record.error;
    }
    if (record.ended) {
        body["down_ms"] = record.ended->downMs;
        body["failed_cycles"] = record.ended->failedCycles;
        body["errors"] = record.ended->errors;
    }
    return body;
}

nlohmann::json modbusLampTestJson(const ModbusLampTestRecord& record) {
    nlohmann::json body{{"by", record.by},
                        {"step_ms", record.stepMs},
                        {"lamps", record.lamps},
                        {"modules_up", record.modulesUp},
                        {"outcome", record.started ? "started" : "refused"}};
    if (record.error) {
        body["error"] = *record.error;
    }
    return body;
}

}  // namespace pitlink::journal
