// The view state carried in the URL fragment (never sent to a server): the open tab, the selected
// file (rank), and the timeline's own state (visible range, selection, search, colour mode), which
// belongs to the timeline component and travels as bounded JSON. Everything is validated on the way
// in; what fails is dropped and reported, so a hand-edited link restores what it still can.
//
// Format (URLSearchParams inside the fragment):  #tab=timeline&file=1&tl=<JSON>   and, shorter for
// people writing links by hand, t0=<ns>&t1=<ns> (absolute trace ns, decimal; they exceed 2^53, so
// they stay strings), which become tl = {"t0_ns": "...", "t1_ns": "..."} when tl is absent.
// Unknown keys are ignored (newer links stay readable).

export interface ViewState {
  tab?: 'overview' | 'timeline';
  file?: number;
  tl?: unknown;   // the timeline view's state, opaque here (plain JSON, bounded)
}

const kMaxTlChars = 2000;
const kMaxTlDepth = 4;
const kMaxTlString = 300;
const kNsRe = /^\d{1,20}$/;

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
  return v.tab === undefined && v.file === undefined && v.tl === undefined;
}

export function readViewState(params: URLSearchParams): { state: ViewState; problems: string[] } {
  const state: ViewState = {};
  const problems: string[] = [];
  const tab = params.get('tab');
  if (tab !== null) { if (tab === 'overview' || tab === 'timeline') state.tab = tab; else problems.push('tab'); }
  const file = params.get('file');
  if (file !== null) { if (/^\d{1,4}$/.test(file)) state.file = Number(file); else problems.push('file'); }
  const tl = params.get('tl');
  if (tl !== null) {
    let v: unknown;
    try { v = tl.length <= kMaxTlChars ? JSON.parse(tl) : undefined; } catch { v = undefined; }
    if (v !== undefined && v !== null && typeof v === 'object' && !Array.isArray(v) && boundedJson(v, 0)) state.tl = v;
    else problems.push('tl');
  }
  const t0 = params.get('t0');
  const t1 = params.get('t1');
  if (t0 !== null || t1 !== null) {
    if (t0 !== null && t1 !== null && kNsRe.test(t0) && kNsRe.test(t1) && BigInt(t0) < BigInt(t1) && BigInt(t1) < 2n ** 63n) {
      state.tl ??= { t0_ns: t0, t1_ns: t1 };
    } else {
      problems.push('t0/t1');
    }
  }
  return { state, problems };
}

// Appends the state to params. Invalid parts are skipped, so what is written reads back identically.
export function writeViewState(state: ViewState, params: URLSearchParams = new URLSearchParams()): URLSearchParams {
  if (state.tab === 'overview' || state.tab === 'timeline') params.set('tab', state.tab);
  if (Number.isInteger(state.file) && state.file! >= 0 && state.file! < 10000 && state.file !== 0) params.set('file', String(state.file));
  if (state.tl !== undefined && state.tl !== null && typeof state.tl === 'object' && boundedJson(state.tl, 0)) {
    const json = JSON.stringify(state.tl);
    if (json.length <= kMaxTlChars) params.set('tl', json);
  }
  return params;
}
