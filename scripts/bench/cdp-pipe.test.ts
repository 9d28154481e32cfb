import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOW_PRIORITY_CHROMIUM } from './browser';
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

  // Linux schedules each session's processes as one group when autogroups are on: the group's nice is then what weighs
  // against the server side's session (Chromium run as root raises some of its own threads to nice -8 whatever it
  // was started at, which merely shares out the group's time among its threads).
  const autogroups = existsSync('/proc/sys/kernel/sched_autogroup_enabled') && readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';
  const groupNice = (pid: number | 'self') => readFileSync(`/proc/${pid}/autogroup`, 'utf8').match(/nice (-?\d+)/)?.[1];

  it.runIf(autogroups)(
    "starts the page bench's browser in a session whose group runs at nice 10, and leaves the caller's group alone",
    async () => {
      const ownGroup = groupNice('self');
      const cdp = PipeCdp.launch(LOW_PRIORITY_CHROMIUM, CHROMIUM_ARGS, { session: 'own' });
      try {
        // The browser answers once it has started (the launcher has exec'd it by then, in the same process).
        await cdp.send('Browser.getVersion');
        const pid = cdp.pid as number;
        expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0]).toMatch(/\/chromium$/);
        expect(groupNice(pid)).toBe('10');
        expect(groupNice('self')).toBe(ownGroup);
      } finally {
        await cdp.close();
      }
    },
    30_000,
  );
});
