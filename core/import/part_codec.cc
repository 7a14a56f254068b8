// A later part of a parts import (import_parts.h), moved from the heap that imported it to the one
// that absorbs it: in the browser each part is imported by its own worker. The big columns are
// copied as they are: those of the slices, GPU ops, instants, memory and v1 flow points straight to
// the end of the absorbing state's tables (open_part), the counters' values, the flow v2 marks and
// the side tables to the decoded part; the header holds the rest (strings, processes, tracks, open
// slices, stats, the splitter) and every column's size.
// The bytes come from our own part worker, but a version skew or a bug must not crash the absorbing
// worker: lengths are checked while reading, and every index once the columns are filled.
#include <algorithm>

#include "core/base/byte_codec.h"
#include "core/import/import_state.h"
#include "core/model/side_rows.h"

namespace tw {

namespace {

// Changes whenever the layout below or of any struct copied as bytes does.
constexpr uint64_t kPartFormat = 0x7477'7061'7274'000bULL ^ (uint64_t(sizeof(Process)) << 40) ^
                                 (uint64_t(sizeof(Track)) << 32) ^ (uint64_t(sizeof(OpenSlice)) << 24) ^
                                 (uint64_t(sizeof(FlowPoint)) << 16) ^ (uint64_t(sizeof(OrphanEnd)) << 8);

void put_open(ByteWriter& w, const std::vector<OpenSlice>& v) { w.put_vec(v); }

template <class F>
void instant_columns(InstantTable& in, F& f) {
  f(in.ts_ns), f(in.track), f(in.name), f(in.cat), f(in.scope), f(in.src_offset), f(in.src_length);
}
template <class F>
void memory_columns(MemoryTable& m, F& f) {
  f(m.ts_ns), f(m.device), f(m.total_allocated), f(m.total_reserved), f(m.bytes);
}

}  // namespace

// Every big column of a later part, in one fixed order, f(std::vector<T>&): first those of the five
// tables whose rows go straight to the end of the absorbing state's (open_part), then the rest.
template <class F>
void ImportState::for_each_part_column(F f) {
  model.slices.for_each_import_column(f);
  model.gpu_ops.for_each_row_column(f);
  instant_columns(model.instants, f);
  memory_columns(model.memory, f);
  f(links_.flows_v1.points);
  for_each_side_column(f);
}

template <class F>
void ImportState::for_each_side_column(F f) {
  for (CounterSeries& c : model.counters) f(c.ts_ns), f(c.value);
  f(links_.flows_v2);
  model.slices.for_each_side_column(f);
  model.gpu_ops.for_each_side_column(f);
}

std::vector<uint8_t> ImportState::encode_part_header() const {
  ByteWriter w;
  w.put(kPartFormat);
  w.put(later_part_), w.put(part_conflict_), w.put(input_ended_), w.put(any_time_);
  w.put(growth_.begin), w.put(model.min_ts_ns), w.put(model.max_ts_ns);
  w.put(stats.bytes), w.put(stats.events), w.put(stats.truncated), w.put(stats.fatal);
  w.put(stats.recovered_regions), w.put(stats.recovered_bytes), w.put(stats.recovered_first_offset);
  w.put_str(stats.fatal_message);
  w.put<uint64_t>(stats.phases.size());
  for (const auto& [ph, n] : stats.phases) w.put_str(ph), w.put(n);
  w.put<uint64_t>(stats.problems.size());
  for (const auto& [name, p] : stats.problems)
    w.put_str(name), w.put(p.count), w.put(p.first_offset), w.put_str(p.example);
  w.put(phase_counts_);
  w.put<uint64_t>(model.strings.size());
  for (StringId i = 1; i < model.strings.size(); ++i) w.put_str(model.strings.get(i));
  w.put_vec(model.processes);
  std::vector<uint8_t> string_pid(model.processes.size(), 0);
  for (const auto& [label, idx] : pid_str_) string_pid[idx] = 1;
  w.put_vec(string_pid), w.put_vec(process_set_), w.put_vec(track_set_);
  w.put_vec(model.tracks);
  std::vector<IdKey> keys(model.tracks.size(), IdKey{0, 0});
  std::vector<uint8_t> is_async(model.tracks.size(), 0);
  for (const auto& [k, idx] : threads_) keys[idx] = k;
  for (const auto& [k, idx] : async_tracks_) keys[idx] = k, is_async[idx] = 1;
  w.put_vec(keys), w.put_vec(is_async);
  w.put_vec(orphan_ends_);
  w.put_vec(links_.flows_v1.keys);
  w.put_vec(links_.flows_v1.lanes);
  w.put_vec(links_.flows_v1.times.bases), w.put_vec(links_.flows_v1.times.escaped_offsets);
  w.put_vec(links_.flows_v1.times.escaped_ts);
  w.put<uint64_t>(open_b_.size());
  for (const auto& stack : open_b_) put_open(w, stack);
  w.put<uint64_t>(open_async_.size());
  for (const auto& [k, stack] : open_async_) w.put(k), put_open(w, stack);
  w.put<uint64_t>(later_values_.size());
  for (const LaterValue& v : later_values_) w.put_str(v.key), w.put_str(v.raw), w.put(v.offset);
  w.put<uint64_t>(model.counters.size());
  for (const CounterSeries& c : model.counters) w.put(c.process), w.put(c.name);
  splitter.encode_state(w);
  const_cast<ImportState*>(this)->for_each_part_column([&w](auto& column) { w.put<uint64_t>(column.size()); });
  return std::move(w.bytes());
}

bool ImportState::decode_part_header(const uint8_t* p, size_t n) {
  ByteReader r(p, n);
  if (r.get<uint64_t>() != kPartFormat) return false;
  r.get(later_part_), r.get(part_conflict_), r.get(input_ended_), r.get(any_time_);
  r.get(growth_.begin), r.get(model.min_ts_ns), r.get(model.max_ts_ns);
  r.get(stats.bytes), r.get(stats.events), r.get(stats.truncated), r.get(stats.fatal);
  r.get(stats.recovered_regions), r.get(stats.recovered_bytes), r.get(stats.recovered_first_offset);
  r.get_str(stats.fatal_message);
  uint64_t count = 0;
  r.get_count(count, 16);
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    std::string ph;
    r.get_str(ph);
    r.get(stats.phases[ph]);
  }
  r.get_count(count, 32);
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    std::string name;
    r.get_str(name);
    ProblemCount& pc = stats.problems[name];
    r.get(pc.count), r.get(pc.first_offset), r.get_str(pc.example);
  }
  r.get(phase_counts_);
  r.get_count(count, 8);
  std::string text;
  for (uint64_t i = 1; i < count && r.ok(); ++i)
    if (r.get_str(text) && model.strings.intern(text) != i) r.fail();  // a repeated string
  std::vector<uint8_t> string_pid, is_async;
  std::vector<IdKey> keys;
  r.get_vec(model.processes), r.get_vec(string_pid), r.get_vec(process_set_), r.get_vec(track_set_);
  r.get_vec(model.tracks), r.get_vec(keys), r.get_vec(is_async);
  const size_t n_proc = model.processes.size(), n_tracks = model.tracks.size();
  if (string_pid.size() != n_proc || keys.size() != n_tracks || is_async.size() != n_tracks) r.fail();
  for (uint32_t i = 0; i < n_proc && r.ok(); ++i) {
    const Process& pr = model.processes[i];
    bool fresh = string_pid[i] ? pid_str_.emplace(pr.pid_label, i).second : pid_num_.emplace(pr.pid, i).second;
    if (!fresh) r.fail();
  }
  for (uint32_t i = 0; i < n_tracks && r.ok(); ++i)
    if (!(is_async[i] ? async_tracks_ : threads_).emplace(keys[i], i).second) r.fail();
  r.get_vec(orphan_ends_);
  r.get_vec(links_.flows_v1.keys);
  for (uint32_t k = 0; k < links_.flows_v1.keys.size(); ++k)
    if (!links_.flows_v1.key_index.emplace(links_.flows_v1.keys[k], k).second) r.fail();
  r.get_vec(links_.flows_v1.lanes);
  r.get_vec(links_.flows_v1.times.bases), r.get_vec(links_.flows_v1.times.escaped_offsets);
  r.get_vec(links_.flows_v1.times.escaped_ts);
  if (links_.flows_v1.lanes.size() > FlowPoint::kLaneLimit) r.fail();
  for (uint32_t l = 0; l < links_.flows_v1.lanes.size() && r.ok(); ++l) {
    const FlowLane& lane = links_.flows_v1.lanes[l];
    if (!links_.flows_v1.lane_index.emplace((uint64_t(lane.key) << 32) | lane.track, l).second) r.fail();
  }
  r.get_count(count, 8);
  if (count != n_tracks) r.fail();
  open_b_.resize(r.ok() ? n_tracks : 0);
  for (auto& stack : open_b_) r.get_vec(stack);
  r.get_count(count, 24);
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    IdKey k{0, 0};
    r.get(k);
    r.get_vec(open_async_[k]);
  }
  r.get_count(count, 24);
  for (uint64_t i = 0; i < count && r.ok(); ++i) {
    LaterValue v;
    r.get_str(v.key), r.get_str(v.raw), r.get(v.offset);
    later_values_.push_back(std::move(v));
  }
  r.get_count(count, 8);
  model.counters.resize(r.ok() ? count : 0);
  for (CounterSeries& c : model.counters) r.get(c.process), r.get(c.name);
  splitter.decode_state(r);
  // The five tables' sizes are kept (their rows go straight to the absorbing state, open_part);
  // every column of a table must have its table's size. The other columns are made here.
  size_t table = 0, column_index = 0;
  TableRows decoded;
  size_t* rows[] = {&decoded.slices, &decoded.gpu_ops, &decoded.instants, &decoded.memory, &decoded.flow_points};
  auto table_column = [&](auto& column, size_t t) {
    uint64_t size = 0;
    if (!r.get(size) || size > (uint64_t(4) << 30) / sizeof(column[0])) return void(r.fail());
    if (t != table || column_index++ == 0) table = t, column_index = 1, *rows[t] = size;
    else if (size != *rows[t]) r.fail();
  };
  model.slices.for_each_import_column([&](auto& c) { table_column(c, 0); });
  model.gpu_ops.for_each_row_column([&](auto& c) { table_column(c, 1); });
  auto instants = [&](auto& c) { table_column(c, 2); };
  instant_columns(model.instants, instants);
  auto memory = [&](auto& c) { table_column(c, 3); };
  memory_columns(model.memory, memory);
  table_column(links_.flows_v1.points, 4);
  for_each_side_column([&r](auto& column) {
    uint64_t size = 0;
    // A size no heap could hold is refused before it is asked for.
    if (!r.get(size) || size > (uint64_t(4) << 30) / sizeof(column[0])) return void(r.fail());
    column.resize(size);
  });
  part_rows_ = decoded;
  return r.ok() && r.at_end();
}

