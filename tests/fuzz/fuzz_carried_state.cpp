// Fuzz target: the state a journal segment carries over (segment.carried, schema/README.md
// "Segments"), as a damaged or forged segment could hold it: the journal's facts and the SAS
// stations' state a start-up resumes from it, the stations' queued exceptions (sas.queue
// "pending", event data in hex) and the seal's last link (hex). Input: a record's body. Anything may be refused
// with a json::exception (the start-up then stops with the record named); nothing else may escape,
// crash or hang, and what is accepted must come back out the same.
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "daemon/journal/resume_facts.h"
#include "daemon/journal/store/record.h"
#include "daemon/sas/sas_resume.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using nlohmann::json;
    const json body = json::parse(std::string(reinterpret_cast<const char*>(data), size), nullptr, false);
    if (!body.is_object()) {
        return 0;
    }
    if (body.contains("table")) {
        try {
            const auto facts = pitlink::journal::resumeFactsFromJson(body["table"]);
            const json again = pitlink::journal::resumeFactsJson(facts);
            if (pitlink::journal::resumeFactsJson(pitlink::journal::resumeFactsFromJson(again)) != again) {
                throw std::logic_error("carried facts do not come back the same");
            }
        } catch (const json::exception&) {
        }
    }
    if (body.contains("sas")) {
        try {
            const auto sas = pitlink::sas::sasResumeFromJson(body["sas"]);
            const json again = pitlink::sas::sasResumeJson(sas);
            if (pitlink::sas::sasResumeJson(pitlink::sas::sasResumeFromJson(again)) != again) {
                throw std::logic_error("carried SAS state does not come back the same");
            }
        } catch (const json::exception&) {
        }
    }
    // A segment's sas.queue entries (event data in hex) and its seal's last link (hex).
    if (body.contains("pending") && body["pending"].is_array()) {
        for (const json& entry : body["pending"]) {
            try {
                const pitlink::sas::SasException e = pitlink::sas::exceptionFromJson(entry);
                if (pitlink::sas::exceptionFromJson(pitlink::sas::exceptionJson(e)) != e) {
                    throw std::logic_error("an exception does not come back the same");
                }
            } catch (const json::exception&) {
            }
        }
    }
    if (body.contains("last_hash") && body["last_hash"].is_string()) {
        const std::string hex = body["last_hash"].get<std::string>();
        if (const auto bytes = pitlink::journal::fromHex(hex)) {
            std::string lower = hex;
            for (char& c : lower) {
                c = static_cast<char>(c >= 'A' && c <= 'F' ? c - 'A' + 'a' : c);
            }
            if (pitlink::journal::toHex(*bytes) != lower) {
                throw std::logic_error("hex does not come back the same");
            }
        }
    }
    return 0;
}
