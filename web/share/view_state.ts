// The view state carried in the URL fragment (never sent to a server): the open tab, the selected
// file (rank), the timeline's own state (visible range, selection, search, colour mode), which
// belongs to the timeline component and travels as bounded JSON, the filter and sort order of the
// dashboard's tables, and the content hashes of the traces the view was made on. Everything is
// validated on the way in; what fails is dropped and reported, so a hand-edited link restores what
// it still can.
//
// Format (URLSearchParams inside the fragment):  #tab=timeline&file=1&tl=<JSON>&tb=...&h=...
//   t0=<ns>&t1=<ns>   shorter for people writing links by hand (absolute trace ns, decimal; they exceed
//                     2^53, so they stay strings); they become tl = {"t0_ns", "t1_ns"} when tl is absent
//   tb=<table id>*<sort>*<filter>   one per table that is filtered or sorted; <sort> is a column key,
//                     '-' + key for descending, or empty; '*' needs no escaping in a fragment, so
//                     `tb=kernels*-total_ns*nccl` stays readable
//   h=<hash>,<hash>   per opened file, its content hash (trace_hash.ts), or empty when unknown
//   f=<bytes>*<name>  per opened file, its size and name (trace_files.ts): which file to open
//   cmp=<b|c per file> Compare mode: each file's side, baseline or candidate (web/app/compare/compare_sides.ts)
//   step=<n>          Compare mode: the step both timelines are aligned at
// Unknown keys are ignored (newer links stay readable).
import type { TableState } from '../app/dashboard/table';
import { readTraceFiles, writeTraceFiles, type TraceFile } from './trace_files';
import { decodeSides, encodeSides, type Side } from '../app/compare/compare_sides';
import { kTabs, type Tab } from '../app/app_api';

export interface ViewState {
  tab?: Tab;
  file?: number;
  tl?: unknown; // the timeline view's state, opaque here (plain JSON, bounded)
  tables?: TableState[]; // dashboard tables' filter and sort order
  hashes?: (string | null)[]; // content hash of each opened trace, null when unknown
  files?: (TraceFile | null)[]; // name and size of each opened trace, null when unknown
  compare?: Side[]; // Compare mode: each file's side
  step?: number; // Compare mode: the step the timelines are aligned at
}

const kMaxTlChars = 2000;
const kMaxTlDepth = 4;
const kMaxTlString = 300;
const kNsRe = /^\d{1,20}$/;
const kMaxTables = 24;
const kMaxTableId = 160;
const kMaxFilter = 200;
const kMaxHashes = 64;
const kHashRe = /^[0-9a-f]{32}$/;
const hasControl = (s: string) => /[\u0000-\u001f\u007f]/.test(s);
// Ids and column keys come from summary keys (some from the trace): anything printable without '*'.
const okName = (s: string, max: number) =>
  s.length > 0 && s.length <= max && !s.includes('*') && !s.startsWith('-') && !hasControl(s);

function readTable(v: string): TableState | null {
  const a = v.indexOf('*');
  const b = a < 0 ? -1 : v.indexOf('*', a + 1);
  if (b < 0) return null;
  const id = v.slice(0, a);
  const sortRaw = v.slice(a + 1, b);
  const filter = v.slice(b + 1);
  const desc = sortRaw.startsWith('-');
  const sort = desc ? sortRaw.slice(1) : sortRaw;
  if (
    !okName(id, kMaxTableId) ||
    (sort && !okName(sort, kMaxTableId)) ||
    (desc && !sort) ||
    filter.length > kMaxFilter ||
    hasControl(filter)
  )
    return null;
  if (!sort && !filter) return null;
  const st: TableState = { id };
  if (filter) st.filter = filter;
  if (sort) {
    st.sort = sort;
    st.desc = desc;
  }
  return st;
}

function writeTable(t: TableState): string | null {
  const filter = typeof t.filter === 'string' ? t.filter : '';
  const sort = typeof t.sort === 'string' ? t.sort : '';
  if (
    !okName(t.id, kMaxTableId) ||
    (sort && !okName(sort, kMaxTableId)) ||
    filter.length > kMaxFilter ||
    hasControl(filter)
  )
    return null;
  if (!sort && !filter) return null;
  return `${t.id}*${sort && t.desc ? '-' : ''}${sort}*${filter}`;
}

