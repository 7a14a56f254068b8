// The wasm core as the page's workers see it: the functions wasm/bindings.cc lists, typed once.
// Emscripten 3.1.6 cannot generate these types; tests/wasm/bindings_surface.test.mjs compares the
// method lists below with what the built module has. Numbers cross as doubles: addresses into
// HEAPU8, sizes, ids and times relative to the trace origin (float64 ns). Replies in JSON come as
// text, parsed by the caller. Views (Uint8Array and the window's columns) point into the wasm heap
// and must be copied before the next call into wasm.
import type { TrackColumns } from '../timeline/track_columns';
import type { WindowColumns } from '../timeline/window_columns';

export interface CoreSession {
  // input
  stagingBuffer(size: number): number;
  pushStaged(size: number): void;
  setSizeHint(bytes: number): void;
  setFileBytes(bytes: number): void;
  finish(): void;
  failed(): boolean;
  error(): string;
  eventsSoFar(): number;
  modelBytes(): number;
  // a file in parts
  endInput(): void;
  beginLaterPart(offset: number, objectForm: boolean): void;
  partHeader(): Uint8Array;
  partColumns(): Uint8Array[];
  partBuffer(size: number): number;
  loadPart(size: number): number[] | null;
  partColumnAddress(i: number): number;
  absorbPart(): boolean;
  dropPart(): void;
  // the summary
  summaryJson(htaCompat: boolean): string;
  rankJson(htaCompat: boolean): string;
  // The call tree for the flame graph (core/calltree/call_tree_json.h); fromNs < 0: the whole trace.
  callTreeJson(fromNs: number, toNs: number, bottomUp: boolean): string;
  // the timeline
  timelineTracks(): string;
  timelineTrackHead(): string;
  timelineTrackColumns(): Partial<TrackColumns>;
  timelineTrackNames(groups: boolean, first: number, count: number, maxBytes: number): string;
  timelineWindow(lanes: number[], t0: number, t1: number, px: number, search: boolean): Partial<WindowColumns>;
  stringAt(id: number): string;
  stringPrefix(id: number, maxBytes: number): string;
  timelineEvent(id: number): string;
  timelineInstant(id: number): string;
  argsBuffer(size: number): number;
  eventArgs(size: number): string;
  timelineSearchQuery(text: string, regex: boolean, caseSensitive: boolean): string;
  timelineSearchPage(offset: number, limit: number): string;
  timelineSearchClear(): void;
  timelineSearchStep(fromNs: number, fromId: number, dir: number): string;
  timelineAggregate(lanes: number[], t0: number, t1: number): string;
  // The lane of each model track (0xffffffff: none), a view into the heap; null before a trace.
  timelineLanesOfTracks(): Uint32Array | null;
  // Embind: frees the C++ object.
  delete(): void;
}

// A gzip file inflated in the core as its bytes arrive (core/inflate/gzip_inflater.h): copy
// compressed bytes to HEAPU8 at inputSpace() (at most inputRoom() of them), commitInput(n), then
// inflate() until the view it returns is empty; endInput() after the last byte, then inflate() to
// the end. finished(): the end, or damage that stops it. damageJson(): GzipDamage[] as JSON.
export interface CoreInflater {
  inputSpace(): number;
  inputRoom(): number;
  commitInput(size: number): void;
  endInput(): void;
  inflate(): Uint8Array;
  finished(): boolean;
  inputUsed(): number; // compressed bytes used so far
  damageJson(): string;
  // Embind: frees the C++ object.
  delete(): void;
}

export interface CoreModule {
  HEAPU8: Uint8Array;
  _malloc(size: number): number;
  _free(address: number): void;
  // Set by the core before it aborts on a failed allocation (wasm/bindings.cc).
  outOfMemory?: boolean;
  Session: new (name: string) => CoreSession;
  Inflater: new () => CoreInflater;
  likelyEventStart(address: number, size: number, windowOffset: number): number;
  startsAsObject(address: number, size: number): boolean;
  // The job over several files' summaries, given as one JSON array: its JSON (core/summary/job_summary.h).
  jobSummary(filesJson: string, ranksJson: string): string;
  // The comparison of two summary documents (docs/diff-schema.md, core/diff): the tracewise.diff/1
  // JSON; `optionsJson` '' for the defaults.
  diffSummaries(baseSummaryDoc: string, candSummaryDoc: string, optionsJson: string): string;
  // A diff document as the CLI's `--format markdown` writes it.
  diffMarkdown(diffJson: string): string;
  // A gzip file's inflated size for the size hint, from its trailer's ISIZE and its size; once
  // `inflated` bytes came out of the first `used` compressed ones, refined by that ratio (0, 0: the
  // first guess). 0: no guess (core/inflate/gzip_size.h).
  gzipSizeGuess(isize: number, compressed: number, inflated: number, used: number): number;
  // When the page refines that guess: after this many inflated bytes.
  gzipRefineHintAt: number;
}

type Methods<T> = Exclude<keyof T, 'delete'>;
// Every method, once: a name missing here, or here but not in the interface, fails to compile.
function methods<T>() {
  return <const L extends readonly Methods<T>[]>(list: L & ([Methods<T>] extends [L[number]] ? unknown : never)) =>
    list;
}
export const kSessionMethods = methods<CoreSession>()([
  'stagingBuffer',
  'pushStaged',
  'setSizeHint',
  'setFileBytes',
  'finish',
  'failed',
  'error',
  'eventsSoFar',
  'modelBytes',
  'endInput',
  'beginLaterPart',
  'partHeader',
  'partColumns',
  'partBuffer',
  'loadPart',
  'partColumnAddress',
  'absorbPart',
  'dropPart',
  'summaryJson',
  'rankJson',
  'callTreeJson',
  'timelineTracks',
  'timelineTrackHead',
  'timelineTrackColumns',
  'timelineTrackNames',
  'timelineWindow',
  'stringAt',
  'stringPrefix',
  'timelineEvent',
  'timelineInstant',
  'argsBuffer',
  'eventArgs',
  'timelineSearchQuery',
  'timelineSearchPage',
  'timelineSearchClear',
  'timelineSearchStep',
  'timelineAggregate',
  'timelineLanesOfTracks',
] as const);
export const kInflaterMethods = methods<CoreInflater>()([
  'inputSpace',
  'inputRoom',
  'commitInput',
  'endInput',
  'inflate',
  'finished',
  'inputUsed',
  'damageJson',
] as const);
export const kModuleFunctions = [
  'likelyEventStart',
  'startsAsObject',
  'jobSummary',
  'diffSummaries',
  'diffMarkdown',
  'gzipSizeGuess',
] as const satisfies readonly (keyof CoreModule)[];
