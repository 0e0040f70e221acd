#pragma once
// A station's SAS exceptions: priority exceptions are flags reported before anything else, in a
// fixed order (a production EGM's: 57 67 68 3F 6A 6B 6F 56 3D 3E 69 6C 6D 52 51 8F 70); every
// other exception waits in a FIFO of `capacity` (at least 20). On overflow the oldest is dropped
// and 70 (buffer overflow) is raised. An exception leaves only when the host has implicitly
// ACKed it (acknowledge()); until then every general poll reports the same one. With real-time
// event reporting on, an exception carries its event data (7E, 7F, 8C).
#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <vector>

namespace pitlink::sas {

struct SasException {
    std::uint8_t code = 0;
    std::vector<std::uint8_t> eventData;  // for real-time event reporting; empty for most codes
    std::uint64_t serial = 0;             // this queue's running number (for the journal)
    bool operator==(const SasException&) const = default;
};

// The game an 8C names (its event data, 2 BCD); nullopt for any other exception or malformed data.
[[nodiscard]] std::optional<std::uint16_t> gameSelectedBy(const SasException& e);

inline constexpr std::uint8_t kBufferOverflow = 0x70;
inline constexpr std::uint8_t kGameSelected = 0x8C;  // event data: the game number (2 BCD)

class ExceptionQueue {
public:
    explicit ExceptionQueue(std::size_t capacity = 20);

    // Adds an exception; returns it with its serial (`serial`: one taken earlier with
    // takeSerial(), when the exception was journaled before it was raised).
    SasException raise(std::uint8_t code, std::vector<std::uint8_t> eventData = {},
                       std::optional<std::uint64_t> serial = std::nullopt);
    [[nodiscard]] std::uint64_t takeSerial() { return nextSerial_++; }
    // Replaying the journal: an exception the host had acknowledged leaves, wherever it is.
    bool remove(std::uint64_t serial);
    // Told of every exception the host acknowledged (the daemon journals them).
    void onAcknowledged(std::function<void(const SasException&)> listener) { onAcknowledged_ = std::move(listener); }
    // What a general poll reports now: the first priority flag set, else the oldest in the FIFO.
    [[nodiscard]] std::optional<SasException> next() const;
    // The host took `reported` (implied ACK): it leaves the queue. False if it was not the one
    // at the head any more (nothing changes then).
    bool acknowledge(const SasException& reported);

    [[nodiscard]] std::size_t size() const;
    [[nodiscard]] std::uint64_t overflows() const { return overflows_; }
    // Everything still to report, priority first (for the journal and `pitlinkctl status`).
    [[nodiscard]] std::vector<SasException> pending() const;
    // Restores what a previous run left unacknowledged, in the order pending() gave it.
    void restore(const std::vector<SasException>& pending);

private:
    // Appends to the FIFO; a full FIFO drops its oldest and reports whether it did.
    bool pushFifo(SasException e);

    std::size_t capacity_;
    std::vector<std::optional<SasException>> priority_;  // by rank
    std::deque<SasException> fifo_;
    std::uint64_t nextSerial_ = 1;
    std::uint64_t overflows_ = 0;
    std::function<void(const SasException&)> onAcknowledged_;
};

}  // namespace pitlink::sas