// Plain JSON of bounded depth and string length; anything else fails.
function boundedJson(v: unknown, depth: number): boolean {
  if (v === null || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'string') return v.length <= kMaxTlString && !/[\u0000-\u001f\u007f]/.test(v);
  if (depth >= kMaxTlDepth || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.length <= 64 && v.every((x) => boundedJson(x, depth + 1));
  const entries = Object.entries(v as Record<string, unknown>);
  return entries.length <= 32 && entries.every(([k, x]) => /^[A-Za-z0-9_]{1,40}$/.test(k) && boundedJson(x, depth + 1));
}

export function isEmptyViewState(v: ViewState): boolean {
  return (
    v.tab === undefined &&
    v.file === undefined &&
    v.tl === undefined &&
    !v.tables?.length &&
    !v.hashes?.length &&
    !v.files?.length &&
    !v.compare?.length &&
    v.step === undefined
  );
}

export function readViewState(params: URLSearchParams): { state: ViewState; problems: string[] } {
  const state: ViewState = {};
  const problems: string[] = [];
  const tab = params.get('tab');
  if (tab !== null) {
    if ((kTabs as readonly string[]).includes(tab)) state.tab = tab as Tab;
    else problems.push('tab');
  }
  const file = params.get('file');
  if (file !== null) {
    if (/^\d{1,4}$/.test(file)) state.file = Number(file);
    else problems.push('file');
  }
  const tl = params.get('tl');
  if (tl !== null) {
    let v: unknown;
    try {
      v = tl.length <= kMaxTlChars ? JSON.parse(tl) : undefined;
    } catch {
      v = undefined;
    }
    if (v !== undefined && v !== null && typeof v === 'object' && !Array.isArray(v) && boundedJson(v, 0)) state.tl = v;
    else problems.push('tl');
  }
  const t0 = params.get('t0');
  const t1 = params.get('t1');
  if (t0 !== null || t1 !== null) {
    if (
      t0 !== null &&
      t1 !== null &&
      kNsRe.test(t0) &&
      kNsRe.test(t1) &&
      BigInt(t0) < BigInt(t1) &&
      BigInt(t1) < 2n ** 63n
    ) {
      state.tl ??= { t0_ns: t0, t1_ns: t1 };
    } else {
      problems.push('t0/t1');
    }
  }
  const tb = params.getAll('tb');
  if (tb.length) {
    const tables: TableState[] = [];
    let bad = tb.length > kMaxTables;
    for (const v of tb.slice(0, kMaxTables)) {
      const t = readTable(v);
      if (t && !tables.some((u) => u.id === t.id)) tables.push(t);
      else bad = true;
    }
    if (tables.length) state.tables = tables;
    if (bad) problems.push('tb');
  }
  const hs = params.get('h');
  if (hs !== null) {
    const list = hs.split(',');
    if (list.length <= kMaxHashes && list.every((x) => x === '' || kHashRe.test(x)) && list.some((x) => x !== ''))
      state.hashes = list.map((x) => x || null);
    else problems.push('h');
  }
  const fs = params.getAll('f');
  if (fs.length) {
    const files = readTraceFiles(fs, kMaxHashes);
    if (files) state.files = files;
    else problems.push('f');
  }
  const cmp = params.get('cmp');
  if (cmp !== null) {
    const sides = decodeSides(cmp);
    if (sides) state.compare = sides;
    else problems.push('cmp');
  }
  const step = params.get('step');
  if (step !== null) {
    if (/^\d{1,9}$/.test(step)) state.step = Number(step);
    else problems.push('step');
  }
  return { state, problems };
}

// Appends the state to params. Invalid parts are skipped, so what is written reads back identically.
export function writeViewState(state: ViewState, params: URLSearchParams = new URLSearchParams()): URLSearchParams {
  if (state.tab !== undefined && kTabs.includes(state.tab)) params.set('tab', state.tab);
  if (Number.isInteger(state.file) && state.file! >= 0 && state.file! < 10000 && state.file !== 0)
    params.set('file', String(state.file));
  // The timeline's state goes through JSON first: it leaves out what is unset (undefined keys).
  const tlJson = state.tl !== null && typeof state.tl === 'object' ? JSON.stringify(state.tl) : undefined;
  if (tlJson !== undefined && tlJson.length <= kMaxTlChars && boundedJson(JSON.parse(tlJson), 0))
    params.set('tl', tlJson);
  const seen = new Set<string>();
  for (const t of Array.isArray(state.tables) ? state.tables : []) {
    const v = seen.size < kMaxTables && !seen.has(t?.id) ? writeTable(t) : null;
    if (v === null) continue;
    seen.add(t.id);
    params.append('tb', v);
  }
  const hashes = Array.isArray(state.hashes)
    ? state.hashes.slice(0, kMaxHashes).map((x) => (typeof x === 'string' && kHashRe.test(x) ? x : ''))
    : [];
  if (hashes.some((x) => x)) params.set('h', hashes.join(','));
  writeTraceFiles(state.files, params, kMaxHashes);
  const cmp = state.compare ? encodeSides(state.compare) : null;
  if (cmp) params.set('cmp', cmp);
  if (cmp && Number.isInteger(state.step) && state.step! >= 0 && state.step! < 1e9)
    params.set('step', String(state.step));
  return params;
}
