import { describe, expect, it } from 'vitest';
import { canHydrate, routerReady } from './prerendered';

const root = (prerendered: string | undefined, child = true) =>
  ({ dataset: prerendered === undefined ? {} : { prerendered }, firstElementChild: child ? {} : null }) as unknown as HTMLElement;

describe('canHydrate', () => {
  it('hydrates a prerendered page at its own paths in the language the app starts in', () => {
    expect(canHydrate(root('en'), '/login', 'en')).toBe(true);
    expect(canHydrate(root('es'), '/register', 'es')).toBe(true);
  });

  it('renders afresh in another language, at another path, over an empty root or a plain index', () => {
    expect(canHydrate(root('en'), '/login', 'es')).toBe(false);
    expect(canHydrate(root('en'), '/dashboard', 'en')).toBe(false);
    expect(canHydrate(root('en', false), '/login', 'en')).toBe(false);
    expect(canHydrate(root(undefined), '/login', 'en')).toBe(false);
    expect(canHydrate(root('en'), '/toString', 'en')).toBe(false);
  });
});

describe('routerReady', () => {
  it('resolves at once for an initialized router, else at its first initialized state, and unsubscribes', async () => {
    await routerReady({ state: { initialized: true }, subscribe: () => () => {} } as never);
    let listener: ((s: { initialized: boolean }) => void) | null = null;
    let unsubscribed = false;
    const router = {
      state: { initialized: false },
      subscribe: (fn: (s: { initialized: boolean }) => void) => {
        listener = fn;
        return () => {
          unsubscribed = true;
        };
      },
    };
    let done = false;
    const ready = routerReady(router as never).then(() => {
      done = true;
    });
    (listener as unknown as (s: { initialized: boolean }) => void)({ initialized: false });
    await Promise.resolve();
    expect(done).toBe(false);
    (listener as unknown as (s: { initialized: boolean }) => void)({ initialized: true });
    await ready;
    expect(done).toBe(true);
    expect(unsubscribed).toBe(true);
  });
});
