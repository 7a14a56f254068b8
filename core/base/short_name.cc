#include "core/base/short_name.h"

#include <array>
#include <optional>

namespace tw {
namespace {

bool is_word(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// Without template arguments: "a::b<c<d>, e>::f" -> "a::b::f"; nullopt when the brackets do not balance.
std::optional<std::string> drop_template_args(std::string_view s) {
  std::string out;
  int depth = 0;
  for (char ch : s) {
    if (ch == '<') {
      depth++;
    } else if (ch == '>') {
      if (--depth < 0) return std::nullopt;
    } else if (depth == 0) {
      out += ch;
    }
  }
  if (depth != 0) return std::nullopt;
  return out;
}

// An identifier with namespaces: [A-Za-z_][\w:]*
bool is_qualified_type(std::string_view s) {
  if (s.empty() || !(is_word(s[0]) && !(s[0] >= '0' && s[0] <= '9'))) return false;
  for (char c : s)
    if (!is_word(c) && c != ':') return false;
  return true;
}

// The first template argument of the outermost template in `s` that names a type (numbers and
// booleans skipped), without its own arguments.
std::optional<std::string> first_type_arg(std::string_view s) {
  const size_t open = s.find('<');
  if (open == std::string_view::npos) return std::nullopt;
  int depth = 0;
  size_t from = open + 1;
  for (size_t i = open; i < s.size(); ++i) {
    const char ch = s[i];
    if (ch == '<') depth++;
    if (ch == '>') depth--;
    if ((ch == ',' && depth == 1) || depth == 0) {
      if (i >= from) {
        if (std::optional<std::string> arg = drop_template_args(s.substr(from, i - from))) {
          const std::string_view a = trim(*arg);
          if (is_qualified_type(a) && a != "true" && a != "false") return std::string(a);
        }
      }
      if (depth == 0) return std::nullopt;
      from = i + 1;
    }
  }
  return std::nullopt;
}

// Wrappers whose first type argument is the kernel (or the functor it runs).
constexpr std::array<std::string_view, 6> kWrappers = {
    "cutlass::device_kernel",
    "cutlass::Kernel",
    "cutlass::Kernel2",
    "at::native::vectorized_elementwise_kernel",
    "at::native::elementwise_kernel",
    "at::native::unrolled_elementwise_kernel",
};

std::string fold_addresses(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (size_t i = 0; i < name.size();) {
    if (name[i] == '0' && i + 1 < name.size() && (name[i + 1] == 'x' || name[i + 1] == 'X') &&
        (i == 0 || !is_word(name[i - 1]))) {
      size_t j = i + 2;
      while (j < name.size() && is_hex(name[j])) ++j;
      if (j - i - 2 >= 6 && (j == name.size() || !is_word(name[j]))) {
        out += "0x\xE2\x80\xA6";  // "0x…"
        i = j;
        continue;
      }
    }
    out += name[i++];
  }
  return out;
}

// Whether "(" opens a C++ parameter list (cut away) rather than a part of the name: annotations such
// as DeepSeek's "attn(F)" and "attn(B)" must keep their suffix. A signature starts with "void ", has
// a scope or template before the "(", or its parentheses are empty or hold types ("int*, float").
bool is_parameter_list(std::string_view name, std::string_view head, std::string_view rest) {
  if (name.rfind("void ", 0) == 0 || head.find("::") != std::string_view::npos ||
      head.find('<') != std::string_view::npos)
    return true;
  const std::string_view inside = rest.substr(0, rest.find(')'));
  if (trim(inside).empty()) return true;
  return inside.find_first_of("*&,: ") != std::string_view::npos;
}

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

}  // namespace

std::string short_name(std::string_view raw) {
  const std::string name = fold_addresses(raw);
  if (name.find('(') == std::string::npos && name.find('<') == std::string::npos) return name;
  std::string s = name.rfind("void ", 0) == 0 ? name.substr(5) : name;
  s = replace_all(std::move(s), "(anonymous namespace)", "{anonymous}");
  // The parameter list starts at the first '(' outside template arguments.
  int depth = 0;
  size_t cut = s.size();
  for (size_t i = 0; i < s.size(); ++i) {
    const char ch = s[i];
    if (ch == '<') {
      depth++;
    } else if (ch == '>') {
      depth--;
    } else if (ch == '(' && depth == 0) {
      cut = i;
      break;
    }
  }
  if (cut < s.size() &&
      !is_parameter_list(name, std::string_view(s).substr(0, cut), std::string_view(s).substr(cut + 1)))
    cut = s.size();
  const std::string head(trim(std::string_view(s).substr(0, cut)));
  const std::optional<std::string> dropped = drop_template_args(head);
  if (!dropped) return name;
  const std::string base(trim(*dropped));
  if (base.empty()) return name;
  for (std::string_view w : kWrappers) {
    if (base != w) continue;
    if (std::optional<std::string> inner = first_type_arg(head)) return base + "<" + *inner + ">";
  }
  for (char c : base)
    if (!is_word(c) && c != ':' && c != '~' && c != '{' && c != '}') return name;
  return base;
}

}  // namespace tw
