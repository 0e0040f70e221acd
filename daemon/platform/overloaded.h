#pragma once
// One callable of several lambdas, for std::visit over a variant (the table's events and replies).

namespace pitlink::platform {

template <class... Ts>
struct Overloaded : Ts... {
    using Ts::operator()...;
};
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;  // clang 14 does not deduce an aggregate's arguments

}  // namespace pitlink::platform
