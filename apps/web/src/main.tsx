/**
 * The entry. When the HTML holds a prerendered page (the sign-in page, apps/web/build.ts), the browser paints it
 * before the app's code runs: React, the router and i18next take about a second of script with the CPU slowed 4
 * times, and started at once they would hold the first paint back until they end. The app's code is fetched in
 * the meantime (the HTML links it for preloading).
 */
const root = document.getElementById('root');
if (!root) throw new Error('missing #root');
if (root.dataset.prerendered && document.visibilityState === 'visible') {
  // After the next frame's paint: requestAnimationFrame runs just before it, the timeout just after it.
  await new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}
const { start } = await import('./app');
start(root);

export {};
