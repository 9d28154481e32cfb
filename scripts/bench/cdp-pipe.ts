/**
 * A bare DevTools-protocol client over Chromium's `--remote-debugging-pipe` (fd 3 to the browser, fd 4 from it; each
 * message is JSON ended by a NUL byte). It sends what its caller asks for and nothing else, and enables no domain by itself, which
 * is the point: Playwright enables the Runtime and Network domains on every page it opens, and the page pays for them
 * (see `scripts/bench/devtools-tax.ts`). A diagnostic's client, not a test driver.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** Splits a byte stream into NUL-ended messages; a message may arrive across several chunks. */
export class NulFramer {
  private pending = '';
  push(chunk: string): string[] {
    const parts = (this.pending + chunk).split('\0');
    this.pending = parts.pop() ?? '';
    return parts.filter((p) => p.length > 0);
  }
}

interface Message {
  id?: number;
  result?: unknown;
  error?: { message: string };
  method?: string;
  params?: Record<string, unknown>;
  sessionId?: string;
}

/** An event the browser sent: its method, its parameters and the page session it came from. */
export type CdpEvent = { method: string; params: Record<string, unknown>; sessionId?: string };

export class PipeCdp {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; method: string }>();
  private readonly listeners = new Set<(e: CdpEvent) => void>();

  private constructor(
    private readonly browser: ChildProcess,
    private readonly profile: string,
  ) {
    const framer = new NulFramer();
    const fromBrowser = browser.stdio[4] as Readable;
    fromBrowser.setEncoding('utf8');
    fromBrowser.on('data', (chunk: string) => {
      for (const text of framer.push(chunk)) {
        const m = JSON.parse(text) as Message;
        if (m.method !== undefined && m.id === undefined) {
          const event: CdpEvent = { method: m.method, params: m.params ?? {}, sessionId: m.sessionId };
          for (const l of this.listeners) l(event);
          continue;
        }
        const w = m.id === undefined ? undefined : this.waiting.get(m.id);
        if (!w || m.id === undefined) continue;
        this.waiting.delete(m.id);
        if (m.error) w.reject(new Error(`${w.method}: ${m.error.message}`));
        else w.resolve(m.result);
      }
    });
    browser.on('exit', () => {
      for (const w of this.waiting.values()) w.reject(new Error(`${w.method}: the browser exited`));
      this.waiting.clear();
    });
  }

  /**
   * Starts a headless Chromium with its own profile, driven through the pipe alone. `session: 'own'` starts it in a
   * session of its own (as Playwright starts its browsers), which a launcher that sets its session's CPU priority
   * (`scripts/bench/low-priority-chromium`) needs so as not to lower this process's priority with it.
   */
  static launch(executable: string, args: readonly string[], opts: { session?: 'own' } = {}): PipeCdp {
    const profile = mkdtempSync(join(tmpdir(), 'bench-bare-browser-'));
    const browser = spawn(executable, ['--headless', ...args, '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'], {
      stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
      detached: opts.session === 'own',
    });
    return new PipeCdp(browser, profile);
  }

  /** The browser's process id (its main process). */
  get pid(): number | undefined {
    return this.browser.pid;
  }

  /** One command; `sessionId` addresses a page attached with `Target.attachToTarget({ flatten: true })`. */
  send<T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, method });
      (this.browser.stdio[3] as Writable).write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** Calls `listener` with every event the browser sends (of the domains a caller enabled) until the returned function is called. */
  onEvent(listener: (e: CdpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    await this.send('Browser.close').catch(() => {});
    if (this.browser.exitCode === null) await new Promise((r) => this.browser.once('exit', r));
    rmSync(this.profile, { recursive: true, force: true });
  }
}
