// Human-readable overview of one imported trace for `tracewise info`.
#pragma once
#include <string>

#include "core/session.h"

namespace tw {
std::string info_text(Session& s);
}
