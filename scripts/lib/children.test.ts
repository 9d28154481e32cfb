import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { stopChildren } from './children';

/** A node child that says "ready" once its SIGTERM handler (if any) is in place. */
async function child(onTerm: 'exit' | 'ignore'): Promise<ChildProcess> {
  const code =
    onTerm === 'ignore'
      ? "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000);"
      : "process.on('SIGTERM', () => setTimeout(() => process.exit(0), 100)); console.log('ready'); setInterval(() => {}, 1000);";
  const c = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  await once(c.stdout as NodeJS.ReadableStream, 'data');
  return c;
}

describe('stopChildren', () => {
  it('sends SIGTERM and resolves only after each child has exited', async () => {
    const a = await child('exit');
    const b = await child('exit');
    await stopChildren([a, b], 5000);
    expect([a.exitCode, b.exitCode]).toEqual([0, 0]);
  });

  it('kills a child that ignores SIGTERM once the grace period is over', async () => {
    const stubborn = await child('ignore');
    const polite = await child('exit');
    const started = Date.now();
    await stopChildren([stubborn, polite], 300);
    expect(stubborn.signalCode).toBe('SIGKILL');
    expect(polite.exitCode).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('leaves alone a child that has already exited', async () => {
    const done = spawn(process.execPath, ['-e', 'process.exit(3)']);
    await once(done, 'exit');
    await stopChildren([done], 100);
    expect(done.exitCode).toBe(3);
  });
});
