#pragma once
// Who may do what on the control socket, from the peer's Unix credentials (SO_PEERCRED):
// root may do everything; members of the operator group run operator actions (and read);
// members of the inspector group read; anyone else is refused.
#include <sys/types.h>

#include <cstdint>
#include <string>
#include <string_view>

namespace pitlink::control {

enum class Role : std::uint8_t { None, Inspector, Operator, Root };

[[nodiscard]] std::string_view roleName(Role role);

struct RoleGroups {
    std::string inspector = "pitlink-inspector";
    std::string operatorGroup = "pitlink-operator";
};

// Looks the user's groups up (getpwuid, getgrouplist, getgrnam).
[[nodiscard]] Role roleOf(uid_t uid, gid_t gid, const RoleGroups& groups);
// "alice (uid 1001)", for the journal's "by".
[[nodiscard]] std::string userName(uid_t uid);

}  // namespace pitlink::control
