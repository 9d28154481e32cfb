import { createContext, useContext } from 'react';
import type { UnsavedCheck } from '../kit/form/unsaved';

/**
 * Asks the user, when the page holds unsaved changes, whether to leave them; true at once when there are none.
 * `unsaved`: only these parts' changes count (a scope's check, useUnsavedScope), for an action that drops only them.
 */
export type ConfirmLeave = (unsaved?: UnsavedCheck) => Promise<boolean>;

export const ConfirmLeaveContext = createContext<ConfirmLeave>(() => Promise.resolve(true));

/** For an action that drops the page without a move (a sign-out, acting for another member): ask first. */
export const useConfirmLeave = (): ConfirmLeave => useContext(ConfirmLeaveContext);
