import type { Identity } from '@portal/core';
import { deferred } from '@portal/testing/deferred';
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { type Kernel, KernelContext } from '../context';
import { contribute, defineWebPlugin, Extensions, type NavigationGuard, type NavigationGuardMeta } from '../plugin';
import { loadGuardsEarly, NavigationGate, prepareGuardsEarly } from './NavigationGate';

// The plugins' strings arrive when `strings.gate` resolves (at once unless a test holds it back).
const strings = vi.hoisted(() => ({ gate: Promise.resolve() as Promise<unknown> }));
vi.mock('../i18n', () => ({ ensurePluginNamespace: () => strings.gate.then(() => undefined) }));
vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));

const flush = () => new Promise((r) => setTimeout(r, 0));

interface GuardParts {
  prepare?: NavigationGuardMeta['prepare'];
  passes?: NavigationGuardMeta['passes'];
  redirect: NavigationGuard['redirect'];
  /** The guard's code arrives when this resolves (at once by default). */
  code?: Promise<unknown>;
}

function kernelWith({ prepare, passes, redirect, code = Promise.resolve() }: GuardParts): Kernel {
  const guard: NavigationGuard = { redirect };
  const plugin = defineWebPlugin({
    id: 'p',
    i18n: { namespace: 'p', load: async () => ({ default: {} }) },
    routes: [],
    contributes: [contribute(Extensions.navigationGuards, { id: 'p.guard', order: 1, prepare, passes, load: () => code.then(() => ({ default: guard })) })],
  });
  return { api: {}, session: {}, brand: {}, plugins: [plugin] } as unknown as Kernel;
}

const render = (kernel: Kernel, identity: Identity, path: string) =>
  renderToString(
    <MemoryRouter initialEntries={[path]}>
      <KernelContext.Provider value={kernel}>
        <NavigationGate identity={identity}>
          <p>the page</p>
        </NavigationGate>
      </KernelContext.Provider>
    </MemoryRouter>,
  );

