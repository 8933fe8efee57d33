/**
 * The Devanagari face the app ships (Noto Sans Devanagari, its devanagari subset only: ~50 kB a weight),
 * fetched the first time the page is in Hindi, never in English: the CSS chunk and its fonts stay out of the
 * first load. Two weights: regular text and the bold of headings and buttons (600 renders with the 700).
 */
let loading: Promise<unknown> | null = null;

export function loadDevanagariFont(): Promise<unknown> {
  loading ??= Promise.all([
    import('@fontsource/noto-sans-devanagari/devanagari-400.css'),
    import('@fontsource/noto-sans-devanagari/devanagari-700.css'),
  ]).catch(() => {
    // Offline after an update: the system's fonts are used; a later switch tries again.
    loading = null;
  });
  return loading;
}
