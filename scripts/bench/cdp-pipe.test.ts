import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { NulFramer, PipeCdp } from './cdp-pipe';
import { CHROMIUM, CHROMIUM_ARGS } from './lib';

describe('the DevTools pipe framing', () => {
  it('gives each NUL-ended message once, whole, even when it arrives in pieces', () => {
    const f = new NulFramer();
    expect(f.push('{"id":1}\0{"id"')).toEqual(['{"id":1}']);
    expect(f.push(':2,"result":{}')).toEqual([]);
    expect(f.push('}\0{"id":3}\0')).toEqual(['{"id":2,"result":{}}', '{"id":3}']);
    expect(f.push('')).toEqual([]);
  });
});

// scripts/test installs Chromium before the unit tests; a machine without it has no page bench either.
describe.runIf(existsSync(CHROMIUM))('the bare DevTools client', () => {
  it('opens a page in a context of its own, reads it, and reports a refused command by its name', async () => {
    const cdp = PipeCdp.launch(CHROMIUM, CHROMIUM_ARGS);
    try {
      const { browserContextId } = await cdp.send<{ browserContextId: string }>('Target.createBrowserContext');
      const url = `data:text/html,${encodeURIComponent('<title>bare</title><p id="p">hello from the page</p>')}`;
      const { targetId } = await cdp.send<{ targetId: string }>('Target.createTarget', { url, browserContextId });
      const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
      let text = '';
      for (let i = 0; i < 50 && text !== 'hello from the page'; i++) {
        const { result } = await cdp.send<{ result: { value?: string } }>(
          'Runtime.evaluate',
          { expression: 'document.getElementById("p")?.textContent ?? ""', returnByValue: true },
          sessionId,
        );
        text = result.value ?? '';
        if (text !== 'hello from the page') await new Promise((r) => setTimeout(r, 100));
      }
      expect(text).toBe('hello from the page');
      await expect(cdp.send('Bench.noSuchCommand')).rejects.toThrow(/^Bench\.noSuchCommand: /);
      await cdp.send('Target.disposeBrowserContext', { browserContextId });
    } finally {
      await cdp.close();
    }
  }, 30_000);
});