describe('the navigation gate of a returning signed-in user', () => {
  it('decides in its first render once the guards prepared at start-up are ready: no loading pass before the page', async () => {
    const prepare = vi.fn(async () => {});
    const kernel = kernelWith({ prepare, redirect: () => null });
    prepareGuardsEarly(kernel);
    loadGuardsEarly();
    await flush();
    expect(prepare).toHaveBeenCalledTimes(1);
    const identity = { Name: 'Ann' } as unknown as Identity;
    expect(render(kernel, identity, '/dashboard')).toContain('the page');
    // The same identity keeps them; nothing is prepared again.
    expect(render(kernel, identity, '/dashboard')).toContain('the page');
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it('starts preparing a guard (its call to the server) at once, before its code or its plugin’s strings are in', async () => {
    const strs = deferred();
    strings.gate = strs.promise;
    const code = deferred();
    const prepare = vi.fn(async () => {});
    const kernel = kernelWith({ prepare, redirect: () => null, code: code.promise });
    prepareGuardsEarly(kernel);
    expect(prepare).toHaveBeenCalledTimes(1);
    code.release();
    await flush();
    // Not ready until the strings are in too.
    const identity = { Name: 'Cy' } as unknown as Identity;
    expect(render(kernel, identity, '/dashboard')).not.toContain('the page');
    strs.release();
    strings.gate = Promise.resolve();
    await flush();
    expect(render(kernel, identity, '/dashboard')).toContain('the page');
  });

  it("does not ask for the guard's code until told to (after the first page's own requests) or until a gate first needs it", async () => {
    const load = vi.fn(async () => ({ default: { redirect: () => null } satisfies NavigationGuard }));
    const plugin = defineWebPlugin({
      id: 'q',
      i18n: { namespace: 'q', load: async () => ({ default: {} }) },
      routes: [],
      contributes: [contribute(Extensions.navigationGuards, { id: 'q.guard', order: 1, prepare: async () => {}, load })],
    });
    const kernel = { api: {}, session: {}, brand: {}, plugins: [plugin] } as unknown as Kernel;
    prepareGuardsEarly(kernel);
    await flush();
    expect(load).not.toHaveBeenCalled();
    loadGuardsEarly();
    loadGuardsEarly();
    expect(load).toHaveBeenCalledTimes(1);
    await flush();
    expect(render(kernel, { Name: 'Ida' } as unknown as Identity, '/dashboard')).toContain('the page');
    expect(load).toHaveBeenCalledTimes(1);

    // Nobody told it: the gate's first render asks, once.
    prepareGuardsEarly(kernel);
    const identity = { Name: 'Jo' } as unknown as Identity;
    expect(render(kernel, identity, '/dashboard')).not.toContain('the page');
    expect(load).toHaveBeenCalledTimes(2);
    await flush();
    expect(render(kernel, identity, '/dashboard')).toContain('the page');
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('still waits while they are being prepared, and a new identity gets its own', async () => {
    const preparing = deferred();
    const prepare = vi.fn(() => preparing.promise);
    const kernel = kernelWith({ prepare, redirect: () => '/elsewhere' });
    prepareGuardsEarly(kernel);
    await flush();
    const first = { Name: 'Ann' } as unknown as Identity;
    expect(render(kernel, first, '/dashboard')).not.toContain('the page');
    preparing.release();
    await flush();
    // Ready now, and the guard redirects: the page is not drawn.
    expect(render(kernel, first, '/dashboard')).not.toContain('the page');
    expect(render(kernel, { Name: 'Bob' } as unknown as Identity, '/dashboard')).not.toContain('the page');
  });

  it('keeps the guards for the same user fetched again (a rename): the page stays, nothing is prepared again; another user waits', async () => {
    const prepare = vi.fn(async () => {});
    const kernel = kernelWith({ prepare, redirect: () => null });
    prepareGuardsEarly(kernel);
    loadGuardsEarly();
    await flush();
    expect(render(kernel, { Id: 'u1', DisplayName: 'Ann Lee' } as unknown as Identity, '/profile')).toContain('the page');
    // The identity fetched again after the member renamed themself: a new object of the same user.
    expect(render(kernel, { Id: 'u1', DisplayName: 'Ann Smith' } as unknown as Identity, '/profile')).toContain('the page');
    expect(prepare).toHaveBeenCalledTimes(1);
    // Another user without a sign-in's early guards has none prepared yet: the gate waits rather than guess.
    expect(render(kernel, { Id: 'u2', DisplayName: 'Bob' } as unknown as Identity, '/profile')).toContain('app.loading');
  });

  it("opens without the guard's code when the prepared guard says it certainly passes the page, and waits where it does not", async () => {
    const code = new Promise<void>(() => {});
    const passes = vi.fn((where: { pathname: string }) => where.pathname === '/dashboard');
    const kernel = kernelWith({ prepare: async () => {}, passes, redirect: () => '/elsewhere', code });
    prepareGuardsEarly(kernel);
    await flush();
    const identity = { Name: 'Eve' } as unknown as Identity;
    expect(render(kernel, identity, '/dashboard')).toContain('the page');
    expect(render(kernel, identity, '/registration/start')).not.toContain('the page');
  });

  it('asks the quick pass once the preparation has settled, never before: until then the gate waits', async () => {
    const preparing = deferred();
    const prepare = vi.fn(() => preparing.promise);
    const passes = vi.fn(() => true);
    const kernel = kernelWith({ prepare, passes, redirect: () => null, code: new Promise<void>(() => {}) });
    prepareGuardsEarly(kernel);
    await flush();
    const identity = { Name: 'Fay' } as unknown as Identity;
    expect(render(kernel, identity, '/dashboard')).not.toContain('the page');
    expect(passes).not.toHaveBeenCalled();
    preparing.release();
    await flush();
    expect(render(kernel, identity, '/dashboard')).toContain('the page');
  });

  it("once the guard's code is in, its redirect decides even where the quick pass would let the page through", async () => {
    const kernel = kernelWith({ prepare: async () => {}, passes: () => true, redirect: () => '/registration/start' });
    prepareGuardsEarly(kernel);
    loadGuardsEarly();
    await flush();
    expect(render(kernel, { Name: 'Gus' } as unknown as Identity, '/dashboard')).not.toContain('the page');
  });
});
