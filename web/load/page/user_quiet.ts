// When the user last interacted with the page (pointer, wheel, keys, touch, scrolling), for work
// that only prepares for later and should not take a core from the page while the user is busy
// with it (spare.ts). Listeners are passive and installed on first use.
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
