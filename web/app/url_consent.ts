// Opens the traces the page's `?url=` names, as web/app/url_plan.ts planned them: at once when they
// are all on the page's own origin; else only after the reader agrees, in a box that names the other
// hosts (a link from anyone must not make the page download from hosts the reader never chose: the
// request tells them the reader's address and that the link was opened). Values refused or ignored
// by the plan are named in a note. Everything shown is text (the link is untrusted).
import { h } from './dom';
import { connectPolicy, type PlannedUrl, type UrlPlan } from './url_plan';

const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 120)}…` : s);

// Before anything else of the page connects anywhere: the static policy admits any http(s) host,
// this one only the hosts of the page's own address.
export function narrowConnections(plan: UrlPlan): void {
  const policy = connectPolicy(plan);
  if (policy === null) return;
  document.head.append(h('meta', { 'http-equiv': 'Content-Security-Policy', content: policy }));
}

function notes(plan: UrlPlan, declined: PlannedUrl[]): string[] {
  const lines = plan.refused.map((r) => `Not opened: ${clip(r.value)}: ${r.reason}.`);
  if (plan.ignored > 0) {
    const given = plan.ignored + plan.open.length + plan.refused.length;
    lines.push(
      `This address names ${given} traces; only the first ${given - plan.ignored} were used, the other ${plan.ignored} were ignored.`
    );
  }
  for (const d of declined) lines.push(`Not downloaded: ${clip(d.url)} (another site; you declined).`);
  return lines;
}

export function openPlannedUrls(where: HTMLElement, plan: UrlPlan, open: (urls: PlannedUrl[]) => void): void {
  const note = h('div', { id: 'url-notes', class: 'url-notes', role: 'alert' });
  const showNotes = (declined: PlannedUrl[]) => {
    note.replaceChildren(...notes(plan, declined).map((line) => h('div', null, line)));
    if (note.firstChild && !note.isConnected) where.prepend(note);
  };
  showNotes([]);
  if (!plan.foreignOrigins.length) {
    if (plan.open.length) open(plan.open);
    return;
  }
  const n = plan.open.length;
  const yes = h('button', { class: 'btn primary', type: 'button', 'data-consent': 'yes' }, 'Download and open');
  const no = h('button', { class: 'btn', type: 'button', 'data-consent': 'no' }, "Don't download");
  const box = h(
    'div',
    { id: 'url-consent', class: 'url-consent', role: 'alertdialog', 'aria-labelledby': 'url-consent-text' },
    h(
      'p',
      { id: 'url-consent-text' },
      `This link asks to download ${n === 1 ? 'a trace' : `${n} traces`} from ${plan.foreignOrigins.length === 1 ? 'another site' : 'other sites'}: `,
      ...plan.foreignOrigins.flatMap((o, i) => [i ? ', ' : '', h('code', null, clip(o))]),
      '. Nothing is downloaded until you agree; the trace is then analysed here and not uploaded anywhere.'
    ),
    h('div', { class: 'url-consent-actions' }, yes, no)
  );
  yes.addEventListener('click', () => {
    box.remove();
    open(plan.open);
  });
  no.addEventListener('click', () => {
    box.remove();
    showNotes(plan.open.filter((u) => u.foreign));
    const own = plan.open.filter((u) => !u.foreign);
    if (own.length) open(own);
  });
  where.prepend(box);
  yes.focus();
}
