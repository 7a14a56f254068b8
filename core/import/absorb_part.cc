// ImportState's side of importing one file in parts (import_parts.h): a later part imports its
// bytes on its own, keeping what it cannot know (E events whose B may come before it, values after
// the events array); its table rows are put at the end of this state's tables (open_part, in
// part_codec.cc), then join_part() renumbers them (strings, processes, tracks), appends the rest
// and joins what crosses the boundary exactly as one import in order would.
#include <algorithm>
#include <cstring>

#include "core/import/import_state.h"

namespace tw {

// Later part -> this state: ids and row numbers.
struct ImportState::PartMaps {
  std::vector<StringId> strings;
  std::vector<uint32_t> processes, tracks;
  // Part slice row -> row here (UINT32_MAX: dropped, an E that no B was open for): the rows keep
  // their order from `base` on, less the dropped ones before them. Only those are listed: a row per
  // part slice (4 B each) was the absorb's largest temporary, and drops are rare.
  struct SliceRows {
    uint32_t base = 0;
    std::vector<uint32_t> dropped;  // part rows, ascending
    uint32_t operator[](uint32_t i) const {
      if (dropped.empty()) return base + i;
      const auto it = std::lower_bound(dropped.begin(), dropped.end(), i);
      if (it != dropped.end() && *it == i) return UINT32_MAX;
      return base + i - static_cast<uint32_t>(it - dropped.begin());
    }
  } slices;

