// Which process groups are collapsed. A trace with many processes opens with all of them collapsed
// (one header row each: a million processes are a million rows, not tens of millions of pixels of
// lanes); otherwise all are open. The user's clicks are kept as exceptions to that default, so the
// state is as small as what was clicked (it goes into share links: ViewState.collapsed / expanded).

// More groups than this open collapsed.
export const kManyGroups = 64;

export interface CollapseState {
  collapsed?: number[]; // open by default: these are collapsed
  expanded?: number[]; // collapsed by default: these are open
}

export class GroupCollapse {
  private byDefault = false;
  private readonly toggled = new Set<number>();

  // A new track list: its default, and no exceptions.
  reset(groups: number): void {
    this.byDefault = groups > kManyGroups;
    this.toggled.clear();
  }

  // True: groups are collapsed unless toggled.
  get collapsedByDefault(): boolean {
    return this.byDefault;
  }

  // The groups toggled from the default, in order.
  toggledGroups(): number[] {
    return [...this.toggled].sort((a, b) => a - b);
  }

  isCollapsed(g: number): boolean {
    return this.toggled.has(g) !== this.byDefault;
  }

  toggle(g: number): void {
    if (!this.toggled.delete(g)) this.toggled.add(g);
  }

  // Opens group g; false when it was open already.
  expand(g: number): boolean {
    if (!this.isCollapsed(g)) return false;
    this.toggle(g);
    return true;
  }

  state(): CollapseState {
    const list = [...this.toggled];
    return this.byDefault ? { expanded: list } : { collapsed: list };
  }

  // A state from a link: `collapsed` (older links) means open by default, `expanded` collapsed.
  restore(s: CollapseState): void {
    const list = Array.isArray(s.expanded) ? s.expanded : Array.isArray(s.collapsed) ? s.collapsed : null;
    if (!list) return;
    this.byDefault = Array.isArray(s.expanded);
    this.toggled.clear();
    for (const g of list) if (Number.isInteger(g) && g >= 0) this.toggled.add(g);
  }
}
