export {};

/** Waits until every URL given answers 200, or fails after 60 s. */
const urls = process.argv.slice(2);
const deadline = Date.now() + 60_000;
for (const url of urls) {
  for (;;) {
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      console.error(`${url} did not answer within 60 s`);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
