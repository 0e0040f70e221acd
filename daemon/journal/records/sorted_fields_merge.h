#pragma once
// An object's fields, given in strictly increasing key order, merged into the object value a
// body reader keeps from the body before: a kept key's value is replaced where it is, a key the
// new body lacks goes, a new key is put in its place. Journal bodies mostly follow one another
// with the same keys, so most bodies are read without allocating. Used by both body readers
// (canonical_body.cpp and body_parser.cpp's simdjson copy).
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace pitlink::journal {

class SortedFieldsMerge {
public:
    // `out` becomes an object if it is not one. The keys given must stay valid until finish().
    explicit SortedFieldsMerge(nlohmann::json& out) : fields_(objectOf(out)), kept_(fields_.begin()) {}

    // Where `key`'s value goes; nullptr when `key` does not come after the key before it (out of
    // order, or repeated): the merge then stops, and what `out` holds is a partial merge.
    nlohmann::json* slot(std::string_view key) {
        int order = 1;
        while (kept_ != fields_.end() && (order = kept_->first.compare(key)) < 0) {
            kept_ = fields_.erase(kept_);
        }
        if (kept_ == fields_.end() || order != 0) {
            // A key found where the one before left off is in order already (the kept fields are
            // sorted): only a new one is compared with the key before it.
            if (!first_ && !(before_ < key)) {
                return nullptr;
            }
            kept_ = fields_.emplace_hint(kept_, std::string(key), nullptr);
        }
        first_ = false;
        before_ = key;
        return &(kept_++)->second;
    }

    // Drops the kept fields after the last key given.
    void finish() { fields_.erase(kept_, fields_.end()); }

private:
    static nlohmann::json::object_t& objectOf(nlohmann::json& out) {
        if (!out.is_object()) {
            out = nlohmann::json::object();
        }
        return out.get_ref<nlohmann::json::object_t&>();
    }

    nlohmann::json::object_t& fields_;
    nlohmann::json::object_t::iterator kept_;
    std::string_view before_;
    bool first_ = true;
};

}  // namespace pitlink::journal