  // An id as id_bits() made it, its string (if it is one) renumbered.
  uint64_t id(uint64_t bits) const {
    return is_string_id(bits) ? string_id_bits(strings[static_cast<uint32_t>(bits)]) : bits;
  }
  StringId str(StringId s) const { return strings[s]; }
};

void ImportState::begin_later_part(uint64_t offset, bool object_form) {
  later_part_ = true;
  growth_.begin = offset;
  splitter.start_in_events_array(offset, object_form);
}

// A placeholder row where on_end() would add the slice, filled by absorb() from the B it pairs
// with. No time is noted: the pair's times are, once known.
void ImportState::add_orphan_end(uint32_t track, uint64_t off) {
  SliceTable& s = model.slices;
  growth_.before_append(s, s.ts_ns);
  uint32_t row = static_cast<uint32_t>(s.size());
  s.ts_ns.push_back(ev_.ts_ns);
  s.dur.push_back(0);
  s.track.push_back(track);
  s.name.push_back(0);
  s.cat.push_back(0);
  s.flags.push_back(kSliceFromBE);
  s.ids.push_back(kNoId, kNoId);
  s.src.push_back(off, 0);
  orphan_ends_.push_back(OrphanEnd{row, track, ev_.ts_ns, off, links_.flows_v2.size()});
}

bool ImportState::absorbable(const ImportState& later) const {
  if (later_part_ || input_ended_ || stats.fatal || part_open_) return false;
  if (!later.later_part_ || later.part_conflict_ || later.stats.fatal) return false;
  // Both parts' lanes fit the limit, so no endpoint is skipped for the lanes absorbing adds.
  if (links_.flows_v1.lanes.size() + later.links_.flows_v1.lanes.size() > FlowPoint::kLaneLimit) return false;
  // The later part started in the state this input ends in, so the rest was split the same way.
  return splitter.offset() == later.growth_.begin && splitter.between_events() &&
         splitter.is_object_form() == later.splitter.is_object_form();
}

ImportState::TableRows ImportState::table_rows() const {
  if (part_rows_) return *part_rows_;
  return TableRows{model.slices.size(), model.gpu_ops.size(), model.instants.size(), model.memory.size(),
                   links_.flows_v1.size()};
}

// A part in the same heap: its table rows are copied to the room open_part() made, its other
// columns stay where they are.
bool ImportState::absorb(ImportState& later) {
  std::vector<std::pair<void*, size_t>> to = open_part(later);
  if (to.empty()) return false;
  std::vector<std::pair<void*, size_t>> from = later.part_columns();
  for (size_t i = 0; i < to.size(); ++i)
    if (to[i].first != from[i].first && to[i].second) std::memcpy(to[i].first, from[i].first, to[i].second);
  part_open_ = false;
  join_part(later);
  return true;
}

bool ImportState::close_part(ImportState& part, bool absorb) {
  if (!part_open_) return false;
  if (!absorb || !part_is_consistent(part)) {
    truncate_tables(open_base_);
    part_open_ = false;
    return false;
  }
  part_open_ = false;
  join_part(part);
  return true;
}

void ImportState::join_part(ImportState& later) {
  PartMaps maps;
  const StringPool& ls = later.model.strings;
  maps.strings.resize(ls.size());
  for (StringId i = 0; i < ls.size(); ++i) maps.strings[i] = model.strings.intern(ls.get(i));
  absorb_tracks(later, maps);
  absorb_slices(later, maps);
  absorb_other_tables(later, maps);
  absorb_open_slices(later, maps);
  absorb_stats(later);
  if (later.any_time_) note_time(later.model.min_ts_ns), note_time(later.model.max_ts_ns);
  for (LaterValue& v : later.later_values_) on_top_level_value(v.key, v.raw, v.offset);
  splitter.continue_from(std::move(later.splitter));
  input_ended_ = later.input_ended_;
}

// Processes by pid, tracks by (process, tid) or (process, name) for async ones; new ones are
// appended in the later part's order, which is the order a single import would create them in.
// Metadata the later part set replaces what is here, as its M events would have.
void ImportState::absorb_tracks(ImportState& later, PartMaps& maps) {
  const TraceModel& lm = later.model;
  std::vector<uint8_t> string_pid(lm.processes.size(), 0);
  for (const auto& [label, idx] : later.pid_str_) string_pid[idx] = 1;
  maps.processes.resize(lm.processes.size());
  for (uint32_t i = 0; i < lm.processes.size(); ++i) {
    const Process& lp = lm.processes[i];
    const uint32_t n = static_cast<uint32_t>(model.processes.size());
    uint32_t idx;
    bool added;
    if (string_pid[i]) {
      auto r = pid_str_.try_emplace(maps.str(lp.pid_label), n);
      idx = r.first->second, added = r.second;
    } else {
      auto r = pid_num_.try_emplace(lp.pid, n);
      idx = r.first->second, added = r.second;
    }
    maps.processes[i] = idx;
    if (added) {  // its fields are the later part's, as a single import would leave them
      Process p = lp;
      p.pid_label = maps.str(lp.pid_label);
      p.name = maps.str(lp.name);
      p.labels = maps.str(lp.labels);
      model.processes.push_back(p);
      continue;
    }
    Process& p = model.processes[idx];
    uint8_t set = i < later.process_set_.size() ? later.process_set_[i] : 0;
    if (set & kSetName) p.name = maps.str(lp.name);
    if (set & kSetLabels) p.labels = maps.str(lp.labels);
    if (set & kSetSort) p.sort_index = lp.sort_index, p.has_sort_index = true;
  }
  // The keys the later part found its tracks by.
  std::vector<IdKey> key(lm.tracks.size());
  std::vector<uint8_t> is_async(lm.tracks.size(), 0);
  for (const auto& [k, idx] : later.threads_) key[idx] = k;
  for (const auto& [k, idx] : later.async_tracks_) key[idx] = k, is_async[idx] = 1;
  maps.tracks.resize(lm.tracks.size());
  for (uint32_t i = 0; i < lm.tracks.size(); ++i) {
    const Track& lt = lm.tracks[i];
    uint32_t process = maps.processes[key[i].a];
    IdKey k =
        is_async[i] ? IdKey{process, maps.str(static_cast<StringId>(key[i].b))} : IdKey{process, maps.id(key[i].b)};
    auto& index = is_async[i] ? async_tracks_ : threads_;
    uint32_t idx = static_cast<uint32_t>(model.tracks.size());
    auto [it, added] = index.try_emplace(k, idx);
    maps.tracks[i] = it->second;
    if (added) {
      Track t = lt;
      t.process = process;
      t.tid_label = maps.str(lt.tid_label);
      t.name = maps.str(lt.name);
      model.tracks.push_back(t);
      open_b_.emplace_back();
      continue;
    }
    Track& t = model.tracks[it->second];
    uint8_t set = i < later.track_set_.size() ? later.track_set_[i] : 0;
    if (set & kSetName) t.name = maps.str(lt.name);
    if (set & kSetSort) t.sort_index = lt.sort_index, t.has_sort_index = true;
    if (lt.kind == TrackKind::kGpuStream) t.kind = TrackKind::kGpuStream;
    if (t.device < 0) t.device = lt.device;
    if (t.stream < 0) t.stream = lt.stream;
  }
  last_pid_index_ = last_thread_index_ = UINT32_MAX;
}

namespace {

template <class T, class F>
void remap_tail(std::vector<T>& column, size_t from, F f) {
  for (size_t i = from; i < column.size(); ++i) column[i] = f(column[i]);
}

}  // namespace

// The later part's slices, at the end of the table from open_base_, each of its orphan E rows
// paired with the B open here on its track (or dropped and counted, as on_end() does when none is).
void ImportState::absorb_slices(ImportState& later, PartMaps& maps) {
  SliceTable& s = model.slices;
  const size_t base = open_base_.slices, n = s.size() - base;
  std::vector<PairedEnd> pairs;
  maps.slices.base = static_cast<uint32_t>(base);
  uint32_t next = static_cast<uint32_t>(base);
  size_t o = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (o < later.orphan_ends_.size() && later.orphan_ends_[o].slice == i) {
      const OrphanEnd& e = later.orphan_ends_[o++];
      auto& stack = open_b_[maps.tracks[e.track]];
      if (stack.empty()) {
        stats.problem("unmatched_end", e.offset);
        maps.slices.dropped.push_back(i);
        continue;
      }
      pairs.push_back(PairedEnd{next, stack.back(), &e});
      stack.pop_back();
    }
    ++next;
  }
  const std::vector<uint32_t>& dropped = maps.slices.dropped;
  if (!dropped.empty()) {  // rows move down over the dropped ones (never up: in place is safe)
    s.for_each_import_column([&](auto& column) {
      size_t d = 0;
      for (size_t i = 0; i < n; ++i) {
        if (d < dropped.size() && dropped[d] == i) ++d;
        else column[base + i - d] = column[base + i];
      }
      column.resize(next);
    });
  }
  // The part's escaped values (compact_int_column.h), at their rows here; none is on a dropped row
  // (an orphan E's placeholder has no id and a zero duration).
  auto append_escaped = [&](CompactIntColumn& here, const CompactIntColumn& part) {
    for (size_t k = 0; k < part.escaped_rows.size(); ++k) {
      const uint32_t r = maps.slices[part.escaped_rows[k]];
      if (r != UINT32_MAX) here.escaped_rows.push_back(r), here.escaped_ids.push_back(part.escaped_ids[k]);
    }
  };
  append_escaped(s.dur, later.model.slices.dur);
  s.ids.append_part_sides(later.model.slices.ids, [&](uint32_t r) { return maps.slices[r]; });
  const SourceColumn& part_src = later.model.slices.src;
  for (size_t k = 0; k < part_src.escaped_rows.size(); ++k) {
    const uint32_t r = maps.slices[part_src.escaped_rows[k]];
    if (r == UINT32_MAX) continue;
    s.src.escaped_rows.push_back(r);
    s.src.escaped_offsets.push_back(part_src.escaped_offsets[k]),
        s.src.escaped_lengths.push_back(part_src.escaped_lengths[k]);
  }
  const auto row_of = [&](uint32_t i) { return maps.slices[i]; };
  const auto str = [&](StringId x) { return maps.str(x); };
  s.ts_ns.recode_part(later.model.slices.ts_ns, n, row_of);
  s.track.recode_part(later.model.slices.track, n, row_of, [&](uint32_t t) { return maps.tracks[t]; });
  s.name.recode_part(later.model.slices.name, n, row_of, str);
  s.cat.recode_part(later.model.slices.cat, n, row_of, str);
  // Each pair as on_end() makes it; its flow v2 marks go where on_end() would have added them.
  std::vector<FlowV2Mark> marks;
  marks.reserve(later.links_.flows_v2.size() + 2 * pairs.size());
  size_t p = 0;
  auto marks_of_pairs_before = [&](size_t k) {
    for (; p < pairs.size() && pairs[p].end->v2_marks <= k; ++p) {
      const OpenSlice& b = pairs[p].b;
      if (b.flow_in) marks.push_back(FlowV2Mark{b.bind_id, pairs[p].row, false});
      if (b.flow_out) marks.push_back(FlowV2Mark{b.bind_id, pairs[p].row, true});
    }
  };
  for (size_t k = 0; k < later.links_.flows_v2.size(); ++k) {
    marks_of_pairs_before(k);
    const FlowV2Mark& m = later.links_.flows_v2[k];
    marks.push_back(FlowV2Mark{maps.str(m.bind_id), maps.slices[m.slice], m.out});
  }
  marks_of_pairs_before(SIZE_MAX);
  links_.flows_v2.insert(links_.flows_v2.end(), marks.begin(), marks.end());
  set_paired_rows(pairs);
}

