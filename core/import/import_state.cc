#include "core/import/import_state.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/base/decimal.h"
#include "core/import/fast_event_decoder.h"
#include "core/import/json_oddities.h"
#include "core/import/kineto_fields.h"

namespace tw {

namespace {

uint64_t id_bits(const RawId& id, StringPool& pool) {
  if (!id.present) return 0;
  if (id.numeric) return static_cast<uint64_t>(id.value);
  return string_id_bits(pool.intern(id.text));
}

}  // namespace

ImportState::ImportState() : splitter(this, &stats) {}

// Decodes and handles each event of a batch.
void ImportState::on_batch(const EventBatch& batch) {
  const std::vector<EventRef>& refs = *batch.events;
  for (const EventRef& r : refs) {
    const char* p = batch.data + r.begin;
    size_t capacity = batch.size + kBatchPadding - r.begin;
    stats.events++;
    growth_.seen = r.offset;
    // A clean event is decoded in one pass; anything unusual is left to simdjson, the reference.
    bool fast = fast_decode_ && fast_decode_event(p, r.length, ev_, separators_);
    DecodeResult res = fast ? DecodeResult::kOk : decoder_.decode(p, r.length, capacity, ev_);
    switch (res) {
      case DecodeResult::kOk: break;
      case DecodeResult::kInvalidUtf8Fixed: stats.problem("invalid_utf8", r.offset); break;
      case DecodeResult::kTooDeep: stats.problem("nesting_too_deep", r.offset); continue;
      case DecodeResult::kNotObject:
      case DecodeResult::kJsonError: stats.problem("invalid_json_event", r.offset); continue;
    }
    if (ev_.duplicate_key) stats.problem("duplicate_key", r.offset);
    if (ev_.lone_surrogate | ev_.non_json_number) note_invalid_values(std::string_view(p, r.length), r.offset);
    handle_event(r.offset, r.length);
  }
}

void ImportState::note_invalid_values(std::string_view event, uint64_t offset) {
  if (ev_.lone_surrogate)
    stats.problem_with_example("lone_surrogate", offset, [&] { return oddity_example(event, true); });
  if (ev_.non_json_number)
    stats.problem_with_example("non_json_number", offset, [&] { return oddity_example(event, false); });
}

// A clean event decoded where the splitter found it (no batch copy, no separate scan for its end);
// the rest take on_batch(), same handling, whose fast path tries each again: most of them were
// only cut by the end of the pushed chunk.
size_t ImportState::decode_in_place(const char* p, size_t n, uint64_t offset) {
  size_t len = fast_decode_object(p, n, ev_, separators_);
  if (len == 0 || len > UINT32_MAX) return 0;
  stats.events++;
  growth_.seen = offset;
  if (ev_.duplicate_key) stats.problem("duplicate_key", offset);
  handle_event(offset, static_cast<uint32_t>(len));
  return len;
}

void ImportState::note_time(int64_t ts) {
  if (!any_time_) {
    model.min_ts_ns = model.max_ts_ns = ts;
    any_time_ = true;
    return;
  }
  model.min_ts_ns = std::min(model.min_ts_ns, ts);
  model.max_ts_ns = std::max(model.max_ts_ns, ts);
}

bool ImportState::require_ts(uint64_t off) {
  if (!ev_.has_ts) {
    stats.problem("missing_ts", off);
    return false;
  }
  if (!ev_.ts_ok) {
    stats.problem("bad_ts", off);
    return false;
  }
  return true;
}

void ImportState::handle_event(uint64_t off, uint32_t len) {
  std::string_view ph = ev_.ph;
  // One-letter phases are counted in an array (no string or map work per event), the rest by name;
  // finish() merges the array into stats.phases.
  if (ph.size() == 1) {
    phase_counts_[static_cast<unsigned char>(ph[0])]++;
  } else {
    stats.phases[std::string(ph)]++;
  }
  if (!ev_.has_ph) {
    stats.problem("missing_ph", off);
    return;
  }
  if (ph.size() != 1) {
    stats.problem("unknown_phase", off);
    return;
  }
  switch (ph[0]) {
    case 'X': on_complete(off, len); break;
    case 'B': on_begin(off, len); break;
    case 'E': on_end(off); break;
    case 'i':
    case 'I':
    case 'R': on_instant(off, len); break;
    case 'C': on_counter(off); break;
    case 'M': on_metadata(off); break;
    case 's':
    case 't':
    case 'f': on_flow_v1(off); break;
    case 'b':
    case 'e':
    case 'n': on_async(off, len); break;
    case 'P':
    case 'O':
    case 'N':
    case 'D':
    case 'S':
    case 'T':
    case 'F':
    case 'p':
    case 'c':
      stats.problem("unsupported_phase", off);  // samples, objects, legacy async: counted only
      break;
    default: stats.problem("unknown_phase", off); break;
  }
}

EventKind ImportState::kind_of(StringId cat) {
  std::vector<EventKind>& kinds = model.slices.cat_kinds;
  if (cat < kind_known_.size() && kind_known_[cat]) return kinds[cat];
  if (cat >= kinds.size()) kinds.resize(size_t(cat) + 1, EventKind::kOther);
  if (cat >= kind_known_.size()) kind_known_.resize(size_t(cat) + 1, false);
  kinds[cat] = kineto_kind_from_category(model.strings.get(cat));
  kind_known_[cat] = true;
  return kinds[cat];
}

uint32_t ImportState::process_for(const RawId& pid) {
  if (pid.numeric || !pid.present) {
    int64_t v = pid.present ? pid.value : 0;
    // Consecutive events mostly come from one thread: remember the last lookup.
    if (last_pid_index_ != UINT32_MAX && v == last_pid_) return last_pid_index_;
    auto it = pid_num_.find(v);
    if (it != pid_num_.end()) {
      last_pid_ = v;
      last_pid_index_ = it->second;
      return it->second;
    }
    uint32_t idx = static_cast<uint32_t>(model.processes.size());
    Process p;
    p.pid = v;
    model.processes.push_back(p);
    pid_num_.emplace(v, idx);
    return idx;
  }
  StringId label = model.strings.intern(pid.text);
  auto it = pid_str_.find(label);
  if (it != pid_str_.end()) return it->second;
  uint32_t idx = static_cast<uint32_t>(model.processes.size());
  Process p;
  p.pid = -1;
  p.pid_label = label;
  model.processes.push_back(p);
  pid_str_.emplace(label, idx);
  return idx;
}

uint32_t ImportState::thread_track(uint32_t process, const RawId& tid) {
  IdKey key{process, id_bits(tid, model.strings)};
  if (last_thread_index_ != UINT32_MAX && key == last_thread_) return last_thread_index_;
  auto it = threads_.find(key);
  if (it != threads_.end()) {
    last_thread_ = key;
    last_thread_index_ = it->second;
    return it->second;
  }
  uint32_t idx = static_cast<uint32_t>(model.tracks.size());
  Track t;
  t.process = process;
  t.tid = tid.numeric ? tid.value : 0;
  if (tid.present && !tid.numeric) t.tid_label = model.strings.intern(tid.text);
  model.tracks.push_back(t);
  open_b_.emplace_back();
  threads_.emplace(key, idx);
  return idx;
}

uint32_t ImportState::async_track(uint32_t process, StringId name) {
  IdKey key{process, name};
  auto it = async_tracks_.find(key);
  if (it != async_tracks_.end()) return it->second;
  uint32_t idx = static_cast<uint32_t>(model.tracks.size());
  Track t;
  t.kind = TrackKind::kAsync;
  t.process = process;
  t.name = name;
  model.tracks.push_back(t);
  open_b_.emplace_back();
  async_tracks_.emplace(key, idx);
  return idx;
}

uint32_t ImportState::add_slice(uint32_t track, int64_t ts, int64_t dur, StringId name, StringId cat, uint8_t flags,
                                int64_t corr, int64_t ext, uint64_t off, uint32_t len) {
  SliceTable& s = model.slices;
  growth_.before_append(s, s.ts_ns);
  if (s.ids.second_full() && IdPairColumn::needs_second(corr, ext))
    s.ids.reserve_second(growth_.target(s.ids.second_rows.size()));
  uint32_t idx = static_cast<uint32_t>(s.size());
  s.ts_ns.push_back(ts);
  s.dur.push_back(dur);
  s.track.push_back(track);
  s.name.push_back(name);
  s.cat.push_back(cat);
  s.flags.push_back(flags);
  s.ids.push_back(corr, ext);
  s.src.push_back(off, len);
  note_time(ts);
  note_time(ts + dur);
  return idx;
}

void ImportState::on_complete(uint64_t off, uint32_t len) {
  if (!require_ts(off)) return;
  int64_t dur = 0;
  uint8_t flags = 0;
  if (!ev_.has_dur) {
    flags |= kSliceNoDur;
  } else if (!ev_.dur_ok) {
    stats.problem("bad_dur", off);
    flags |= kSliceNoDur;
  } else if (ev_.dur_ns < 0) {
    stats.problem("negative_dur", off);
  } else {
    dur = ev_.dur_ns;
  }
  if (ev_.ts_ns > INT64_MAX - dur) {
    stats.problem("bad_ts", off);
    return;
  }
  uint32_t track = thread_track(process_for(ev_.pid), ev_.tid);
  StringId cat = model.strings.intern(ev_.cat);
  EventKind kind = kind_of(cat);
  KinetoIds ids = read_kineto_ids(ev_);
  flags |= stream_arg_flags(ev_);
  uint32_t slice = add_slice(track, ev_.ts_ns, dur, model.strings.intern(ev_.name), cat, flags, ids.correlation,
                             ids.external_id, off, len);
  if (ids.overflow) stats.problem("integer_beyond_int64", off);
  if (is_gpu_kind(kind)) add_gpu_op(slice, track);
  if (ev_.bind_id.present) note_flow_v2(slice);
}

void ImportState::add_gpu_op(uint32_t slice, uint32_t track) {
  Track& t = model.tracks[track];
  t.kind = TrackKind::kGpuStream;
  GpuFields g = read_gpu_fields(ev_, model.strings);
  if (t.device < 0 && g.device >= 0) t.device = g.device;
  if (t.stream < 0 && g.stream >= 0) t.stream = g.stream;
  GpuOpTable& o = model.gpu_ops;
  growth_.before_append(o, o.slice);
  GpuConfig c;
  c.device = g.device >= 0 ? g.device : static_cast<int32_t>(model.processes[t.process].pid);
  c.stream = g.stream >= 0 ? g.stream : t.tid;
  for (int k = 0; k < 3; ++k) c.grid[k] = g.grid[k], c.block[k] = g.block[k];
  o.push_back(slice, gpu_configs_.intern(o.configs, c), g.bytes);
  if (g.collective.any()) o.collectives.push_back(static_cast<uint32_t>(o.slice.size() - 1), g.collective);
}

// A slice's flow_in is recorded before its flow_out: a slice that both receives and sends on one
// bind_id continues the chain (A -> slice -> C), it does not link to itself.
void ImportState::note_flow_v2(uint32_t slice) {
  if (!ev_.flow_in && !ev_.flow_out) return;
  StringId id = model.strings.intern(ev_.bind_id.text);
  if (ev_.flow_in) links_.flows_v2.push_back(FlowV2Mark{id, slice, false});
  if (ev_.flow_out) links_.flows_v2.push_back(FlowV2Mark{id, slice, true});
}

void ImportState::note_flow_v2(uint32_t slice, const OpenSlice& b) {
  if (b.flow_in) links_.flows_v2.push_back(FlowV2Mark{b.bind_id, slice, false});
  if (b.flow_out) links_.flows_v2.push_back(FlowV2Mark{b.bind_id, slice, true});
}

void ImportState::on_begin(uint64_t off, uint32_t len) {
  if (!require_ts(off)) return;
  uint32_t track = thread_track(process_for(ev_.pid), ev_.tid);
  StringId cat = model.strings.intern(ev_.cat);
  KinetoIds ids = read_kineto_ids(ev_);
  open_b_[track].push_back(
      OpenSlice{ev_.ts_ns, model.strings.intern(ev_.name), cat, ids.correlation, ids.external_id, off, len});
  if (ev_.bind_id.present && (ev_.flow_in || ev_.flow_out)) {
    OpenSlice& b = open_b_[track].back();
    b.bind_id = model.strings.intern(ev_.bind_id.text);
    b.flow_in = ev_.flow_in;
    b.flow_out = ev_.flow_out;
  }
  note_time(ev_.ts_ns);
}

void ImportState::on_end(uint64_t off) {
  if (!require_ts(off)) return;
  uint32_t track = thread_track(process_for(ev_.pid), ev_.tid);
  auto& stack = open_b_[track];
  if (stack.empty()) {
    if (later_part_) return add_orphan_end(track, off);  // its B may be in an earlier part
    stats.problem("unmatched_end", off);
    return;
  }
  OpenSlice b = stack.back();
  stack.pop_back();
  int64_t dur = ev_.ts_ns - b.ts_ns;
  if (dur < 0) {
    stats.problem("negative_dur", off);
    dur = 0;
  }
  uint32_t slice = add_slice(track, b.ts_ns, dur, b.name, b.cat, kSliceFromBE, b.correlation, b.external_id,
                             b.src_offset, b.src_length);
  note_flow_v2(slice, b);
}

void ImportState::on_instant(uint64_t off, uint32_t len) {
  if (!require_ts(off)) return;
  uint32_t track = thread_track(process_for(ev_.pid), ev_.tid);
  InstantScope scope = InstantScope::kThread;
  if (ev_.ph == "R") scope = InstantScope::kProcess;  // mark events are process-wide
  if (ev_.scope == "g") scope = InstantScope::kGlobal;
  else if (ev_.scope == "p") scope = InstantScope::kProcess;
  InstantTable& t = model.instants;
  growth_.before_append(t, t.ts_ns);
  t.ts_ns.push_back(ev_.ts_ns);
  t.track.push_back(track);
  StringId name = model.strings.intern(ev_.name);
  t.name.push_back(name);
  t.cat.push_back(model.strings.intern(ev_.cat));
  t.scope.push_back(scope);
  t.src_offset.push_back(off);
  t.src_length.push_back(len);
  note_time(ev_.ts_ns);
  if (ev_.name == "[memory]") add_memory_sample(off);
}

void ImportState::add_memory_sample(uint64_t off) {
  MemorySample m;
  if (!read_memory_fields(ev_, m)) {
    stats.problem("memory_event_without_totals", off);
    return;
  }
  model.memory.ts_ns.push_back(ev_.ts_ns);
  model.memory.device.push_back(m.device);
  model.memory.total_allocated.push_back(m.total_allocated);
  model.memory.total_reserved.push_back(m.total_reserved);
  model.memory.bytes.push_back(m.bytes);
}

void ImportState::on_counter(uint64_t off) {
  if (!require_ts(off)) return;
  uint32_t process = process_for(ev_.pid);
  std::string base(ev_.name);
  if (ev_.id.present && !ev_.id.text.empty()) base += " " + std::string(ev_.id.text);
  bool any = false;
  for (int i = 0; i < ev_.n_args; ++i) {
    const RawArg& a = ev_.args[i];
    if (a.type != ArgType::kNumber && a.type != ArgType::kString) continue;
    std::string text(a.text);
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(v)) {  // "NaN", "inf", 1e400 are not values
      stats.problem("bad_counter_value", off);
      continue;
    }
    // One series per args key, named like Perfetto does ("name key"; just "name" for a lone "value").
    std::string series = (ev_.n_args == 1 && a.key == "value") ? base : base + " " + std::string(a.key);
    StringId sname = model.strings.intern(series);
    IdKey key{process, sname};
    auto it = counter_series_.find(key);
    uint32_t idx;
    if (it == counter_series_.end()) {
      idx = static_cast<uint32_t>(model.counters.size());
      CounterSeries cs;
      cs.process = process;
      cs.name = sname;
      model.counters.push_back(std::move(cs));
      counter_series_.emplace(key, idx);
    } else {
      idx = it->second;
    }
    model.counters[idx].ts_ns.push_back(ev_.ts_ns);
    model.counters[idx].value.push_back(v);
    any = true;
  }
  if (!any) stats.problem("counter_without_values", off);
  note_time(ev_.ts_ns);
}