std::vector<std::pair<void*, size_t>> ImportState::part_columns() {
  std::vector<std::pair<void*, size_t>> out;
  for_each_part_column(
      [&out](auto& column) { out.emplace_back(static_cast<void*>(column.data()), column.size() * sizeof(column[0])); });
  return out;
}

void ImportState::truncate_tables(const TableRows& rows) {
  model.slices.for_each_import_column([&](auto& c) { c.resize(rows.slices); });
  model.gpu_ops.for_each_row_column([&](auto& c) { c.resize(rows.gpu_ops); });
  auto instants = [&](auto& c) { c.resize(rows.instants); };
  instant_columns(model.instants, instants);
  auto memory = [&](auto& c) { c.resize(rows.memory); };
  memory_columns(model.memory, memory);
  links_.flows_v1.points.resize(rows.flow_points);
}

std::vector<std::pair<void*, size_t>> ImportState::open_part(ImportState& part) {
  std::vector<std::pair<void*, size_t>> out;
  if (!absorbable(part)) return out;
  splitter.flush_between_events();  // events still held here come before the part's
  open_base_ = table_rows();
  const TableRows add = part.table_rows();
  const TableRows& base = open_base_;
  // With room for what finish() may still add (B events never closed) without doubling.
  size_t slices = base.slices + add.slices;
  if (model.slices.ts_ns.capacity() < slices) model.slices.reserve(slices + slices / 256 + 1024);
  const size_t points = base.flow_points + add.flow_points;
  if (links_.flows_v1.capacity() < points) links_.flows_v1.reserve(points);  // exactly: a part's come at once
  truncate_tables(
      TableRows{slices, base.gpu_ops + add.gpu_ops, base.instants + add.instants, base.memory + add.memory, points});
  part_open_ = true;
  auto tail = [&out](size_t from) {
    return [&out, from](auto& c) {
      out.emplace_back(static_cast<void*>(c.data() + from), (c.size() - from) * sizeof(c[0]));
    };
  };
  model.slices.for_each_import_column(tail(base.slices));
  model.gpu_ops.for_each_row_column(tail(base.gpu_ops));
  auto instants = tail(base.instants);
  instant_columns(model.instants, instants);
  auto memory = tail(base.memory);
  memory_columns(model.memory, memory);
  tail(base.flow_points)(links_.flows_v1.points);
  part.for_each_side_column(
      [&out](auto& c) { out.emplace_back(static_cast<void*>(c.data()), c.size() * sizeof(c[0])); });
  return out;
}

