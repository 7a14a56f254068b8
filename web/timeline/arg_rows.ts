// One event arg as rows of the details panel. The core sends each arg as [key, text, json] where text
// is the string itself for a string value (json false) and compact JSON otherwise (event_details.cc),
// so nested Kineto args arrive as one dense line such as {"a":{"b":1}} or [[2048,4096],[4096]].
// Here an object becomes one row per field, named `key.field` (nested objects likewise, up to
// kMaxDepth levels), and arrays stay on one line with spaces: [[2048, 4096], [4096]]. Number text
// is kept as written (a JS number would round 64-bit ids), so this parses JSON itself rather than
// with JSON.parse. Text that is not valid JSON (e.g. cut by the core at 16 KB) is shown as it came.
// Pure: the panel puts the rows into textContent and title attributes, never into HTML.

export interface ArgRow {
  key: string;
  value: string;
  title?: string;
}

export const kMaxValueChars = 2000; // longer values are cut, the whole text goes in the title
const kMaxDepth = 4; // object levels spread over rows; deeper ones stay one JSON line
const kMaxRows = 100; // an arg that would take more rows stays one JSON line

// A parsed value: strings decoded; numbers, true, false and null as their source text.
type Value = { str: string } | { lit: string } | { arr: Value[] } | { obj: Array<[string, Value]> };

// json: whether the core sent the value as JSON (false: a string arg, shown as it is even when it
// looks like JSON; older replies without the flag are taken as JSON when they parse).
export function argRows(key: string, text: string, json = true): ArgRow[] {
  const first = text.charAt(0);
  const v = json && (first === '[' || first === '{') ? parse(text) : null;
  if (!v) return [capped(key, text)]; // a string, a number, true / false / null, or invalid JSON
  const rows: ArgRow[] = [];
  spread(key, v, 0, rows);
  return rows.length > kMaxRows ? [capped(key, inline(v))] : rows;
}

function spread(key: string, v: Value, depth: number, out: ArgRow[]): void {
  if ('obj' in v && v.obj.length > 0 && depth < kMaxDepth) {
    for (const [k, x] of v.obj) spread(`${key}.${k}`, x, depth + 1, out);
  } else {
    out.push(capped(key, 'str' in v ? v.str : inline(v)));
  }
}

// One line of JSON with a space after each comma and colon; strings keep their quotes (an empty
// string, or one holding a comma, stays readable inside an array).
function inline(v: Value): string {
  if ('str' in v) return JSON.stringify(v.str);
  if ('lit' in v) return v.lit;
  if ('arr' in v) return `[${v.arr.map(inline).join(', ')}]`;
  return `{${v.obj.map(([k, x]) => `${JSON.stringify(k)}: ${inline(x)}`).join(', ')}}`;
}

function capped(key: string, value: string): ArgRow {
  if (value.length <= kMaxValueChars) return { key, value };
  let end = kMaxValueChars;
  const c = value.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // do not split a surrogate pair
  return { key, value: `${value.slice(0, end)}…`, title: value };
}

// --- a small JSON parser that keeps number text --------------------------------------------------

const kNumber = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const kString = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const kSpace = /[ \t\n\r]*/y;

// The value of `text`, or null when it is not exactly one JSON value.
function parse(text: string): Value | null {
  let pos = 0;
  const skip = () => {
    kSpace.lastIndex = pos;
    kSpace.exec(text);
    pos = kSpace.lastIndex;
  };
  const match = (re: RegExp): string | null => {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (!m) return null;
    pos = re.lastIndex;
    return m[0];
  };
  const value = (depth: number): Value | null => {
    if (depth > 64) return null; // the core refuses deeper events too
    skip();
    const c = text.charAt(pos);
    if (c === '"') {
      const s = match(kString);
      return s === null ? null : { str: JSON.parse(s) as string };
    }
    if (c === '[' || c === '{') {
      const close = c === '[' ? ']' : '}';
      const arr: Value[] = [],
        obj: Array<[string, Value]> = [];
      pos++;
      skip();
      if (text.charAt(pos) === close) {
        pos++;
        return c === '[' ? { arr } : { obj };
      }
      for (;;) {
        if (c === '{') {
          skip();
          const k = match(kString);
          if (k === null) return null;
          skip();
          if (text.charAt(pos) !== ':') return null;
          pos++;
          const x = value(depth + 1);
          if (!x) return null;
          obj.push([JSON.parse(k) as string, x]);
        } else {
          const x = value(depth + 1);
          if (!x) return null;
          arr.push(x);
        }
        skip();
        const sep = text.charAt(pos++);
        if (sep === close) return c === '[' ? { arr } : { obj };
        if (sep !== ',') return null;
      }
    }
    for (const word of ['true', 'false', 'null']) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return { lit: word };
      }
    }
    const n = match(kNumber);
    return n === null ? null : { lit: n };
  };
  const v = value(0);
  skip();
  return v && pos === text.length ? v : null;
}
