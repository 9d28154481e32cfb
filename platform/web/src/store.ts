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
  /** Replaces an open toast with the same key instead of stacking a copy. */
  key?: string;
}

/** Toasts: top-right, 2000 ms by default (spec 02 section 9). */
export const TOAST_TIMEOUT_MS = 2000;
export const toastsAtom = atom<Toast[]>([]);
export const loadingCountAtom = atom(0);
export const impersonationAtom = atom<number | null>(null);

let nextId = 1;
export function showToast(t: Omit<Toast, 'id' | 'timeout'> & { timeout?: number }): number {
  const id = nextId++;
  const toast: Toast = { timeout: TOAST_TIMEOUT_MS, ...t, id };
  kernelStore.set(toastsAtom, (list) => [...list.filter((x) => !t.key || x.key !== t.key), toast]);
  return id;
}
export function dismissToast(id: number): void {
  kernelStore.set(toastsAtom, (list) => list.filter((t) => t.id !== id));
}