// The part's rows copied to the end of this state's tables (from open_base_) and its own other
// columns and tables: every index within the part's own numbering.
bool ImportState::part_is_consistent(const ImportState& later) const {
  const TraceModel& m = later.model;
  const size_t n_str = m.strings.size(), n_proc = m.processes.size(), n_tracks = m.tracks.size();
  const size_t n_slices = model.slices.size() - open_base_.slices;
  bool ok = true;
  auto all_below = [&ok](const auto& column, size_t from, size_t limit) {
    for (size_t i = from; i < column.size(); ++i) ok = ok && static_cast<size_t>(column[i]) < limit;
  };
  auto strings_ok = [&](StringId s) { ok = ok && s < n_str; };
  const SliceTable& s = model.slices;
  ok = ok && s.ts_ns.part_fits(m.slices.ts_ns, open_base_.slices) &&
       s.track.part_fits(m.slices.track, open_base_.slices, n_tracks) &&
       s.name.part_fits(m.slices.name, open_base_.slices, n_str) &&
       s.cat.part_fits(m.slices.cat, open_base_.slices, n_str) && s.dur.escapes_fit(m.slices.dur, open_base_.slices) &&
       s.ids.escapes_fit(m.slices.ids, open_base_.slices) && s.src.escapes_fit(m.slices.src, open_base_.slices);
  all_below(model.gpu_ops.slice, open_base_.gpu_ops, n_slices);
  const GpuOpTable& g = m.gpu_ops;
  all_below(model.gpu_ops.config, open_base_.gpu_ops, g.configs.size());
  g.configs.for_each_column([&](const auto& column) { ok = ok && column.size() == g.configs.size(); });
  ok = ok && g.bytes_value.size() == g.bytes_op.size() &&
       side_rows_valid(g.bytes_op, model.gpu_ops.size() - open_base_.gpu_ops);
  const CollectiveTable& c = g.collectives;
  c.for_each_column([&](const auto& column) { ok = ok && column.size() == c.size(); });
  ok = ok && side_rows_valid(c.op, model.gpu_ops.size() - open_base_.gpu_ops);
  all_below(c.collective, 0, n_str), all_below(c.dtype, 0, n_str), all_below(c.pg_name, 0, n_str);
  const InstantTable& in = model.instants;
  all_below(in.track, open_base_.instants, n_tracks), all_below(in.name, open_base_.instants, n_str);
  all_below(in.cat, open_base_.instants, n_str);
  for (const CounterSeries& c : m.counters)
    ok = ok && c.process < n_proc && c.name < n_str && c.value.size() == c.ts_ns.size();
  for (const Process& p : m.processes) strings_ok(p.pid_label), strings_ok(p.name), strings_ok(p.labels);
  for (const Track& t : m.tracks) {
    ok = ok && t.process < n_proc;
    strings_ok(t.tid_label), strings_ok(t.name);
  }
  auto id_ok = [&](uint64_t bits) { ok = ok && (!is_string_id(bits) || static_cast<uint32_t>(bits) < n_str); };
  for (const auto& [k, idx] : later.threads_) ok = ok && k.a < n_proc, id_ok(k.b);
  for (const auto& [k, idx] : later.async_tracks_) ok = ok && k.a < n_proc && k.b < n_str;
  const auto& orphans = later.orphan_ends_;
  for (const OrphanEnd& e : orphans)
    ok = ok && e.slice < n_slices && e.track < n_tracks && e.v2_marks <= later.links_.flows_v2.size();
  for (size_t i = 1; i < orphans.size(); ++i) ok = ok && orphans[i - 1].slice < orphans[i].slice;
  const FlowPoints& f = later.links_.flows_v1;
  for (uint64_t key : f.keys) strings_ok(static_cast<StringId>(key >> 32)), strings_ok(static_cast<StringId>(key));
  for (const FlowLane& lane : f.lanes) ok = ok && lane.key < f.keys.size() && lane.track < n_tracks;
  for (size_t i = open_base_.flow_points; i < links_.flows_v1.size(); ++i) {
    const FlowPoint& pt = links_.flows_v1.points[i];
    ok = ok && pt.lane() < f.lanes.size(), id_ok(pt.id());
  }
  const PodBuffer<FlowPoint>& pts = links_.flows_v1.points;
  ok = ok && f.times.fits(pts.data() + open_base_.flow_points, pts.size() - open_base_.flow_points);
  // In input order across the cut too, as FlowTimes::code() takes them at the absorb.
  const size_t cut = open_base_.flow_points;
  ok = ok && (cut == 0 || cut == pts.size() || pts[cut - 1].offset() < pts[cut].offset());
  for (const FlowV2Mark& mk : later.links_.flows_v2) ok = ok && mk.slice < n_slices && mk.bind_id < n_str;
  auto open_ok = [&](const std::vector<OpenSlice>& stack) {
    for (const OpenSlice& b : stack) strings_ok(b.name), strings_ok(b.cat), strings_ok(b.bind_id);
  };
  for (const auto& stack : later.open_b_) open_ok(stack);
  for (const auto& [k, stack] : later.open_async_) {
    ok = ok && (k.b >> 32) < n_proc && static_cast<uint32_t>(k.b) < n_str;
    id_ok(k.a), open_ok(stack);
  }
  return ok;
}

}  // namespace tw
