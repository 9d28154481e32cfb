import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@portal/app-server/plugins';
import { KernelThrottle, THROTTLE, THROTTLE_RETENTION_SECONDS } from '@portal/server/kernel';
import { beforeAll, describe, expect, it } from 'vitest';

type Windowed = { windowSeconds: number };
const isWindowed = (v: unknown): v is Windowed => typeof v === 'object' && v !== null && typeof (v as Windowed).windowSeconds === 'number';

/** Rule name → window, from the kernel and from every plugin's src/server/throttle.ts (where plugins declare their rules). */
async function allRules(): Promise<Map<string, number>> {
  const rules = new Map<string, number>();
  const add = (prefix: string, group: Record<string, unknown>) => {
    for (const [name, rule] of Object.entries(group)) if (isWindowed(rule)) rules.set(`${prefix}.${name}`, rule.windowSeconds);
  };
  add('kernel', THROTTLE);
  add('kernel', KernelThrottle);
  for (const id of readdirSync(join(REPO_ROOT, 'plugins'))) {
    const file = join(REPO_ROOT, 'plugins', id, 'src/server/throttle.ts');
    if (!existsSync(file)) continue;
    for (const group of Object.values(await import(file))) if (typeof group === 'object' && group !== null) add(id, group as Record<string, unknown>);
  }
  return rules;
}

let rules: Map<string, number>;
beforeAll(async () => {
  rules = await allRules();
});

describe('throttle event retention', () => {
  it('finds the rules of the kernel and of the plugins', () => {
    expect(rules.get('kernel.accountFailures')).toBe(15 * 60);
    expect(rules.get('account.registerPerAddress')).toBe(60 * 60);
  });

  it('keeps events for at least the longest window any rule counts over, so pruning never lifts a limit early', () => {
    expect([...rules].filter(([, windowSeconds]) => windowSeconds > THROTTLE_RETENTION_SECONDS)).toEqual([]);
  });

  it('keeps them no longer than that window', () => {
    expect(Math.max(...rules.values())).toBe(THROTTLE_RETENTION_SECONDS);
  });
});
