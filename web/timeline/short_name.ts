// The label drawn on a slice: a C++ kernel's demangled signature shortened to its qualified name,
// as Nsight Systems shows it ("void dpsk::ep::internode::combine<false, 8>(int4*, float*)" ->
// "dpsk::ep::internode::combine"; "void cutlass::device_kernel<flash::FlashAttnBwd<...>>(...)" ->
// "cutlass::device_kernel<flash::FlashAttnBwd>": a template that only wraps the real kernel keeps the
// name of its first type argument); "0x" and 6+ hex digits (an address) read "0x…". Names without a
// signature ("aten::mm", "ProfilerStep#3") are unchanged. The tooltip and the details panel keep the
// full name. The run comparison matches names by the core's copy of this (core/base/short_name.cc):
// both are checked against tests/short_names.json (tests/web/short_name.test.mjs, the doctest).

import { BoundedCache } from './bounded_cache';

// Without template arguments: "a::b<c<d>, e>::f" -> "a::b::f" (unbalanced text is left as is).
function dropTemplateArgs(s: string): string | null {
  let out = '';
  let depth = 0;
  for (const ch of s) {
    if (ch === '<') depth++;
    else if (ch === '>') {
      if (--depth < 0) return null;
    } else if (depth === 0) out += ch;
  }
  return depth === 0 ? out : null;
}

// The first template argument of the outermost template in `s` that names a type (numbers and
// booleans skipped), without its own arguments.
function firstTypeArg(s: string): string | null {
  const open = s.indexOf('<');
  if (open < 0) return null;
  let depth = 0;
  let from = open + 1;
  for (let i = open; i < s.length; i++) {
    const ch = s[i];
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    if ((ch === ',' && depth === 1) || depth === 0) {
      const arg = dropTemplateArgs(s.slice(from, i))?.trim();
      if (arg && /^[A-Za-z_][\w:]*$/.test(arg) && arg !== 'true' && arg !== 'false') return arg;
      if (depth === 0) return null;
      from = i + 1;
    }
  }
  return null;
}

// Wrappers whose first type argument is the kernel (or the functor it runs).
const kWrappers = new Set([
  'cutlass::device_kernel',
  'cutlass::Kernel',
  'cutlass::Kernel2',
  'at::native::vectorized_elementwise_kernel',
  'at::native::elementwise_kernel',
  'at::native::unrolled_elementwise_kernel',
]);

// Addresses differ between runs and processes: "0x7f3a12bc9d00" -> "0x…".
const kAddress = /(?<![\w])0[xX][0-9a-fA-F]{6,}(?![\w])/g;

// Whether "(" opens a C++ parameter list (cut away) rather than a part of the name: annotations such
// as DeepSeek's "attn(F)" and "attn(B)" must keep their suffix. A signature starts with "void ", has
// a scope or template before the "(", or its parentheses are empty or hold types ("int*, float").
function isParameterList(name: string, head: string, rest: string): boolean {
  if (name.startsWith('void ') || head.includes('::') || head.includes('<')) return true;
  const close = rest.indexOf(')');
  const inside = close < 0 ? rest : rest.slice(0, close);
  return inside.trim() === '' || /[*&,: ]/.test(inside);
}

export function shortKernelName(raw: string): string {
  const name = raw.indexOf('0') < 0 ? raw : raw.replace(kAddress, '0x…');
  if (name.indexOf('(') < 0 && name.indexOf('<') < 0) return name;
  let s = (name.startsWith('void ') ? name.slice(5) : name).replace(/\(anonymous namespace\)/g, '{anonymous}');
  // The parameter list starts at the first '(' outside template arguments.
  let depth = 0;
  let cut = s.length;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (ch === '(' && depth === 0) {
      cut = i;
      break;
    }
  }
  if (cut < s.length && !isParameterList(name, s.slice(0, cut), s.slice(cut + 1))) cut = s.length;
  s = s.slice(0, cut).trim();
  const base = dropTemplateArgs(s)?.trim();
  if (!base) return name;
  if (kWrappers.has(base)) {
    const inner = firstTypeArg(s);
    if (inner) return `${base}<${inner}>`;
  }
  return /^[\w:~{}]+$/.test(base) ? base : name;
}

const labels = new BoundedCache<string>(20000);
// shortKernelName, remembered (the canvas asks for the same few names every frame).
export function sliceLabel(name: string): string {
  return labels.get(name) ?? labels.set(name, shortKernelName(name));
}
