#include "daemon/journal/store/chain_hasher.h"

#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <sys/stat.h>

#include <fstream>
#include <iterator>

#include "daemon/journal/store/journal_error.h"

namespace pitlink::journal {

// Fetched once: OpenSSL 3 looks algorithms up by name, which costs more than hashing a record.
struct ChainHasher::OpenSsl {
    EVP_MD* md = nullptr;
    EVP_MD_CTX* mdCtx = nullptr;
    EVP_MAC* mac = nullptr;
    EVP_MAC_CTX* macTemplate = nullptr;  // keyed once; duplicated per link
    ~OpenSsl() {
        EVP_MAC_CTX_free(macTemplate);
        EVP_MAC_free(mac);
        EVP_MD_CTX_free(mdCtx);
        EVP_MD_free(md);
    }
};

namespace {

[[noreturn]] void fail(const char* what) {
    throw JournalError(std::string("OpenSSL: ") + what + " failed");
}

}  // namespace

ChainHasher::ChainHasher(std::optional<std::vector<std::uint8_t>> key)
    : ssl_(std::make_unique<OpenSsl>()), keyed_(key.has_value()) {
    ssl_->md = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    ssl_->mdCtx = EVP_MD_CTX_new();
    if (ssl_->md == nullptr || ssl_->mdCtx == nullptr) {
        fail("SHA-256 set-up");
    }
    if (!key) {
        return;
    }
    const Digest print = sha256(std::string_view(reinterpret_cast<const char*>(key->data()), key->size()));
    fingerprint_ = toHex(print);
    ssl_->mac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    ssl_->macTemplate = ssl_->mac != nullptr ? EVP_MAC_CTX_new(ssl_->mac) : nullptr;
    if (ssl_->macTemplate == nullptr) {
        fail("HMAC set-up");
    }
    char digestName[] = "SHA256";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digestName, 0),
                                 OSSL_PARAM_construct_end()};
    if (EVP_MAC_init(ssl_->macTemplate, key->data(), key->size(), params) != 1) {
        fail("HMAC key set-up");
    }
}

ChainHasher::~ChainHasher() = default;

Digest ChainHasher::link(const Digest& previous, std::string_view canonical) {
    Digest out{};
    if (!keyed_) {
        unsigned int size = 0;
        if (EVP_DigestInit_ex(ssl_->mdCtx, ssl_->md, nullptr) != 1 ||
            EVP_DigestUpdate(ssl_->mdCtx, previous.data(), previous.size()) != 1 ||
            EVP_DigestUpdate(ssl_->mdCtx, canonical.data(), canonical.size()) != 1 ||
            EVP_DigestFinal_ex(ssl_->mdCtx, out.data(), &size) != 1) {
            fail("SHA-256");
        }
        return out;
    }
    EVP_MAC_CTX* ctx = EVP_MAC_CTX_dup(ssl_->macTemplate);
    std::size_t size = 0;
    const bool ok =
        ctx != nullptr && EVP_MAC_update(ctx, previous.data(), previous.size()) == 1 &&
        EVP_MAC_update(ctx, reinterpret_cast<const unsigned char*>(canonical.data()), canonical.size()) == 1 &&
        EVP_MAC_final(ctx, out.data(), &size, out.size()) == 1;
    EVP_MAC_CTX_free(ctx);
    if (!ok) {
        fail("HMAC-SHA-256");
    }
    return out;
}

Digest sha256(std::string_view bytes) {
    Digest out{};
    unsigned int size = 0;
    if (EVP_Digest(bytes.data(), bytes.size(), out.data(), &size, EVP_sha256(), nullptr) != 1) {
        fail("SHA-256");
    }
    return out;
}

std::vector<std::uint8_t> loadChainKey(const std::filesystem::path& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        throw JournalError("journal key " + path.string() + " cannot be read");
    }
    if (!S_ISREG(info.st_mode)) {
        throw JournalError("journal key " + path.string() + " is not a regular file");
    }
    if ((info.st_mode & (S_IRWXG | S_IRWXO)) != 0) {
        throw JournalError("journal key " + path.string() + " is readable by group or others (chmod 600 it)");
    }
    std::ifstream in(path, std::ios::binary);
    std::vector<std::uint8_t> key{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!in.good() && !in.eof()) {
        throw JournalError("journal key " + path.string() + " cannot be read");
    }
    if (key.size() < 32) {
        throw JournalError("journal key " + path.string() + " is shorter than 32 bytes");
    }
    return key;
}

}  // namespace pitlink::journal
