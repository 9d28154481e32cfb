import { atom, createStore } from 'jotai';
import type { ToastKind } from './api/client';

/** One jotai store for the kernel's client-side state, reachable from the API client outside React. */
export const kernelStore = createStore();

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** Milliseconds before it closes itself; 0 is sticky. */
  timeout: number;
  onClick?: () => void;
  /**
   * Replaces an open toast with the same key instead of stacking a copy; one that says the same (kind and words) is
   * kept, not drawn anew (a screen reader would read it again), and its time starts over.
   */
  key?: string;
  /** How many times the toast was said again while open (see key): its time starts over with each. */
  renewed?: number;
}

/** Toasts: top-right, 2000 ms by default (spec 02 section 9). */
export const TOAST_TIMEOUT_MS = 2000;
export const toastsAtom = atom<Toast[]>([]);
export const loadingCountAtom = atom(0);
export const impersonationAtom = atom<number | null>(null);

let nextId = 1;
export function showToast(t: Omit<Toast, 'id' | 'timeout' | 'renewed'> & { timeout?: number }): number {
  const open = t.key ? kernelStore.get(toastsAtom).find((x) => x.key === t.key) : undefined;
  if (open && open.kind === t.kind && open.message === t.message) {
    // Said again while open: the same toast, its time started over.
    kernelStore.set(toastsAtom, (list) => list.map((x) => (x.id === open.id ? { ...x, ...t, renewed: (x.renewed ?? 0) + 1 } : x)));
    return open.id;
  }
  const id = nextId++;
  const toast: Toast = { timeout: TOAST_TIMEOUT_MS, ...t, id };
  kernelStore.set(toastsAtom, (list) => [...list.filter((x) => !t.key || x.key !== t.key), toast]);
  return id;
}
/**
 * A toast that is only its words (the kit's, e.g. a refused form's 'Please fix any errors before continuing.'): said
 * again while it is open, it stays one toast, its time started over, instead of a second copy under the first.
 */
export function showMessageToast(message: string, kind: ToastKind): number {
  return showToast({ kind, message, key: `${kind}:${message}` });
}
export function dismissToast(id: number): void {
  kernelStore.set(toastsAtom, (list) => list.filter((t) => t.id !== id));
}
