import { beforeEach, describe, expect, it } from 'vitest';
import { kernelStore, showMessageToast, showToast, toastsAtom } from './store';

beforeEach(() => kernelStore.set(toastsAtom, []));

describe('toasts', () => {
  it('stacks toasts without a key', () => {
    showToast({ kind: 'success', message: 'Saved' });
    showToast({ kind: 'success', message: 'Saved' });
    expect(kernelStore.get(toastsAtom)).toHaveLength(2);
  });

  it('replaces an open toast of the same key with one that says something else (a new toast, read anew)', () => {
    const first = showToast({ kind: 'warning', message: 'Your session ends in 2 minutes.', key: 'session-expiry' });
    const second = showToast({ kind: 'success', message: 'Your session was extended.', key: 'session-expiry' });
    expect(second).not.toBe(first);
    expect(kernelStore.get(toastsAtom)).toEqual([expect.objectContaining({ id: second, message: 'Your session was extended.' })]);
  });

  it('says the same thing of the same key once: the open toast stays (not announced again) and its time starts over', () => {
    const first = showToast({ kind: 'error', message: 'An unexpected error occurred.', key: 'error:An unexpected error occurred.' });
    const before = kernelStore.get(toastsAtom)[0];
    const again = showToast({ kind: 'error', message: 'An unexpected error occurred.', key: 'error:An unexpected error occurred.' });
    expect(again).toBe(first);
    const list = kernelStore.get(toastsAtom);
    expect(list).toHaveLength(1);
    expect(list[0]?.id).toBe(first);
    // A new renewal: the toaster starts its time over.
    expect(list[0]?.renewed).not.toBe(before?.renewed);
  });

  it("keeps one toast of the kit's words said again while open (a form refused twice), and stacks other words", () => {
    const first = showMessageToast('Please fix any errors before continuing.', 'error');
    expect(showMessageToast('Please fix any errors before continuing.', 'error')).toBe(first);
    expect(kernelStore.get(toastsAtom)).toEqual([expect.objectContaining({ id: first, renewed: 1 })]);
    showMessageToast('Copied.', 'success');
    expect(kernelStore.get(toastsAtom).map((t) => t.message)).toEqual(['Please fix any errors before continuing.', 'Copied.']);
  });
});
