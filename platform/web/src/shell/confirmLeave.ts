import { createContext, useContext } from 'react';
import type { UnsavedCheck } from '../kit/form/unsaved';

/**
 * Asks the user, when what an action drops holds unsaved changes, whether to leave them; true at once when it holds none.
 * What the action drops: 'page' (the default: the page is drawn anew, as acting for another member does; what the
 * parts keep in stores of their own stays), 'session' (a sign-out: everything), or a scope's check (useUnsavedScope)
 * for an action that drops only that part.
 */
export type ConfirmLeave = (drops?: 'page' | 'session' | UnsavedCheck) => Promise<boolean>;

export const ConfirmLeaveContext = createContext<ConfirmLeave>(() => Promise.resolve(true));

/** For an action that drops the page without a move (a sign-out, acting for another member): ask first. */
export const useConfirmLeave = (): ConfirmLeave => useContext(ConfirmLeaveContext);
