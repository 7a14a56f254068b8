// In a frame, the timeline fits the frame's height: it ends where the frame ends and scrolls its
// own tracks (the wheel over the lane names), instead of standing at its full-page height and being
// cut off at the bottom of a frame of fixed height. A host that sizes its frame from the page's
// height messages (<tracewise-view>) still gets a timeline of the full page's height: `missing()`
// is what the reported height lacks for that, so the frame grows until the timeline has it.

// The page's own timeline height (style.css .timeline min-height), and the least it is given
// however small the frame: its bar and a few tracks.
export const kNaturalHeight = 480;
const kMinHeight = 160;

export interface TimelineFit {
  missing(): number; // px the timeline lacks of kNaturalHeight (0 when hidden or at least that tall)
}

export function fitTimelineToFrame(onChange: () => void): TimelineFit {
  const el = document.getElementById('timeline');
  if (!el) return { missing: () => 0 };
  el.classList.add('tw-fit'); // embed_mode.ts embedCss: no min-height, the height set here
  const shown = () => getComputedStyle(el).display !== 'none';
  const fit = () => {
    if (!shown()) return;
    const r = el.getBoundingClientRect();
    const top = r.top + window.scrollY;
    // What follows the timeline in the page (main's padding) stays inside the frame too.
    const below = Math.max(0, document.body.scrollHeight - (r.bottom + window.scrollY));
    const height = Math.max(kMinHeight, Math.floor(window.innerHeight - top - below));
    if (el.style.height !== `${height}px`) el.style.height = `${height}px`;
    onChange();
  };
  // The frame resized, the panels above the timeline changed, or the timeline was shown.
  window.addEventListener('resize', fit);
  const watch = new ResizeObserver(fit);
  watch.observe(el);
  const overview = document.getElementById('overview');
  if (overview) watch.observe(overview);
  fit();
  return {
    missing: () => (shown() ? Math.max(0, kNaturalHeight - Math.round(el.getBoundingClientRect().height)) : 0),
  };
}
