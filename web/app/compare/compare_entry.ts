// Entering Compare mode: a "Compare…" button in the top bar opens a strip with two pickers, one per
// side (each takes several files, or a folder of them: the ranks of one run), and a button that
// opens both; with traces on screen, "Compare with…" keeps them as the baseline and asks only for
// the candidate.
import { h } from '../dom';
import type { FileInput } from '../files';
import { isTraceName } from '../dropped_files';

export interface CompareEntryActions {
  openBoth(base: FileInput[], cand: FileInput[]): void;
  withCandidate(cand: FileInput[]): void; // what is open becomes the baseline
  canKeepOpen(): boolean; // traces are on screen (and not compared already)
}

const kAccept = '.json,.gz,.trace,application/json,application/gzip';
const inputsOf = (input: HTMLInputElement): FileInput[] =>
  [...(input.files ?? [])].map((f) => ({ name: f.name, blob: f }));

// A folder's traces (its .json / .json.gz files, below it too), in natural order of their paths.
const folderInputs = (input: HTMLInputElement): FileInput[] =>
  [...(input.files ?? [])]
    .filter((f) => isTraceName(f.name))
    .sort((a, b) => a.webkitRelativePath.localeCompare(b.webkitRelativePath, 'en', { numeric: true }))
    .map((f) => ({ name: f.name, blob: f, folder: f.webkitRelativePath.split('/')[0] || undefined }));

interface Picker {
  el: HTMLElement;
  names: HTMLElement;
  chosen: () => FileInput[];
  clear: () => void;
}

// A side's picker: files, or a folder (whichever was picked last).
function picker(id: string, label: string, onChange: () => void): Picker {
  const files = h('input', { type: 'file', id, multiple: true, accept: kAccept });
  const folder = h('input', { type: 'file', id: `${id}-folder`, webkitdirectory: true, multiple: true });
  let chosen: FileInput[] = [];
  files.addEventListener('change', () => {
    chosen = inputsOf(files);
    folder.value = '';
    onChange();
  });
  folder.addEventListener('change', () => {
    chosen = folderInputs(folder);
    files.value = '';
    onChange();
  });
  const names = h('span', { class: 'muted cmp-picked' }, 'no file');
  const el = h(
    'span',
    { class: 'cmp-pick' },
    h('label', { class: 'btn' }, label, files),
    h('label', { class: 'btn small', title: 'A folder of traces: one per rank' }, 'folder…', folder),
    names
  );
  const clear = () => {
    files.value = '';
    folder.value = '';
    chosen = [];
  };
  return { el, names, chosen: () => chosen, clear };
}

export function installCompareEntry(actions: HTMLElement, strip: HTMLElement, app: CompareEntryActions): void {
  const base = picker('compare-base-input', 'Baseline…', () => sync());
  const cand = picker('compare-cand-input', 'Candidate…', () => sync());
  const go = h('button', { class: 'btn primary', id: 'compare-go', type: 'button', disabled: true }, 'Compare');
  const close = h('button', { class: 'btn', type: 'button' }, 'Close');
  const keep = h('input', { type: 'file', id: 'compare-with-input', multiple: true, accept: kAccept });
  const keepLabel = h(
    'label',
    {
      class: 'btn',
      id: 'compare-with',
      title: 'The traces on screen are the baseline; pick the candidate run (one file, or one per rank)',
    },
    'Compare the open traces with…',
    keep
  );
  strip.classList.add('cmp-entry');
  strip.hidden = true;
  strip.append(
    h('b', null, 'Compare two runs:'),
    base.el,
    h('span', { class: 'muted' }, 'against'),
    cand.el,
    go,
    keepLabel,
    close
  );
  const sync = () => {
    const b = base.chosen();
    const c = cand.chosen();
    base.names.textContent = b.map((x) => x.name).join(', ') || 'no file';
    cand.names.textContent = c.map((x) => x.name).join(', ') || 'no file';
    go.disabled = !b.length || !c.length;
    keepLabel.hidden = !app.canKeepOpen();
  };
  const reset = () => {
    base.clear();
    cand.clear();
    keep.value = '';
    strip.hidden = true;
    sync();
  };
  go.addEventListener('click', () => {
    const b = base.chosen();
    const c = cand.chosen();
    if (!b.length || !c.length) return;
    reset();
    app.openBoth(b, c);
  });
  keep.addEventListener('change', () => {
    const c = inputsOf(keep);
    if (!c.length) return;
    reset();
    app.withCandidate(c);
  });
  close.addEventListener('click', reset);
  const open = h(
    'button',
    {
      class: 'btn',
      id: 'compare-open',
      type: 'button',
      title: 'Compare a baseline run with a candidate: deltas with verdicts, both timelines stacked',
    },
    'Compare…'
  );
  open.addEventListener('click', () => {
    strip.hidden = !strip.hidden;
    sync();
  });
  actions.prepend(open);
}
