// When the user last interacted with the page (pointer, wheel, keys, touch, scrolling), and when
// the page is idle, for work that only prepares for later and should not take a core from the page
// while the user is busy with it or a frame is drawn (spare.ts, ../index.ts prepareTimeline).
// Listeners are passive and installed on first use.
const kInputs = ['pointerdown', 'pointermove', 'wheel', 'keydown', 'touchstart', 'scroll'] as const;

let lastInput = -Infinity;
let installed = false;

function install(): void {
  if (installed) return;
  installed = true;
  const seen = () => {
    lastInput = performance.now();
  };
  // Capture on the document: scroll events of inner elements do not bubble.
  for (const type of kInputs) document.addEventListener(type, seen, { capture: true, passive: true });
}

// Runs `run` once the page has seen no user input for `ms`, counted from now at the earliest.
export function afterQuiet(ms: number, run: () => void): void {
  install();
  const from = performance.now();
  const check = () => {
    const left = Math.max(from, lastInput) + ms - performance.now();
    if (left <= 0) run();
    else setTimeout(check, left);
  };
  setTimeout(check, ms);
}

// Runs `run` once the main thread is idle (its pending frame drawn), within 2 s.
export function whenIdle(run: () => void): void {
  if ('requestIdleCallback' in window) requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 200);
}
