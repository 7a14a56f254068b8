// What a parent -> page message of the postMessage API asks (web/embed/message_api.ts), read from
// whatever a sender posted: 'PING' (Perfetto), a trace to open ({type: 'tracewise.open', name,
// buffer} or Perfetto's {perfetto: {buffer, title, fileName?, url?}}, named by its title as Perfetto
// names it, else by its fileName), or nothing we know, ignored. The sender is untrusted and the
// value arbitrary: every property is read once, through a guard (a getter may throw or answer
// differently each time; a proxy may lie about its prototype), and buffers are recognised by their
// internal slots, not by instanceof. Pure and total: it never throws; tests/web/parse_message.test.mjs
// and bench/fuzz_messages.mjs hold it to that.

export const kMaxName = 256;
const kDefaultName = 'trace.json';

// A view whose buffer is a genuine ArrayBuffer (not a SharedArrayBuffer).
export type TraceView = ArrayBufferView & { readonly buffer: ArrayBuffer };

export type HostMessage =
  | { kind: 'ping' }
  // `buffer`: null when the message carries no ArrayBuffer (or view of one); answered with an error.
  | { kind: 'open'; protocol: 'tracewise' | 'perfetto'; name: string; buffer: ArrayBuffer | TraceView | null }
  | { kind: 'ignored' };

const kIgnored: HostMessage = { kind: 'ignored' };

const getter = (proto: object, key: string) => Object.getOwnPropertyDescriptor(proto, key)!.get!;
const arrayBufferLength = getter(ArrayBuffer.prototype, 'byteLength');
const typedArrayBuffer = getter(Object.getPrototypeOf(Uint8Array.prototype) as object, 'buffer');
const dataViewBuffer = getter(DataView.prototype, 'buffer');

const objectTag = Object.prototype.toString;

export function isArrayBuffer(v: unknown): v is ArrayBuffer {
  // The tag first, which anything can fake but which spares most values an exception (costly).
  if (objectTag.call(v) !== '[object ArrayBuffer]') return false;
  try {
    arrayBufferLength.call(v); // throws unless v has an ArrayBuffer's slots (a SharedArrayBuffer has not)
    return true;
  } catch {
    return false;
  }
}

// v's own buffer, read through the built-in getters (an own `buffer` property cannot stand in).
function viewBuffer(v: ArrayBufferView): unknown {
  try {
    return typedArrayBuffer.call(v);
  } catch {
    return dataViewBuffer.call(v);
  }
}

function traceBytes(v: unknown): ArrayBuffer | TraceView | null {
  if (isArrayBuffer(v)) return v;
  if (ArrayBuffer.isView(v) && isArrayBuffer(viewBuffer(v))) return v as TraceView;
  return null;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

// The name shown for the trace (the dashboard's heading, the document title): text on one line
// (control characters, e.g. a title's line breaks, become spaces); null when there is none.
function shownName(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const name = v
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, kMaxName);
  return name || null;
}
const nameOf = (v: unknown): string => shownName(v) ?? kDefaultName;

function parse(data: unknown): HostMessage {
  if (data === 'PING') return { kind: 'ping' };
  if (!isRecord(data)) return kIgnored;
  const perfetto = data.perfetto;
  if (isRecord(perfetto)) {
    const buffer = traceBytes(perfetto.buffer);
    // Perfetto shows `title` as the trace's name; `fileName` is only what it saves the trace as.
    const title = perfetto.title;
    const fileName = perfetto.fileName;
    return { kind: 'open', protocol: 'perfetto', name: shownName(title) ?? nameOf(fileName), buffer };
  }
  if (data.type !== 'tracewise.open') return kIgnored;
  const buffer = traceBytes(data.buffer);
  return { kind: 'open', protocol: 'tracewise', name: nameOf(data.name), buffer };
}

export function parseMessage(data: unknown): HostMessage {
  try {
    return parse(data);
  } catch {
    return kIgnored; // a getter or a proxy trap threw: not a message anyone sends in good faith
  }
}