// Each placeholder row filled from its B, all rows of a column at once (set_rows: one pass over its
// side table, where a set per row would be quadratic in a hostile file's pairs).
void ImportState::set_paired_rows(const std::vector<PairedEnd>& pairs) {
  SliceTable& s = model.slices;
  const size_t n = pairs.size();
  std::vector<uint32_t> rows(n), names(n), cats(n), lengths(n);
  std::vector<int64_t> starts(n), durs(n), correlations(n), external_ids(n);
  std::vector<uint64_t> offsets(n);
  for (size_t i = 0; i < n; ++i) {
    const OpenSlice& b = pairs[i].b;
    int64_t dur = pairs[i].end->ts_ns - b.ts_ns;
    if (dur < 0) {
      stats.problem("negative_dur", pairs[i].end->offset);
      dur = 0;
    }
    rows[i] = pairs[i].row, starts[i] = b.ts_ns, durs[i] = dur;
    names[i] = b.name, cats[i] = b.cat;
    correlations[i] = b.correlation, external_ids[i] = b.external_id;
    offsets[i] = b.src_offset, lengths[i] = b.src_length;
    note_time(b.ts_ns);
    note_time(b.ts_ns + dur);
  }
  s.ts_ns.set_rows(rows, starts);
  s.name.set_rows(rows, names), s.cat.set_rows(rows, cats);
  s.dur.set_rows(rows, durs), s.ids.set_rows(rows, correlations, external_ids);
  s.src.set_rows(rows, offsets, lengths);
}

