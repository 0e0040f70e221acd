#include "daemon/control/roles.h"

#include <grp.h>
#include <pwd.h>

#include <algorithm>
#include <vector>

namespace pitlink::control {

std::string_view roleName(Role role) {
    switch (role) {
        case Role::None:
            return "none";
        case Role::Inspector:
            return "inspector";
        case Role::Operator:
            return "operator";
        case Role::Root:
            return "root";
    }
    return "?";
}

namespace {

std::vector<gid_t> groupsOf(uid_t uid, gid_t gid) {
    std::vector<gid_t> groups{gid};
    const passwd* pw = ::getpwuid(uid);
    if (pw == nullptr) {
        return groups;
    }
    int count = 64;
    groups.resize(static_cast<std::size_t>(count));
    if (::getgrouplist(pw->pw_name, gid, groups.data(), &count) == -1) {
        groups.resize(static_cast<std::size_t>(count));
        ::getgrouplist(pw->pw_name, gid, groups.data(), &count);
    }
    groups.resize(static_cast<std::size_t>(std::max(count, 0)));
    return groups;
}

bool member(const std::vector<gid_t>& groups, const std::string& name) {
    const group* gr = ::getgrnam(name.c_str());
    return gr != nullptr && std::find(groups.begin(), groups.end(), gr->gr_gid) != groups.end();
}

}  // namespace

Role roleOf(uid_t uid, gid_t gid, const RoleGroups& names) {
    if (uid == 0) {
        return Role::Root;
    }
    const std::vector<gid_t> groups = groupsOf(uid, gid);
    if (member(groups, names.operatorGroup)) {
        return Role::Operator;
    }
    if (member(groups, names.inspector)) {
        return Role::Inspector;
    }
    return Role::None;
}

std::string userName(uid_t uid) {
    const passwd* pw = ::getpwuid(uid);
    return (pw != nullptr ? std::string(pw->pw_name) : std::string("?")) + " (uid " + std::to_string(uid) + ")";
}

}  // namespace pitlink::control
