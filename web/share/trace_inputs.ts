// Remembers the Blobs of the traces the user opens (drop, file pickers, buffers from postMessage),
// because the content-hash check of summary links needs their bytes and the app shell keeps no
// reference. Listens in the capture phase, before the page's own handlers clear the file inputs.
const blobsByName = new Map<string, Blob>();

export function rememberTrace(name: string, blob: Blob): void {
  blobsByName.set(name, blob);
  if (blobsByName.size > 64) blobsByName.delete(blobsByName.keys().next().value as string);
}

export function traceBlob(name: string): Blob | undefined {
  return blobsByName.get(name);
}

export function watchTraceInputs(): void {
  const keep = (list: FileList | null | undefined) => { for (const f of list ?? []) rememberTrace(f.name, f); };
  window.addEventListener('drop', (e) => keep(e.dataTransfer?.files), true);
  window.addEventListener('change', (e) => {
    const t = e.target as HTMLInputElement | null;
    if (t && t.tagName === 'INPUT' && t.type === 'file') keep(t.files);
  }, true);
}
