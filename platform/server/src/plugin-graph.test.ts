import { serviceRef } from '@portal/core';
import { describe, expect, it } from 'vitest';
import type { ServerConfig } from './config';
import type { Database } from './db/database';
import { MEMBER_REACTIVATED_JOB, MEMBER_TERMINATED_JOB } from './kernel-services/members';
import { defineServerPlugin } from './plugin';
import { orderPlugins, PluginGraphError, wirePlugins, withDependencies } from './plugin-graph';
import type { KernelServices } from './services';

const p = (id: string, dependsOn: string[] = []) => ({ id, dependsOn });

describe('plugin dependency order', () => {
  it('puts every plugin after what it depends on, and otherwise keeps id order', () => {
    const ordered = orderPlugins([p('support', ['profile', 'claims']), p('profile'), p('claims', ['profile']), p('help')]).map((x) => x.id);
    expect(ordered).toEqual(['profile', 'claims', 'help', 'support']);
  });
  it('refuses a cycle, naming the plugins on it', () => {
    expect(() => orderPlugins([p('a', ['b']), p('b', ['c']), p('c', ['a'])])).toThrow(/cycle: a -> b -> c -> a/);
  });
  it('refuses a dependency that is not loaded, naming both plugins', () => {
    expect(() => orderPlugins([p('billing', ['coupons'])])).toThrow(new PluginGraphError('plugin billing depends on coupons, which is not loaded'));
  });
  it('adds the transitive dependencies of the enabled plugins', () => {
    const deps: Record<string, string[]> = { registration: ['profile', 'billing'], billing: ['coupons'], profile: [], coupons: [] };
    expect(withDependencies(['registration'], (id) => deps[id] ?? null)).toEqual(['billing', 'coupons', 'profile', 'registration']);
  });
});

describe('plugin services', () => {
  interface Greeter {
    greet(name: string): string;
  }
  const greeter = serviceRef<Greeter>('greeter');
  const provider = defineServerPlugin<Greeter>({ id: 'greeter', provides: { ref: greeter, create: () => ({ greet: (n) => `hello ${n}` }) }, routes: [] });
  /** Job kinds defined by the wiring, by name, and a member's termination date, for the member.terminated job. */
  const defined = new Map<string, (payload: { memberId: number }) => Promise<void>>();
  const terminationDates = new Map<number, string | null>();
  const services = {
    jobs: { define: async (name: string, handler: (p: { memberId: number }) => Promise<void>) => void defined.set(name, handler) },
    members: { load: async (memberId: number) => (terminationDates.has(memberId) ? { memberId, terminationDate: terminationDates.get(memberId) } : null) },
  } as unknown as KernelServices;
  const config = {} as ServerConfig;
  const database = {} as Database;

  it('hands a provider service to a plugin that declares the dependency, created once', async () => {
    const user = defineServerPlugin({ id: 'user', dependsOn: ['greeter'], routes: [] });
    const wired = await wirePlugins([user, provider], services, config, database);
    expect(wired.ordered.map((x) => x.id)).toEqual(['greeter', 'user']);
    expect(wired.useFor('user')(greeter).greet('ann')).toBe('hello ann');
    expect(wired.useFor('user')(greeter)).toBe(wired.useFor('user')(greeter));
  });
  it('refuses a service to a plugin that did not declare dependsOn', async () => {
    const sneaky = defineServerPlugin({ id: 'sneaky', routes: [] });
    const wired = await wirePlugins([sneaky, provider], services, config, database);
    expect(() => wired.useFor('sneaky')(greeter)).toThrow(/declaring dependsOn: \['greeter'\]/);
  });
  it('runs init hooks in dependency order with the services wired', async () => {
    const calls: string[] = [];
    const user = defineServerPlugin({ id: 'aaa', dependsOn: ['greeter'], init: ({ use }) => void calls.push(use(greeter).greet('init')), routes: [] });
    const withInit = defineServerPlugin<Greeter>({ ...provider, init: () => void calls.push('greeter') });
    await (await wirePlugins([user, withInit], services, config, database)).init();
    expect(calls).toEqual(['greeter', 'hello init']);
  });
  it("runs each plugin's onMemberTerminated in dependency order from the member.terminated job, only while the member is terminated", async () => {
    const calls: string[] = [];
    const ending = (id: string, dependsOn: string[] = []) =>
      defineServerPlugin({ id, dependsOn, onMemberTerminated: async (memberId) => void calls.push(`${id}:${memberId}`), routes: [] });
    await (
      await wirePlugins([ending('billing', ['coupons']), ending('coupons'), defineServerPlugin({ id: 'quiet', routes: [] })], services, config, database)
    ).init();
    const job = defined.get(MEMBER_TERMINATED_JOB);
    if (!job) throw new Error('the member.terminated job is not defined');
    terminationDates.set(7, '2026-11-30T06:00:00Z');
    await job({ memberId: 7 });
    expect(calls).toEqual(['coupons:7', 'billing:7']);
    // Reactivated before the job ran, or no such member: nothing is ended.
    terminationDates.set(8, null);
    await job({ memberId: 8 });
    await job({ memberId: 9 });
    expect(calls).toEqual(['coupons:7', 'billing:7']);
  });
  it("runs each plugin's onMemberReactivated in dependency order from the member.reactivated job, only while the member is not terminated", async () => {
    const calls: string[] = [];
    const resuming = (id: string, dependsOn: string[] = []) =>
      defineServerPlugin({ id, dependsOn, onMemberReactivated: async (memberId) => void calls.push(`${id}:${memberId}`), routes: [] });
    await (
      await wirePlugins([resuming('billing', ['coupons']), resuming('coupons'), defineServerPlugin({ id: 'quiet', routes: [] })], services, config, database)
    ).init();
    const job = defined.get(MEMBER_REACTIVATED_JOB);
    if (!job) throw new Error('the member.reactivated job is not defined');
    terminationDates.set(17, null);
    await job({ memberId: 17 });
    expect(calls).toEqual(['coupons:17', 'billing:17']);
    // Terminated again before the job ran, or no such member: nothing is given back.
    terminationDates.set(18, '2026-11-30T06:00:00Z');
    await job({ memberId: 18 });
    await job({ memberId: 19 });
    expect(calls).toEqual(['coupons:17', 'billing:17']);
  });
});
