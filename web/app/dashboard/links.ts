// How the dashboard points into the timeline: every time range and every name is a link.
export interface Links {
  originNs: number; // the trace's first timestamp (absolute ns)
  range(t0_ns: number, t1_ns: number, name?: string): void; // zoom the timeline there (and highlight name)
  name(name: string): void; // search/highlight this name in the timeline
}

export function rangeLink(links: Links, t0: number, t1: number, text: string, name?: string): HTMLElement {
  const a = document.createElement('a');
  a.href = '#timeline';
  a.className = 'tl-link';
  a.textContent = text;
  a.title = 'Show in the timeline';
  a.addEventListener('click', (e) => {
    e.preventDefault();
    links.range(t0, t1, name);
  });
  return a;
}

export function nameLink(links: Links, name: string): HTMLElement {
  const a = document.createElement('a');
  a.href = '#timeline';
  a.className = 'tl-link name';
  a.textContent = name;
  a.title = name;
  a.addEventListener('click', (e) => {
    e.preventDefault();
    links.name(name);
  });
  return a;
}
