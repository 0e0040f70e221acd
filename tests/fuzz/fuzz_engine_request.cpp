// libFuzzer: any bytes as one engine-link line. parseRequest must answer a request or an error,
// never crash, and an accepted request must carry valid fields.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "protocols/engine/engine_request.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view line(reinterpret_cast<const char*>(data), size);
    const auto parsed = pitlink::engine::parseRequest(line);
    if (const auto* request = std::get_if<pitlink::engine::EngineRequest>(&parsed)) {
        if (request->op == pitlink::engine::Op::Card && !request->card) {
            std::abort();  // a card request without a card
        }
        if (request->amount < 0 || request->station < 0) {
            std::abort();
        }
    } else if (std::get<pitlink::engine::RequestError>(parsed).error.empty()) {
        std::abort();  // an error must say which
    }
    return 0;
}
