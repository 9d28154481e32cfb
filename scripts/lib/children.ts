import type { ChildProcess } from 'node:child_process';

/**
 * Stops the children that are still running: SIGTERM first, SIGKILL to any that has not exited after graceMs.
 * Resolves once every one of them has exited, so what they wrote to (a data directory) can then be removed.
 */
export async function stopChildren(children: readonly ChildProcess[], graceMs = 10_000): Promise<void> {
  const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
  await Promise.all(
    running.map(
      (c) =>
        new Promise<void>((resolve) => {
          const kill = setTimeout(() => c.kill('SIGKILL'), graceMs);
          c.once('exit', () => {
            clearTimeout(kill);
            resolve();
          });
          c.kill('SIGTERM');
        }),
    ),
  );
}
