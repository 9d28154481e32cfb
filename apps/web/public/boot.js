// The entry of a prerendered page (the sign-in page; apps/web/build.ts puts it in place of the app's entry script).
// The browser paints the page first, then the app's code runs: React, the router and i18next take about a second of
// script with the CPU slowed 4 times, and started at once they would hold that first paint back until they end.
// The page names the app's entry chunk in <meta name="app-entry">; it is the same chunk the plain index loads.
const entry = document.querySelector('meta[name="app-entry"]')?.getAttribute('content');
if (document.visibilityState === 'visible') {
  // After the next frame's paint: requestAnimationFrame runs just before it, the timeout just after it.
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
if (entry?.startsWith('/assets/')) await import(entry);
