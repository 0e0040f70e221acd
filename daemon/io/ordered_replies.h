#pragma once
// Replies to one client in the order of its requests (docs/design.md rule 6), whatever finishes
// first: each request read takes the next place (`next()`), and a reply that is ready waits until
// every reply before it has gone. A refusal answered at once thus waits behind an acceptance
// still committing. Pure: the owner says how a line is sent (a socket, a test's list).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

namespace pitlink::io {

class OrderedReplies : public std::enable_shared_from_this<OrderedReplies> {
public:
    using Send = std::function<void(const std::string& line)>;
    // Fills one place; a place filled twice keeps its first reply (the second is counted).
    using Fill = std::function<void(std::string line)>;

    static std::shared_ptr<OrderedReplies> create(Send send) {
        return std::shared_ptr<OrderedReplies>(new OrderedReplies(std::move(send)));
    }
    // The place of the next reply. The function may outlive this object: it then does nothing.
    Fill next();
    // Replies ready but held behind an earlier one still on its way.
    [[nodiscard]] std::size_t held() const;
    [[nodiscard]] std::uint64_t outstanding() const { return nextPlace_ - nextToSend_; }
    [[nodiscard]] std::uint64_t duplicates() const { return duplicates_; }

private:
    explicit OrderedReplies(Send send) : send_(std::move(send)) {}
    void fill(std::uint64_t place, std::string line);

    Send send_;
    std::uint64_t nextPlace_ = 0;
    std::uint64_t nextToSend_ = 0;
    std::map<std::uint64_t, std::string> ready_;  // filled places after nextToSend_
    std::uint64_t duplicates_ = 0;
};

}  // namespace pitlink::io
