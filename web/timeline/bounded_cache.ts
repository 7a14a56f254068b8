// Values computed per name and asked for again on every frame (a name's colour, its short label, a
// lane name cut to fit), remembered until there are `limit` of them, then forgotten all at once:
// a trace's names are far fewer than that, so the cache only ever empties on hostile input. Used as
// `cache.get(k) ?? cache.set(k, make(k))`, which allocates nothing on a hit (the draw loop's case).
export class BoundedCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    return this.map.get(key);
  }

  // Remembers v for key; returns v.
  set(key: string, v: V): V {
    if (this.map.size >= this.limit) this.map.clear();
    this.map.set(key, v);
    return v;
  }
}
