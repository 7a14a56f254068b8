// The columns of a timeline window (WindowResult) under the names the page reads them by: the one
// list that the bindings send and the page's window cache keeps (web/timeline/window_columns.ts
// lists the same names; tests/wasm/window_columns.test.mjs holds the two together).
#pragma once
#include "core/timeline/lod_query.h"

namespace tw {

constexpr int kWindowColumnCount = 29;

// Calls f(name, column) for each column of `w`, in the page's order.
template <class F>
void for_each_window_column(const WindowResult& w, F&& f) {
  f("itemOffset", w.item_offset);
  f("start", w.start_ns);
  f("dur", w.dur_ns);
  f("depth", w.depth);
  f("name", w.name);
  f("cls", w.cls);
  f("sliceId", w.id);
  f("count", w.count);
  f("flags", w.flags);
  f("pointOffset", w.point_offset);
  f("pointTs", w.point_ns);
  f("pointMin", w.point_min);
  f("pointMax", w.point_max);
  f("pointLast", w.point_last);
  f("matchOffset", w.match_offset);
  f("matchStart", w.match_start_ns);
  f("matchDur", w.match_dur_ns);
  f("matchDepth", w.match_depth);
  f("matchId", w.match_id);
  f("instantOffset", w.instant_offset);
  f("instantTs", w.instant_ns);
  f("instantId", w.instant_id);
  f("instantName", w.instant_name);
  f("instantCount", w.instant_count);
  f("markGroup", w.mark_group);
  f("markTs", w.mark_ns);
  f("markId", w.mark_id);
  f("markName", w.mark_name);
  f("markCount", w.mark_count);
}

}  // namespace tw
