#include "daemon/journal/records/start_records.h"

#include "daemon/journal/records/body_fields.h"
#include "daemon/journal/records/paytable_codec.h"

namespace pitlink::journal {

using nlohmann::json;

namespace {

// An array of text at `key`, or nullopt when the body has none.
std::optional<std::vector<std::string>> optionalTextsField(const json& body, std::string_view key) {
    if (!body.contains(key)) {
        return std::nullopt;
    }
    const std::string what = "an element of \"" + std::string(key) + "\"";
    std::vector<std::string> texts;
    for (const json& text : arrayField(body, key)) {
        texts.push_back(stringValue(text, what));
    }
    return texts;
}

}  // namespace

json toBody(const DaemonStartedRecord& record) {
    json body{{"version", record.version}, {"table", record.table}};
    if (!record.games.empty()) {
        body["games"] = record.games;
    }
    return body;
}

json toBody(const ConfigLoadedRecord& record) {
    json body{{"file", record.file}, {"sha256", record.sha256}};
    if (record.trigger) {
        body["trigger"] = *record.trigger;
    }
    if (record.applied) {
        body["applied"] = *record.applied;
    }
    if (record.restartNeeded) {
        body["restart_needed"] = *record.restartNeeded;
    }
    return body;
}

ConfigLoadedRecord fromBody(const json& body, std::type_identity<ConfigLoadedRecord>) {
    // Only the re-read's fields are read back (SAS: did a SIGHUP change what the table plays by?),
    // so a body without file or sha256 is still read.
    ConfigLoadedRecord r;
    r.file = optionalStringField(body, "file").value_or(std::string());
    r.sha256 = optionalStringField(body, "sha256").value_or(std::string());
    r.trigger = optionalStringField(body, "trigger");
    r.applied = optionalTextsField(body, "applied");
    r.restartNeeded = optionalTextsField(body, "restart_needed");
    return r;
}

json toBody(const PaytableLoadedRecord& record) {
    return json{{"id", record.paytable.id},
                {"file", record.file},
                {"sha256", paytableSha256(record.paytable)},
                {"content", paytableToJson(record.paytable)}};
}

}  // namespace pitlink::journal
