// The aligned view's choice of ranks whose CPU threads are shown (besides every rank's GPU lanes):
// a drop-down of one checkbox per rank, so that a job of 64 ranks is one control, not 64.
import { h } from '../element';
import { injectStyle } from '../style';

export class CpuPicker {
  readonly el = h('details', { class: 'twtl-cpu', 'data-testid': 'timeline-cpu-picker' });
  private readonly summary = h('summary', { title: "Show a rank's CPU threads under its GPU streams" });
  private readonly list = h('div', { class: 'twtl-cpu-list' });
  private boxes: HTMLInputElement[] = [];

  constructor(private readonly onChange: (rank: number, on: boolean) => void) {
    injectStyle();
    this.el.append(this.summary, this.list);
    // A drop-down: a click elsewhere closes it.
    document.addEventListener('pointerdown', (e) => {
      if (this.el.open && !this.el.contains(e.target as Node)) this.el.open = false;
    });
  }

  // The ranks' labels and whether each one's CPU threads are shown.
  set(ranks: Array<{ label: string; on: boolean }>): void {
    this.boxes = ranks.map((r, i) => {
      const box = h('input', { type: 'checkbox', 'data-rank': String(i) });
      box.checked = r.on;
      box.addEventListener('change', () => {
        this.count();
        this.onChange(i, box.checked);
      });
      return box;
    });
    this.list.replaceChildren(
      ...this.boxes.map((box, i) => {
        const label = h('label');
        label.append(box, document.createTextNode(` ${ranks[i].label}`));
        return label;
      })
    );
    this.count();
  }

  // Rank `rank`'s box, changed elsewhere (following a link to its CPU threads).
  check(rank: number, on: boolean): void {
    const box = this.boxes[rank];
    if (!box || box.checked === on) return;
    box.checked = on;
    this.count();
  }

  private count(): void {
    const on = this.boxes.filter((b) => b.checked).length;
    this.summary.textContent = `CPU threads: ${on ? `${on} of ${this.boxes.length} ranks` : 'none'}`;
  }
}
