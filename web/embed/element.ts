// <tracewise-view src="run.json.gz" panels="cards,timeline" range="t0-t1" theme="dark">: the
// custom element for docs sites, in its own bundle (tracewise-view.js). Each element owns an iframe
// of the tracewise page in embed mode, served from where this script came from; the element fetches
// `src` itself (same origin as the docs page, so no CORS) and hands the bytes over with the
// postMessage API, then sizes the iframe from the height messages. Elements are independent: each
// only listens to messages from its own iframe.

const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src || location.href;
const kBase = new URL('.', scriptUrl);

class TracewiseView extends HTMLElement {
  static get observedAttributes(): string[] {
    return ['src', 'panels', 'range', 'theme'];
  }
  private frame: HTMLIFrameElement | null = null;
  private listener: ((ev: MessageEvent) => void) | null = null;
  private status: HTMLElement | null = null;
  summary: unknown = null;

  connectedCallback(): void {
    this.start();
  }
  disconnectedCallback(): void {
    this.stop();
  }
  attributeChangedCallback(): void {
    if (this.isConnected && this.frame) {
      this.stop();
      this.start();
    }
  }

  private stop(): void {
    if (this.listener) window.removeEventListener('message', this.listener);
    this.listener = null;
    this.replaceChildren();
    this.frame = null;
  }

  private setStatus(text: string, error = false): void {
    if (!this.status) return;
    this.status.textContent = text;
    this.status.style.color = error ? '#c62828' : '';
    this.status.hidden = text === '';
  }

  private start(): void {
    const src = this.getAttribute('src');
    const page = new URL('index.html', kBase);
    page.searchParams.set('embed', '1');
    for (const a of ['panels', 'range', 'theme']) {
      const v = this.getAttribute(a);
      if (v) page.searchParams.set(a, v);
    }
    if (!this.style.display) this.style.display = 'block';
    this.status = document.createElement('div');
    this.status.style.cssText = 'font:13px system-ui,sans-serif;padding:4px 0;color:#5f6b7a';
    const frame = document.createElement('iframe');
    frame.title = `tracewise: ${src ?? 'trace'}`;
    frame.style.cssText = 'width:100%;border:0;height:160px;display:block;color-scheme:normal';
    frame.loading = 'lazy';
    frame.src = page.href;
    this.frame = frame;
    this.append(this.status, frame);
    if (!src) {
      this.setStatus('tracewise-view: the src attribute is missing.', true);
      return;
    }
    this.setStatus(`Loading ${src}…`);

    const bytes = fetch(new URL(src, document.baseURI).href).then((r) => {
      if (!r.ok) throw new Error(`HTTP ${r.status}`);
      return r.arrayBuffer();
    });
    bytes.catch((e) =>
      this.setStatus(`tracewise-view: could not fetch ${src} (${String((e as Error)?.message ?? e)}).`, true)
    );
    const name = decodeURIComponent(new URL(src, document.baseURI).pathname.split('/').pop() || 'trace.json');
    let sent = false;
    this.listener = (ev: MessageEvent) => {
      if (ev.source !== frame.contentWindow || ev.origin !== kBase.origin) return;
      const d = ev.data;
      if (!d || typeof d !== 'object') return;
      if (d.type === 'tracewise.height' && typeof d.height === 'number' && d.height > 0) {
        frame.style.height = `${Math.min(Math.ceil(d.height), 20000)}px`;
      } else if (d.type === 'tracewise.ready' && !sent) {
        sent = true;
        void bytes.then(
          (buffer) =>
            frame.contentWindow?.postMessage({ type: 'tracewise.open', name, buffer }, kBase.origin, [buffer]),
          () => {}
        );
      } else if (d.type === 'tracewise.loaded') {
        this.summary = d.summary;
        this.setStatus('');
        this.dispatchEvent(new CustomEvent('tracewise-loaded', { detail: d.summary }));
      } else if (d.type === 'tracewise.error') {
        this.setStatus(`tracewise: ${String(d.message)}`, true);
        this.dispatchEvent(new CustomEvent('tracewise-error', { detail: String(d.message) }));
      }
    };
    window.addEventListener('message', this.listener);
  }
}

if (!customElements.get('tracewise-view')) customElements.define('tracewise-view', TracewiseView);
