// One message in the page's share banner (above the dashboard), replacing the previous one: plain
// text (trace and link content never become HTML), an optional extra node (a link field), a close button.
export type MessageKind = 'info' | 'warn' | 'error';

export function showMessage(banner: HTMLElement, kind: MessageKind, text: string, extra?: Node): void {
  banner.replaceChildren();
  const p = document.createElement('div');
  p.className = `share-msg share-${kind}`;
  p.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  p.textContent = text;
  if (extra) p.append(' ', extra);
  const close = document.createElement('button');
  close.className = 'share-close';
  close.textContent = '×';
  close.title = 'Dismiss';
  close.addEventListener('click', () => banner.replaceChildren());
  p.append(close);
  banner.append(p);
}
