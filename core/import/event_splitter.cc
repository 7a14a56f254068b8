#include "core/import/event_splitter.h"

#include <algorithm>
#include <cstring>

#include "core/import/simd_scan.h"

namespace tw {

namespace {

constexpr size_t kFlushBytes = size_t(2) << 20;

inline bool is_ws(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }
inline bool is_scalar_byte(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '+' || c == '-' || c == '.';
}

// Judged from the first byte only, so the message does not depend on how the input was chunked.
std::string describe_start(unsigned char first) {
  if (first == 0x1f) return "it looks like gzip-compressed data that was not decompressed";
  if (first == 0x89) return "it looks like a PNG image";
  if (first == 'P') return "it looks like a zip archive";
  return "it does not start with '{' or '['";
}

const char kBom[] = "\xEF\xBB\xBF";  // a UTF-8 byte order mark may precede the document

// Keeps a value's bytes as they are scanned, up to `cap`: past it `held` is emptied and `over` set
// (the value is still scanned to its end, only not kept).
void hold(std::string& held, bool& over, const char* p, size_t n, size_t cap) {
  if (over) return;
  if (held.size() + n > cap) {
    over = true;
    held.clear();
  } else {
    held.append(p, n);
  }
}

}  // namespace

// The batch starts small and grows to its flush size with the input: a small trace (a test, a rank
// of a job, a fuzz input, a part's header) does not pay for a 2 MiB block it never fills, which
// under ASan is poisoned on every allocation and free.
EventSplitter::EventSplitter(EventSplitterSink* sink, ImportStats* stats) : sink_(sink), stats_(stats) {
  batch_.reserve(size_t(1) << 16);
}

void EventSplitter::fail(const std::string& message, uint64_t offset) {
  stats_->fatal = true;
  stats_->fatal_message = message + " (at byte " + std::to_string(offset) + ")";
  state_ = State::kStopped;
}

// A syntax error after events were read keeps what was read; before that it is fatal.
void EventSplitter::syntax_problem(uint64_t offset) {
  if (events_done_) {
    // The events array may have been closed early (a stray ']', or one inside a damaged event):
    // from its end on the bytes are a skipped span, and events after them are read.
    damage(events_end_);
    return;
  }
  if (!any_event_ && !saw_events_array_) {
    fail("Not a trace: the file is not valid JSON", offset);
    return;
  }
  stats_->problem("syntax_error", offset);
  state_ = State::kStopped;
}

void EventSplitter::begin_value(char first) {
  depth_ = 0;
  in_string_ = false;
  escape_ = false;
  value_done_ = false;
  scalar_ = !(first == '{' || first == '[' || first == '"');
}

namespace {

// The byte-at-a-time scanner for containers and strings: stops at `end` or where the value ends.
size_t scan_bytes(const char* data, size_t i, size_t end, int64_t& depth, bool& in_string, bool& escape, bool& done) {
  while (i < end) {
    if (in_string) {
      if (escape) {
        escape = false;
        ++i;
        continue;
      }
      while (i < end && data[i] != '"' && data[i] != '\\') ++i;
      if (i >= end) return i;
      if (data[i] == '\\') {
        escape = true;
        ++i;
        continue;
      }
      in_string = false;
      ++i;
      if (depth == 0) {
        done = true;
        return i;
      }
      continue;
    }
    // Outside strings: only quotes and brackets matter.
    while (i < end) {
      char c = data[i];
      if (c == '"' || c == '{' || c == '}' || c == '[' || c == ']') break;
      ++i;
    }
    if (i >= end) return i;
    char c = data[i++];
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (--depth <= 0) {
      done = true;
      return i;
    }
  }
  return i;
}

}  // namespace

size_t EventSplitter::scan_value(const char* data, size_t i, size_t n) {
  if (scalar_) {
    // A number or literal ends at the first byte that cannot be part of one.
    while (i < n && is_scalar_byte(data[i])) ++i;
    if (i < n) value_done_ = true;
    return i;
  }
  while (i < n) {
    // Inside a container, 64 bytes at a time: string bytes are masked out with a prefix XOR of
    // the quotes, and only the remaining brackets are visited. Blocks with a backslash (rare in
    // traces) take the byte loop, which tracks escapes.
    if (depth_ > 0 && !escape_ && n - i >= 64) {
      BlockMasks m = classify_block(data + i);
      if (m.backslash == 0) {
        uint64_t in_str = prefix_xor(m.quote) ^ (in_string_ ? ~uint64_t(0) : 0);
        uint64_t brackets = (m.open | m.close) & ~in_str;
        while (brackets) {
          int k = __builtin_ctzll(brackets);
          if ((m.open >> k) & 1) {
            ++depth_;
          } else if (--depth_ <= 0) {
            value_done_ = true;
            return i + k + 1;
          }
          brackets &= brackets - 1;
        }
        in_string_ = (in_str >> 63) & 1;
        i += 64;
        continue;
      }
    }
    // At depth 0 one byte at a time, so the block loop starts right after the opening bracket.
    size_t end = depth_ > 0 ? std::min(n, i + 64) : (in_string_ ? n : i + 1);
    i = scan_bytes(data, i, end, depth_, in_string_, escape_, value_done_);
    if (value_done_) return i;
  }
  return i;
}

void EventSplitter::append_element(const char* p, size_t len) {
  if (element_oversize_) return;
  if (batch_.size() - element_begin_ + len > kMaxEventBytes) {
    element_oversize_ = true;
    batch_.resize(element_begin_);
    return;
  }
  batch_.insert(batch_.end(), p, p + len);
}

void EventSplitter::end_element() {
  any_event_ = true;
  if (element_oversize_) {
    stats_->events++;
    stats_->problem("event_too_large", element_offset_);
    element_oversize_ = false;
    batch_.resize(element_begin_);
    return;
  }
  refs_.push_back(EventRef{static_cast<uint32_t>(element_begin_), static_cast<uint32_t>(batch_.size() - element_begin_),
                           element_offset_});
  if (batch_.size() >= kFlushBytes) flush_batch();
}

void EventSplitter::flush_batch() {
  if (!refs_.empty()) {
    // Drops a partial element after the last event (truncated input).
    size_t used = refs_.back().begin + refs_.back().length;
    batch_.resize(used);
    batch_.insert(batch_.end(), kBatchPadding, ' ');
    EventBatch b{batch_.data(), used, &refs_};
    sink_->on_batch(b);
  }
  batch_.clear();
  refs_.clear();
}

void EventSplitter::push(const char* data, size_t n) {
  const bool in_place = sink_->decodes_in_place();
  stats_->bytes += n;
  size_t i = 0;
  while (i < n) {
    i = step(data, n, i, base_, in_place);
    if (!replay_.empty()) run_replay(in_place);
  }
  base_ += n;
}

// Reads the queued bytes of a damaged event again. A damaged event met while doing so queues its
// own bytes followed by the rest of the queue, so this never nests.
void EventSplitter::run_replay(bool in_place) {
  while (!replay_.empty()) {
    std::string buf = std::move(replay_);
    replay_.clear();
    const uint64_t base = replay_base_;
    size_t j = 0;
    while (j < buf.size()) {
      j = step(buf.data(), buf.size(), j, base, in_place);
      if (!replay_.empty()) {
        replay_.append(buf, j);
        replayed_ += buf.size() - j;
        break;
      }
    }
  }
}

void EventSplitter::damage(uint64_t offset) {
  if (!damage_open_ && stats_->recovered_regions > 0 && offset == last_damage_end_) {
    // The span that ended here (at a ']' taken for the array's end) goes on: one span, not two.
    stats_->recovered_regions--;
    stats_->recovered_bytes -= last_damage_end_ - last_damage_start_;
    offset = last_damage_start_;
  }
  if (!damage_open_) {
    damage_open_ = true;
    damage_start_ = offset;
  }
  events_done_ = false;
  state_ = State::kResync;
}

// Queues a damaged value's bytes after its first one (p[0], at stream offset `offset`) to be read
// again, within a budget: junk full of '{' cannot make the import quadratic. Past the budget the
// skip starts where the damage was found.
void EventSplitter::replay_after_first(const char* p, size_t n, uint64_t offset) {
  if (n <= 1 || replayed_ + n > 2 * stats_->bytes + (size_t(1) << 20)) return;
  replay_.assign(p + 1, n - 1);
  replay_base_ = offset + 1;
  replayed_ += n - 1;
}

void EventSplitter::damaged_element() {
  damage(element_offset_);
  if (!element_oversize_)
    replay_after_first(batch_.data() + element_begin_, batch_.size() - element_begin_, element_offset_);
  batch_.resize(element_begin_);
  element_oversize_ = false;
}

void EventSplitter::damaged_skip() {
  damage(skip_offset_);
  after_skip_ = false;
  if (!skip_oversize_) replay_after_first(skip_bytes_.data(), skip_bytes_.size(), skip_offset_);
  skip_bytes_.clear();
}

void EventSplitter::end_damage(uint64_t offset) {
  if (!damage_open_) return;
  damage_open_ = false;
  stats_->recovered(1, offset - damage_start_, damage_start_);
  last_damage_start_ = damage_start_;
  last_damage_end_ = offset;
}

size_t EventSplitter::step(const char* data, size_t n, size_t i, uint64_t base, bool in_place) {
  switch (state_) {
    case State::kStopped: i = n; break;
    case State::kStart: {
      // The byte order mark is matched by stream offset: it may arrive split over pushes.
      while (i < n && (is_ws(data[i]) || (base + i < 3 && data[i] == kBom[base + i]))) ++i;
      if (i >= n) break;
      char c = data[i];
      if (c == '{') {
        object_form_ = true;
        state_ = State::kObjExpectKey;
        ++i;
      } else if (c == '[') {
        saw_events_array_ = true;
        state_ = State::kArray;
        ++i;
      } else {
        fail("Not a trace: " + describe_start(static_cast<unsigned char>(c)), base + i);
        i = n;
      }
      break;
    }
    case State::kObjExpectKey: {
      while (i < n && (is_ws(data[i]) || data[i] == ',')) ++i;
      if (i >= n) break;
      char c = data[i];
      if (c == '}') {
        ++i;
        state_ = State::kDone;
      } else if (c == '"') {
        ++i;
        key_.clear();
        key_escape_ = false;
        state_ = State::kObjKey;
      } else {
        syntax_problem(base + i);  // not consumed: it may be the next event's '{'
      }
      break;
    }
    case State::kObjKey: {
      while (i < n) {
        char c = data[i++];
        if (key_escape_) {
          key_escape_ = false;
          key_.push_back(c);
        } else if (c == '\\') {
          key_escape_ = true;
          key_.push_back(c);
        } else if (c == '"') {
          state_ = State::kObjColon;
          break;
        } else if ((c == '\n' || c == '\r') && events_done_) {
          syntax_problem(base + i - 1);  // no key holds a line break: damage
          break;
        } else if (key_.size() < 4096) {
          key_.push_back(c);
        }
      }
      break;
    }
    case State::kObjColon: {
      while (i < n && is_ws(data[i])) ++i;
      if (i >= n) break;
      if (data[i] != ':') {
        syntax_problem(base + i);
        break;
      }
      ++i;
      state_ = State::kObjValue;
      break;
    }
    case State::kObjValue: {
      while (i < n && is_ws(data[i])) ++i;
      if (i >= n) break;
      char c = data[i];
      if (key_ == "nodes" && c == '[') saw_nodes_array_ = true;
      if (key_ == "traceEvents" && c == '[' && !saw_events_array_) {
        saw_events_array_ = true;
        state_ = State::kArray;
        ++i;
        break;
      }
      if (c == ',' || c == '}' || c == ']' || c == ':') {
        syntax_problem(base + i);
        break;
      }
      top_value_.clear();
      top_value_oversize_ = false;
      top_value_offset_ = base + i;
      begin_value(c);
      state_ = State::kTopValue;
      break;
    }
    case State::kTopValue: {
      size_t start = i;
      i = scan_value(data, i, n);
      hold(top_value_, top_value_oversize_, data + start, i - start, kMaxTopLevelValueBytes);
      if (value_done_) {
        if (top_value_oversize_) {
          stats_->problem("top_level_value_too_large", top_value_offset_);
        } else {
          sink_->on_top_level_value(key_, top_value_, top_value_offset_);
        }
        top_value_.clear();
        state_ = State::kObjExpectKey;
      }
      break;
    }
    case State::kArray: {
      for (; i < n && (is_ws(data[i]) || data[i] == ','); ++i)
        if (data[i] == ',') after_skip_ = false;
      if (i >= n) break;
      char c = data[i];
      if (after_skip_ && c != ']' && c != '{') {
        // A non-object element followed by neither ',' nor an event: it may have swallowed the start
        // of the next event (a stray '"' or '[' before its '{'), so it is read again.
        damaged_skip();
        break;
      }
      after_skip_ = false;
      if (c == ']') {
        end_damage(base + i);
        events_end_ = base + i;
        ++i;
        events_done_ = true;
        flush_batch();
        state_ = object_form_ ? State::kObjExpectKey : State::kDone;
      } else if (c == '{') {
        if (in_place) {
          if (!refs_.empty()) flush_batch();  // declined events first: handling stays in order
          if (size_t len = sink_->decode_in_place(data + i, n - i, base + i)) {
            end_damage(base + i);
            any_event_ = true;
            i += len;
            break;
          }
        }
        element_offset_ = base + i;
        element_begin_ = batch_.size();
        element_oversize_ = false;
        check_.reset();
        state_ = State::kElement;
      } else if (c == '[') {
        skip_offset_ = base + i;
        skip_bytes_.assign(1, '[');
        skip_oversize_ = false;
        ++i;
        state_ = State::kArrayElement;
      } else if (!(c == '"' || c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n')) {
        damage(base + i);  // a stray byte
        ++i;
      } else {
        stats_->problem("skipped_non_object", base + i);
        begin_value(c);
        skip_offset_ = base + i;
        skip_bytes_.clear();
        skip_oversize_ = false;
        state_ = State::kSkipElement;
      }
      break;
    }
    case State::kElement: {
      size_t used = 0;
      ObjectCheck::Status st = check_.feed(data + i, n - i, used);
      append_element(data + i, used);
      i += used;
      if (st == ObjectCheck::Status::kDone) {
        end_damage(element_offset_);
        end_element();
        state_ = State::kArray;
      } else if (st == ObjectCheck::Status::kBad) {
        damaged_element();
      }
      break;
    }
    case State::kResync: {
      while (i < n && data[i] != '{' && data[i] != ']') ++i;
      if (i < n) state_ = State::kArray;
      break;
    }
    case State::kArrayElement: {
      // An array among the events, or a stray '[' before an event: an array whose first element
      // is an object would swallow the events after it, so that '[' is taken for damage.
      size_t start = i;
      while (i < n && is_ws(data[i])) ++i;
      hold(skip_bytes_, skip_oversize_, data + start, i - start, kMaxEventBytes);
      if (i >= n) break;
      if (data[i] == '{') {
        damage(skip_offset_);
        state_ = State::kArray;
        break;
      }
      stats_->problem("skipped_non_object", skip_offset_);
      begin_value('[');
      depth_ = 1;
      state_ = State::kSkipElement;
      break;
    }
    case State::kSkipElement: {
      size_t start = i;
      i = scan_value(data, i, n);
      hold(skip_bytes_, skip_oversize_, data + start, i - start, kMaxEventBytes);
      if (value_done_) {
        after_skip_ = true;
        state_ = State::kArray;
      }
      break;
    }
    case State::kDone: {
      while (i < n && is_ws(data[i])) ++i;
      if (i >= n) break;
      if (!object_form_) {
        // A bare array closed early by a stray ']': what follows is read as more events.
        damage(base + i);
        break;
      }
      if (data[i] == ',' && events_done_) {
        // The top-level object closed by a '}' inside a damaged event: more events may follow.
        damage(events_end_);
        break;
      }
      stats_->problem("trailing_data", base + i);
      state_ = State::kStopped;
      i = n;
      break;
    }
  }
  return i;
}

void EventSplitter::start_in_events_array(uint64_t offset, bool object_form) {
  base_ = offset;
  object_form_ = object_form;
  saw_events_array_ = true;
  any_event_ = true;
  state_ = State::kArray;
}

void EventSplitter::continue_from(EventSplitter&& later) {
  EventSplitterSink* sink = sink_;
  ImportStats* stats = stats_;
  *this = std::move(later);
  sink_ = sink;
  stats_ = stats;
}

void EventSplitter::encode_state(ByteWriter& w) const {
  w.put(state_), w.put(base_), w.put(depth_), w.put(in_string_), w.put(escape_), w.put(scalar_), w.put(value_done_);
  w.put(object_form_), w.put(saw_events_array_), w.put(events_done_), w.put(any_event_);
  w.put_str(key_), w.put(key_escape_), w.put_str(top_value_), w.put(top_value_oversize_), w.put(top_value_offset_);
  w.put(element_offset_), w.put(element_begin_), w.put(element_oversize_);
  w.put_vec(batch_), w.put_vec(refs_);
  check_.encode(w), w.put(damage_open_), w.put(damage_start_), w.put(replayed_);
  w.put(after_skip_), w.put(skip_offset_), w.put(skip_oversize_), w.put_str(skip_bytes_), w.put(events_end_);
  w.put(last_damage_start_), w.put(last_damage_end_);
}

bool EventSplitter::decode_state(ByteReader& r) {
  r.get(state_), r.get(base_), r.get(depth_), r.get(in_string_), r.get(escape_), r.get(scalar_), r.get(value_done_);
  r.get(object_form_), r.get(saw_events_array_), r.get(events_done_), r.get(any_event_);
  r.get_str(key_), r.get(key_escape_), r.get_str(top_value_), r.get(top_value_oversize_), r.get(top_value_offset_);
  r.get(element_offset_), r.get(element_begin_), r.get(element_oversize_);
  r.get_vec(batch_), r.get_vec(refs_);
  check_.decode(r), r.get(damage_open_), r.get(damage_start_), r.get(replayed_);
  r.get(after_skip_), r.get(skip_offset_), r.get(skip_oversize_), r.get_str(skip_bytes_), r.get(events_end_);
  r.get(last_damage_start_), r.get(last_damage_end_);
  if (static_cast<uint8_t>(state_) > static_cast<uint8_t>(State::kStopped) || element_begin_ > batch_.size()) r.fail();
  for (const EventRef& ref : refs_)
    if (uint64_t(ref.begin) + ref.length > batch_.size()) r.fail();
  return r.ok();
}

void EventSplitter::finish() {
  // A span still being skipped runs to the end of the input.
  end_damage(base_);
  if (state_ == State::kElement) {
    // The last event was cut off: it is not loaded.
    batch_.resize(element_begin_);
    stats_->problem("truncated_event", element_offset_);
  }
  flush_batch();
  if (stats_->fatal) return;
  if (state_ == State::kStart) {
    fail(stats_->bytes == 0 ? "Not a trace: the file is empty" : "Not a trace: the file holds only whitespace", base_);
    return;
  }
  if (!saw_events_array_) {
    if (state_ == State::kDone && saw_nodes_array_) {
      // PyTorch's Execution Trace (ExecutionTraceObserver) is often saved beside the profiler's trace.
      fail("Not a trace: this looks like a PyTorch Execution Trace (a \"nodes\" graph of operators, without "
           "timings); open the profiler trace recorded with it (the Kineto file with \"traceEvents\")",
           0);
    } else if (state_ == State::kDone) {
      fail("Not a trace: the JSON object has no \"traceEvents\" array", 0);
    } else {
      fail("Not a trace: the file ends before any \"traceEvents\" array", base_);
    }
    return;
  }
  // A damaged span that runs to the end is reported as recovered, not as a truncated file.
  if (state_ != State::kDone && state_ != State::kStopped && state_ != State::kResync) stats_->truncated = true;
}

}  // namespace tw