void ImportState::on_metadata(uint64_t off) {
  uint32_t process = process_for(ev_.pid);
  Process& p = model.processes[process];
  const RawArg* a = nullptr;
  // Which fields this event set (for a later part's absorb(): see process_set_).
  auto mark = [](std::vector<uint8_t>& set, uint32_t index, uint8_t bit) {
    if (set.size() <= index) set.resize(index + 1, 0);
    set[index] |= bit;
  };
  if (ev_.name == "process_name") {
    if ((a = ev_.arg(kArgName))) {
      p.name = model.strings.intern(a->text);
      mark(process_set_, process, kSetName);
    }
  } else if (ev_.name == "process_labels") {
    if ((a = ev_.arg(kArgLabels))) {
      p.labels = model.strings.intern(a->text);
      mark(process_set_, process, kSetLabels);
    }
  } else if (ev_.name == "process_sort_index") {
    if ((a = ev_.arg(kArgSortIndex)) && parse_int64(a->text, p.sort_index)) {
      p.has_sort_index = true;
      mark(process_set_, process, kSetSort);
    }
  } else if (ev_.name == "thread_name") {
    uint32_t track = thread_track(process, ev_.tid);
    if ((a = ev_.arg(kArgName))) {
      model.tracks[track].name = model.strings.intern(a->text);
      mark(track_set_, track, kSetName);
    }
  } else if (ev_.name == "thread_sort_index") {
    uint32_t track = thread_track(process, ev_.tid);
    Track& t = model.tracks[track];
    if ((a = ev_.arg(kArgSortIndex)) && parse_int64(a->text, t.sort_index)) {
      t.has_sort_index = true;
      mark(track_set_, track, kSetSort);
    }
  } else {
    stats.problem("unknown_metadata", off);
    return;
  }
  if (!a) stats.problem("metadata_without_value", off);
}