// GPU ops, instants and v1 flow points are at the end of their tables (renumbered there), memory
// samples too; the GPU ops' configs are interned here, their bytes and collective args and the
// counters' values are appended from the later part.
void ImportState::absorb_other_tables(ImportState& later, const PartMaps& maps) {
  const TraceModel& lm = later.model;
  auto str = [&](StringId x) { return maps.str(x); };
  GpuOpTable& g = model.gpu_ops;
  remap_tail(g.slice, open_base_.gpu_ops, [&](uint32_t x) { return maps.slices[x]; });
  const GpuOpTable& lg = lm.gpu_ops;
  std::vector<uint32_t> config_row(lg.configs.size());
  for (size_t k = 0; k < config_row.size(); ++k) config_row[k] = gpu_configs_.intern(g.configs, lg.configs.at(k));
  remap_tail(g.config, open_base_.gpu_ops, [&](uint32_t x) { return config_row[x]; });
  for (size_t k = 0; k < lg.bytes_op.size(); ++k)
    g.bytes_op.push_back(static_cast<uint32_t>(open_base_.gpu_ops + lg.bytes_op[k])),
        g.bytes_value.push_back(lg.bytes_value[k]);
  const CollectiveTable& lc = lm.gpu_ops.collectives;
  for (size_t k = 0; k < lc.size(); ++k) {
    CollectiveArgs a = lc.at(k);
    a.collective = str(a.collective), a.dtype = str(a.dtype), a.pg_name = str(a.pg_name);
    g.collectives.push_back(static_cast<uint32_t>(open_base_.gpu_ops + lc.op[k]), a);
  }
  InstantTable& in = model.instants;
  remap_tail(in.track, open_base_.instants, [&](uint32_t t) { return maps.tracks[t]; });
  remap_tail(in.name, open_base_.instants, str);
  remap_tail(in.cat, open_base_.instants, str);

  for (const CounterSeries& lc : lm.counters) {
    IdKey key{maps.processes[lc.process], maps.str(lc.name)};
    auto [it, added] = counter_series_.try_emplace(key, static_cast<uint32_t>(model.counters.size()));
    if (added) {
      CounterSeries cs;
      cs.process = static_cast<uint32_t>(key.a);
      cs.name = static_cast<StringId>(key.b);
      model.counters.push_back(std::move(cs));
    }
    CounterSeries& cs = model.counters[it->second];
    cs.ts_ns.insert(cs.ts_ns.end(), lc.ts_ns.begin(), lc.ts_ns.end());
    cs.value.insert(cs.value.end(), lc.value.begin(), lc.value.end());
  }

  // v1 flow points: (cat, name) keys and lanes are found again here, in the later part's order of
  // first use (absorbable() made sure the lanes fit).
  const FlowPoints& lf = later.links_.flows_v1;
  FlowPoints& f = links_.flows_v1;
  std::vector<uint32_t> key_map(lf.keys.size());
  for (size_t k = 0; k < lf.keys.size(); ++k)
    key_map[k] = f.key_of(str(static_cast<StringId>(lf.keys[k] >> 32)), str(static_cast<StringId>(lf.keys[k])));
  std::vector<uint32_t> lane_map(lf.lanes.size());
  for (size_t l = 0; l < lf.lanes.size(); ++l)
    lane_map[l] = f.lane_of(key_map[lf.lanes[l].key], maps.tracks[lf.lanes[l].track]);
  for (size_t i = open_base_.flow_points; i < f.points.size(); ++i) {
    FlowPoint& pt = f.points[i];
    pt.set_id(maps.id(pt.id()));
    pt.set_lane(lane_map[pt.lane()]);
    pt.ts_code = f.times.code(pt.offset(), lf.times.at(pt));  // recoded against this state's MiB bases
  }
}

