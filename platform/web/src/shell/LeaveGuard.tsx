import { Component, lazy, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { type BlockerFunction, useBlocker } from 'react-router-dom';
import { anyUnsaved, keptEdits, UnsavedContext, type UnsavedEntry, type UnsavedRegistry } from '../kit/form/unsaved';
import { type ConfirmLeave, ConfirmLeaveContext } from './confirmLeave';
import { leavesPage } from './leavePage';

/**
 * The question's dialog is its own chunk, off the landing page's path (the kit's dialog is about 10 KiB compressed): it
 * is asked for when a part that may hold unsaved changes is first drawn (a form), so it is there before any move.
 */
const LeaveDialog = lazy(() => import('./LeaveDialog'));

/** If the dialog's code cannot be had (offline since the page loaded), the browser's own confirm asks instead. */
class OrBrowserConfirm extends Component<{ open: boolean; ask: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidUpdate() {
    if (this.state.failed && this.props.open) this.props.ask();
  }
  override render() {
    return this.state.failed ? null : <Suspense fallback={null}>{this.props.children}</Suspense>;
  }
}

/**
 * The signed-in layout's guard against losing unsaved changes. The parts of a page that hold them (every kit Form by
 * default, kit/form/unsaved) say so; while any does:
 * - a move that leaves the page (a link, Back, a tab of the address: leavePage.ts) stops and asks "Leave without
 *   saving?"; Stay keeps the page as it was, Leave goes on;
 * - closing or reloading the tab gets the browser's own question (beforeunload);
 * - a sign-out or a change of the member acted for asks the same first (useConfirmLeave).
 * Edits a store keeps for the life of the tab (keepEditsForTab: the profile's) are not lost by a move, so only a
 * sign-out and closing the tab ask for them, whatever page is drawn then.
 * A session that ended is never held (its move goes to the sign-in page); what was typed then is lost, as before.
 */
export function LeaveGuard({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const entries = useRef(new Map<string, UnsavedEntry>());
  // Whether any part that may hold unsaved changes is drawn, or a store keeps an open edit: the dialog's code and the
  // beforeunload listener follow it.
  const [drawn, setDrawn] = useState(false);
  const keeping = useSyncExternalStore(keptEdits.subscribe, keptEdits.holdsAny);
  const armed = drawn || keeping;
  const watch = useCallback<UnsavedRegistry['watch']>((id, entry) => {
    if (entry) entries.current.set(id, entry);
    else entries.current.delete(id);
    setDrawn(entries.current.size > 0);
  }, []);
  // A move to another page loses what the parts do not keep themselves; a sign-out or closing the tab loses all.
  const lostByMove = useCallback(() => anyUnsaved(entries.current.values(), true), []);
  const unsaved = useCallback(() => anyUnsaved(entries.current.values(), false) || keptEdits.unsaved(), []);
  const registry = useMemo(() => ({ watch }), [watch]);

  const shouldBlock = useCallback<BlockerFunction>(
    ({ currentLocation, nextLocation, historyAction }) => leavesPage(currentLocation, nextLocation, historyAction) && lostByMove(),
    [lostByMove],
  );
  const blocker = useBlocker(shouldBlock);

  // An action's question (sign-out, acting for another member): its answer settles the action's promise.
  const [asking, setAsking] = useState<((leave: boolean) => void) | null>(null);
  const confirmLeave = useCallback<ConfirmLeave>(
    (drops = 'page') => {
      const lost = drops === 'page' ? lostByMove : drops === 'session' ? unsaved : drops;
      return lost() ? new Promise<boolean>((settle) => setAsking(() => settle)) : Promise.resolve(true);
    },
    [lostByMove, unsaved],
  );

  useEffect(() => {
    if (!armed) return;
    // Only while a part that may hold unsaved changes is drawn or an edit is kept: a beforeunload listener keeps some
    // browsers from caching the page for Back. It asks the parts and the stores at the moment the tab closes.
    const ask = (event: BeforeUnloadEvent) => {
      if (!unsaved()) return;
      event.preventDefault();
      // Older browsers ask only when returnValue is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [armed, unsaved]);

  // The dialog closes itself after Leave (onOpenChange false): that close is Leave's, not a Stay.
  const left = useRef(false);
  const answer = (leave: boolean) => {
    if (blocker.state === 'blocked') {
      if (leave) blocker.proceed();
      else blocker.reset();
    }
    asking?.(leave);
    setAsking(null);
  };

  const open = blocker.state === 'blocked' || asking !== null;
  return (
    <UnsavedContext.Provider value={registry}>
      <ConfirmLeaveContext.Provider value={confirmLeave}>
        {children}
        {(armed || open) && (
          <OrBrowserConfirm open={open} ask={() => answer(window.confirm(t('leave.message')))}>
            <LeaveDialog
              isOpen={open}
              onStay={() => {
                if (left.current) left.current = false;
                else answer(false);
              }}
              onLeave={() => {
                left.current = true;
                answer(true);
              }}
            />
          </OrBrowserConfirm>
        )}
      </ConfirmLeaveContext.Provider>
    </UnsavedContext.Provider>
  );
}
