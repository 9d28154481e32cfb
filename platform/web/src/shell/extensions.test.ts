import { deferred } from '@portal/testing/deferred';
import { type ComponentType, createElement, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { type Contribution, defineExtensionPoint, defineWebPlugin } from '../plugin';
import { contributionsTo, lazyContribution, type PrefetchContext, preloadContributions } from './extensions';

// The plugin's strings arrive when `strings.gate` resolves (at once unless a test holds it back).
const strings = vi.hoisted(() => ({ gate: Promise.resolve() as Promise<unknown> }));
vi.mock('../i18n', () => ({
  withPluginNamespace: (_id: string, load: () => Promise<unknown>) => async () => (await Promise.all([load(), strings.gate]))[0],
}));

const point = defineExtensionPoint<unknown, { order: number; access?: string[] }>('test.widgets');
const other = defineExtensionPoint<unknown, { order: number }>('test.other');

function pluginWith(contributions: Omit<Contribution, 'pluginId'>[]) {
  return defineWebPlugin({ id: 'p', i18n: { namespace: 'p', load: async () => ({ default: {} }) }, routes: [], contributes: contributions as Contribution[] });
}
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('preloading a page’s contributions', () => {
  it('loads what the roles may see and nothing else, once, and calls each one’s prefetch (from the manifest) with the context', async () => {
    const prefetch = vi.fn();
    const hiddenPrefetch = vi.fn();
    const seen = vi.fn(async () => ({ default: () => null }));
    const hidden = vi.fn(async () => ({ default: () => null }));
    const elsewhere = vi.fn(async () => ({ default: () => null }));
    const plugin = pluginWith([
      { point, id: 'w.seen', order: 1, access: ['CareGuard'], prefetch, load: seen } as never,
      { point, id: 'w.hidden', order: 2, access: ['SuperUser'], prefetch: hiddenPrefetch, load: hidden } as never,
      { point: other, id: 'w.other', order: 1, load: elsewhere } as never,
    ]);
    const ctx = { api: {}, queryClient: {} } as unknown as PrefetchContext;
    preloadContributions([plugin], [point], ['CareGuard'], ctx);
    preloadContributions([plugin], [point], ['CareGuard'], ctx);
    await flush();
    expect(seen).toHaveBeenCalledTimes(1);
    expect(hidden).not.toHaveBeenCalled();
    expect(hiddenPrefetch).not.toHaveBeenCalled();
    expect(elsewhere).not.toHaveBeenCalled();
    expect(prefetch).toHaveBeenCalledWith(ctx);
  });

  it('asks for the data at once, before the component’s code or its plugin’s strings are in', () => {
    const prefetch = vi.fn();
    const plugin = pluginWith([{ point, id: 'w.early', order: 1, prefetch, load: () => new Promise(() => {}) } as never]);
    const ctx = { api: {}, queryClient: {} } as unknown as PrefetchContext;
    preloadContributions([plugin], [point], null, ctx);
    expect(prefetch).toHaveBeenCalledWith(ctx);
  });

  it('swallows a failed load or prefetch (the component reports it where it renders) and tries a failed load again', async () => {
    let fail = true;
    const load = vi.fn(async () => {
      if (fail) throw new Error('offline');
      return { default: () => null };
    });
    const throwing = () => {
      throw new Error('no data');
    };
    const rejecting = () => Promise.reject(new Error('no data'));
    const plugin = pluginWith([
      { point, id: 'w.flaky', order: 1, load } as never,
      { point, id: 'w.throwing', order: 2, prefetch: throwing, load: async () => ({ default: () => null }) } as never,
      { point, id: 'w.rejecting', order: 3, prefetch: rejecting, load: async () => ({ default: () => null }) } as never,
    ]);
    const ctx = { api: {}, queryClient: {} } as unknown as PrefetchContext;
    preloadContributions([plugin], [point], null, ctx);
    await flush();
    fail = false;
    preloadContributions([plugin], [point], null, ctx);
    await flush();
    expect(load).toHaveBeenCalledTimes(2);
  });
});

describe('a contribution’s component', () => {
  const widget = (text: string) => async () => ({ default: () => createElement('p', null, text) });
  const inFrame = (C: ComponentType) => renderToString(createElement(Suspense, { fallback: 'waiting' }, createElement(C)));

  it('renders in the page’s first pass, without its fallback, once its preloaded code and strings are in', async () => {
    const plugin = pluginWith([{ point, id: 'w.preloaded', order: 1, load: widget('the balance') } as never]);
    preloadContributions([plugin], [point], null);
    await flush();
    const [c] = contributionsTo([plugin], point);
    const C = lazyContribution(c as never) as ComponentType;
    expect(inFrame(C)).toContain('the balance');
    expect(inFrame(C)).not.toContain('waiting');
    expect(lazyContribution(c as never)).toBe(C);
  });

  it('shows the fallback while its code or strings are on the way, and stays the same component once they are in', async () => {
    const held = deferred();
    strings.gate = held.promise;
    const other = defineExtensionPoint<unknown, { order: number }>('test.later');
    const plugin = pluginWith([{ point: other, id: 'w.later', order: 1, load: widget('the notes') } as never]);
    const [c] = contributionsTo([plugin], other);
    const C = lazyContribution(c as never) as ComponentType;
    expect(inFrame(C)).toContain('waiting');
    await flush();
    // The code is in, the strings are not: still waiting.
    expect(inFrame(C)).toContain('waiting');
    held.release();
    strings.gate = Promise.resolve();
    await flush();
    // A part already on the page keeps its component (and so its state) after the load.
    expect(lazyContribution(c as never)).toBe(C);
    expect(inFrame(C)).toContain('the notes');
  });
});
