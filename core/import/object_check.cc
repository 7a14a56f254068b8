#include "core/import/object_check.h"

namespace tw {

namespace {

inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
inline bool is_scalar_byte(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' || c == '.';
}

}  // namespace

void ObjectCheck::reset() {
  s_ = S::kValue;
  key_ = false;
  depth_ = 0;
  deep_ = 0;
  deep_string_ = deep_escape_ = false;
}

void ObjectCheck::push(bool object) {
  if (depth_ == kCheckedDepth) {
    s_ = S::kDeep;
    deep_ = 1;
    deep_string_ = deep_escape_ = false;
    return;
  }
  uint64_t bit = uint64_t(1) << (depth_ & 63);
  if (object) kinds_[depth_ >> 6] |= bit;
  else kinds_[depth_ >> 6] &= ~bit;
  ++depth_;
  s_ = object ? S::kKeyOrEnd : S::kValue;
}

// c is '}' or ']' where it may close the innermost container.
ObjectCheck::Status ObjectCheck::close(char c) {
  if (innermost_is_object() != (c == '}')) return Status::kBad;
  --depth_;
  s_ = S::kAfterValue;
  return depth_ == 0 ? Status::kDone : Status::kMore;
}

ObjectCheck::Status ObjectCheck::feed(const char* p, size_t n, size_t& used) {
  size_t i = 0;
  auto bad = [&] {
    used = i;
    return Status::kBad;
  };
  // p[i] closes a container: kBad if it is the wrong bracket, kDone (consumed) if it ends the object.
  auto closing = [&] {
    Status st = close(p[i]);
    if (st == Status::kBad) return bad();
    ++i;
    if (st == Status::kDone) used = i;
    return st;
  };
  while (i < n) {
    char c = p[i];
    switch (s_) {
      case S::kString: {
        // The common bytes of a string in one tight loop.
        while (i < n && p[i] != '"' && p[i] != '\\' && p[i] != '\n' && p[i] != '\r') ++i;
        if (i >= n) break;
        c = p[i];
        if (c == '\n' || c == '\r') return bad();
        ++i;
        if (c == '\\') {
          s_ = S::kEscape;
        } else {
          s_ = key_ ? S::kColon : S::kAfterValue;
        }
        break;
      }
      case S::kEscape:
        if (c == '\n' || c == '\r') return bad();
        ++i;
        s_ = S::kString;
        break;
      case S::kScalar:
        while (i < n && is_scalar_byte(p[i])) ++i;
        if (i < n) s_ = S::kAfterValue;
        break;
      case S::kDeep: {
        while (i < n && deep_ > 0) {
          char d = p[i++];
          if (deep_string_) {
            if (deep_escape_) deep_escape_ = false;
            else if (d == '\\') deep_escape_ = true;
            else if (d == '"') deep_string_ = false;
          } else if (d == '"') {
            deep_string_ = true;
          } else if (d == '{' || d == '[') {
            ++deep_;
          } else if (d == '}' || d == ']') {
            --deep_;
          }
        }
        if (deep_ == 0) s_ = S::kAfterValue;
        break;
      }
      default: {
        if (is_ws(c)) {
          ++i;
          break;
        }
        switch (s_) {
          case S::kValue:
            if (c == '{' || c == '[') {
              ++i;
              push(c == '{');
            } else if (c == '"') {
              ++i;
              key_ = false;
              s_ = S::kString;
            } else if (is_scalar_byte(c)) {
              s_ = S::kScalar;
            } else if (c == ']' && depth_ > 0) {
              // An empty array. (A trailing comma before ']' is let through too: the decoders judge.)
              if (Status st = closing(); st != Status::kMore) return st;
            } else {
              return bad();
            }
            break;
          case S::kKeyOrEnd:
          case S::kKey:
            if (c == '"') {
              ++i;
              key_ = true;
              s_ = S::kString;
            } else if (c == '}') {  // after ',' too: a trailing comma is the decoders' to judge
              if (Status st = closing(); st != Status::kMore) return st;
            } else {
              return bad();
            }
            break;
          case S::kColon:
            if (c != ':') return bad();
            ++i;
            s_ = S::kValue;
            break;
          case S::kAfterValue:
            if (c == ',') {
              ++i;
              s_ = innermost_is_object() ? S::kKey : S::kValue;
            } else if (c == '}' || c == ']') {
              if (Status st = closing(); st != Status::kMore) return st;
            } else {
              return bad();
            }
            break;
          default: return bad();
        }
      }
    }
  }
  used = n;
  return Status::kMore;
}

void ObjectCheck::encode(ByteWriter& w) const {
  w.put(s_), w.put(key_), w.put(depth_), w.put(deep_), w.put(deep_string_), w.put(deep_escape_);
  for (uint64_t k : kinds_) w.put(k);
}

bool ObjectCheck::decode(ByteReader& r) {
  r.get(s_), r.get(key_), r.get(depth_), r.get(deep_), r.get(deep_string_), r.get(deep_escape_);
  for (uint64_t& k : kinds_) r.get(k);
  if (static_cast<uint8_t>(s_) > static_cast<uint8_t>(S::kDeep) || depth_ < 0 || depth_ > kCheckedDepth || deep_ < 0)
    r.fail();
  return r.ok();
}

}  // namespace tw