// B events still open at the end of the later part are open after this state's own (pushed later,
// so they are closed first); so are async begins, by their key.
void ImportState::absorb_open_slices(ImportState& later, const PartMaps& maps) {
  auto renamed = [&](OpenSlice b) {
    b.name = maps.str(b.name);
    b.cat = maps.str(b.cat);
    b.bind_id = maps.str(b.bind_id);
    return b;
  };
  for (uint32_t t = 0; t < later.open_b_.size(); ++t)
    for (const OpenSlice& b : later.open_b_[t]) open_b_[maps.tracks[t]].push_back(renamed(b));
  for (const auto& [k, stack] : later.open_async_) {
    uint64_t process = maps.processes[k.b >> 32];
    IdKey key{maps.id(k.a), process << 32 | maps.str(static_cast<StringId>(k.b))};
    auto& here = open_async_[key];
    for (const OpenSlice& b : stack) here.push_back(renamed(b));
  }
}

void ImportState::absorb_stats(ImportState& later) {
  const ImportStats& ls = later.stats;
  stats.bytes += ls.bytes;
  stats.events += ls.events;
  for (const auto& [ph, n] : ls.phases) stats.phases[ph] += n;
  for (int c = 0; c < 256; ++c) phase_counts_[c] += later.phase_counts_[c];
  for (const auto& [name, p] : ls.problems) {
    ProblemCount& here = stats.problems[name];
    if (here.count == 0 || p.first_offset < here.first_offset)
      here.first_offset = p.first_offset, here.example = p.example;
    here.count += p.count;
  }
  stats.recovered(ls.recovered_regions, ls.recovered_bytes, ls.recovered_first_offset);
  stats.truncated = ls.truncated;
}

}  // namespace tw
