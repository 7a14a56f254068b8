// The flame graph's search: which names match the query (a case-insensitive substring; no regular
// expression, so no query can make the page hang on long untrusted names), and how much of the
// focused node's value the matching frames cover (each counted once: a match inside a match is part
// of the outer one).
import type { CallTree } from './call_tree';
import type { Children } from './tree_shape';

// One flag per name; null when the query is empty (nothing is dimmed).
export function matchNames(names: readonly string[], query: string): Uint8Array | null {
  const q = query.trim().toLowerCase();
  if (!q) return null;
  const out = new Uint8Array(names.length);
  for (let i = 0; i < names.length; i++) out[i] = names[i].toLowerCase().includes(q) ? 1 : 0;
  return out;
}

// The summed value of the outermost matching nodes at or under `focus`, and how many nodes match.
export function matchedValue(
  t: CallTree,
  c: Children,
  value: Float64Array,
  focus: number,
  match: Uint8Array
): { value: number; nodes: number } {
  let sum = 0,
    nodes = 0;
  const stack: Array<[number, boolean]> = [[focus, false]];
  while (stack.length) {
    const [n, inside] = stack.pop()!;
    const hit = match[t.name[n]] === 1;
    if (hit) nodes++;
    if (hit && !inside) sum += value[n];
    for (let k = c.start[n]; k < c.start[n + 1]; k++) stack.push([c.list[k], inside || hit]);
  }
  return { value: sum, nodes };
}