void ImportState::on_flow_v1(uint64_t off) {
  if (!require_ts(off)) return;
  uint32_t track = thread_track(process_for(ev_.pid), ev_.tid);
  StringId cat = model.strings.intern(ev_.cat);
  StringId name = model.strings.intern(ev_.name);
  growth_.before_append(links_.flows_v1, links_.flows_v1.points);
  uint8_t order = ev_.ph[0] == 's' ? 0 : ev_.ph[0] == 't' ? 1 : 2;
  if (!links_.flows_v1.add(id_bits(ev_.id, model.strings), cat, name, track, ev_.ts_ns, order,
                           !(ev_.ph[0] == 'f' && ev_.bp != "e"), off)) {
    // Which endpoints are past the lane limit depends on every lane before them: a part's own count
    // does not know that, so the part is refused and read again by the state before it.
    part_conflict_ = part_conflict_ || later_part_;
    stats.problem("flow_endpoint_skipped", off);
  }
  note_time(ev_.ts_ns);
}

void ImportState::on_async(uint64_t off, uint32_t len) {
  if (!require_ts(off)) return;
  uint32_t process = process_for(ev_.pid);
  StringId cat = model.strings.intern(ev_.cat);
  StringId name = model.strings.intern(ev_.name);
  IdKey key{id_bits(ev_.id, model.strings), (uint64_t(process) << 32) | cat};
  char ph = ev_.ph[0];
  note_time(ev_.ts_ns);
  if (ph == 'b') {
    open_async_[key].push_back(OpenSlice{ev_.ts_ns, name, cat, kNoId, kNoId, off, len});
    return;
  }
  if (ph == 'n') {
    InstantTable& t = model.instants;
    growth_.before_append(t, t.ts_ns);
    t.ts_ns.push_back(ev_.ts_ns);
    t.track.push_back(async_track(process, name));
    t.name.push_back(name);
    t.cat.push_back(cat);
    t.scope.push_back(InstantScope::kThread);
    t.src_offset.push_back(off);
    t.src_length.push_back(len);
    return;
  }
  auto it = open_async_.find(key);
  if (it == open_async_.end() || it->second.empty()) {
    // In a later part its begin may be in an earlier one, and which track the slice lands on
    // depends on that begin's name: such a part is not absorbed but imported again in order.
    part_conflict_ = part_conflict_ || later_part_;
    stats.problem("unmatched_async_end", off);
    return;
  }
  OpenSlice b = it->second.back();
  it->second.pop_back();
  int64_t dur = ev_.ts_ns - b.ts_ns;
  if (dur < 0) {
    stats.problem("negative_dur", off);
    dur = 0;
  }
  add_slice(async_track(process, b.name), b.ts_ns, dur, b.name, b.cat, kSliceFromBE, kNoId, kNoId, b.src_offset,
            b.src_length);
}

