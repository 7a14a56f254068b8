// The columns of a timeline window, named and typed as core/timeline/window_columns.h sends them:
// the one list the trace worker copies out of the wasm heap and the window cache keeps
// (tests/wasm/window_columns.test.mjs holds the two lists together).
export const kWindowColumns = {
  itemOffset: Uint32Array,
  start: Float64Array,
  dur: Float64Array,
  depth: Uint16Array,
  name: Uint32Array,
  cls: Uint8Array,
  sliceId: Uint32Array,
  count: Uint32Array,
  flags: Uint8Array,
  pointOffset: Uint32Array,
  pointTs: Float64Array,
  pointMin: Float64Array,
  pointMax: Float64Array,
  pointLast: Float64Array,
  matchOffset: Uint32Array,
  matchStart: Float64Array,
  matchDur: Float64Array,
  matchDepth: Uint16Array,
  matchId: Uint32Array,
  // Thread instants per lane, and process (markGroup = group index) / global (kGlobalMark) instants.
  instantOffset: Uint32Array,
  instantTs: Float64Array,
  instantId: Uint32Array,
  instantName: Uint32Array,
  instantCount: Uint32Array,
  markGroup: Uint32Array,
  markTs: Float64Array,
  markId: Uint32Array,
  markName: Uint32Array,
  markCount: Uint32Array,
} as const;

export type WindowColumnName = keyof typeof kWindowColumns;
export type WindowColumns = { [K in WindowColumnName]: InstanceType<(typeof kWindowColumns)[K]> };

// Columns holding StringIds whose text the page needs.
export const kNameColumns = ['name', 'instantName', 'markName'] as const satisfies readonly WindowColumnName[];