void ImportState::end_input() {
  if (input_ended_) return;
  input_ended_ = true;
  splitter.finish();
}

void ImportState::finish() {
  end_input();
  for (int c = 0; c < 256; ++c) {
    if (phase_counts_[c]) stats.phases[std::string(1, static_cast<char>(c))] += phase_counts_[c];
    phase_counts_[c] = 0;
  }
  if (stats.fatal) return;
  if (stats.events == 0 && stats.problems.count("skipped_non_object")) {
    stats.fatal = true;
    stats.fatal_message = "Not a trace: the events array holds no event objects (at byte " +
                          std::to_string(stats.problems["skipped_non_object"].first_offset) + ")";
    return;
  }
  // Close what is still open at the end of the trace, so nothing loaded is lost.
  for (uint32_t t = 0; t < open_b_.size(); ++t) {
    for (const OpenSlice& b : open_b_[t]) {
      stats.problem("unclosed_begin", b.src_offset);
      uint32_t slice =
          add_slice(t, b.ts_ns, std::max<int64_t>(0, model.max_ts_ns - b.ts_ns), b.name, b.cat,
                    kSliceFromBE | kSliceUnclosed, b.correlation, b.external_id, b.src_offset, b.src_length);
      note_flow_v2(slice, b);
    }
    open_b_[t].clear();
  }
  // Unclosed async slices in the order of their begins in the file (not the hash map's order, which
  // depends on its history: a trace imported in parts builds the map differently).
  struct Unclosed {
    uint64_t offset;
    uint32_t process;
    const OpenSlice* b;
  };
  std::vector<Unclosed> unclosed;
  for (auto& [key, stack] : open_async_)
    for (const OpenSlice& b : stack) unclosed.push_back({b.src_offset, static_cast<uint32_t>(key.b >> 32), &b});
  std::sort(unclosed.begin(), unclosed.end(), [](const Unclosed& x, const Unclosed& y) { return x.offset < y.offset; });
  for (const Unclosed& u : unclosed) {
    const OpenSlice& b = *u.b;
    stats.problem("unclosed_async_begin", b.src_offset);
    add_slice(async_track(u.process, b.name), b.ts_ns, std::max<int64_t>(0, model.max_ts_ns - b.ts_ns), b.name, b.cat,
              kSliceFromBE | kSliceUnclosed, kNoId, kNoId, b.src_offset, b.src_length);
  }
  open_async_.clear();
  // A row's kind is its category's (SliceTable::cat_kinds): each category the rows have, once,
  // whether a row came from this state's events or from an absorbed part.
  for (StringId c : model.slices.cat.values) kind_of(c);
  for (StringId c : model.slices.cat.escaped_ids) kind_of(c);
  finalize_model(model, links_, stats);
}

}  // namespace tw
