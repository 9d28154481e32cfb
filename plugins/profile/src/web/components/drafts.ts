import { newCreateKey, SubmissionKeys } from '@portal/web';
import { type KeptEdits, valuesText } from '@portal/web/kit';
import { hashKey, type QueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * An open edit of one of the profile's editors (a member's details, one address): the record it started from and the
 * values as typed. Kept outside the editor's panel, so a tab switch (the kit's Tabs draw only the selected panel) and
 * back shows the edit still open with what was typed; and kept apart from the live query, so a refetch bringing
 * someone else's Version neither resets the form nor moves the Version the save sends.
 */
export interface Draft<R, V> {
  /** The record the edit started from (null: a new one). The form shows it and the save sends its Version. */
  start: R;
  /** The values as typed. */
  values: V;
  /** The values the edit opened with (the record's, or an empty address's): typed changes are what differs from them. */
  opened: V;
  /** Which opening this is: a form is drawn anew for each (Edit, Add, or Reload opens the edit again). */
  id: number;
  /**
   * The IdempotencyKeys of this opening's saves when they create (a new address): kept with the edit, not the form, so
   * Save pressed again after a failure (its answer lost) sends the key it was sent with even when the tab was left and
   * opened again meanwhile, and the server answers the address it added instead of adding a second one.
   */
  keys: SubmissionKeys;
}

/** Whose record an editor edits: the signed-in member's (/member) or a member's by id (support's member tabs). */
export type DraftScope = 'own' | 'support';

/** The member's details, or one address (by id, or 'new' for the one being added). */
export type DraftEditor = 'member' | `address/${number | 'new'}`;

export const draftKey = (scope: DraftScope, memberId: number, editor: DraftEditor) => `${scope}/${memberId}/${editor}`;

/**
 * The profile editors' open edits, by scope, member and editor. An edit opens on Edit (or Add), takes the values as
 * they are typed, and ends when it is saved or cancelled; Reload opens it again from the record as it is now. Nothing
 * else replaces it: the live record moving on (a refetch) does not.
 *
 * Its edits outlive the page, so it tells the leave guard itself (KeptEdits, given to keepEditsForTab): a sign-out, or
 * closing the tab, asks while an open edit holds changes, whichever page is drawn then.
 */
export class DraftStore implements KeptEdits {
  private readonly drafts = new Map<string, Draft<unknown, unknown>>();
  private readonly listeners = new Set<() => void>();
  private opened = 0;

  get<R, V>(key: string): Draft<R, V> | undefined {
    return this.drafts.get(key) as Draft<R, V> | undefined;
  }

  /** Opens an edit from `start` with `values` in the form, replacing any open one (Edit, Add, Reload). */
  open<R, V>(key: string, start: R, values: V): void {
    this.opened += 1;
    // Delete first: the newest edit is the last one in the map's order (see lastAddress).
    this.drafts.delete(key);
    this.drafts.set(key, { start, values, opened: values, id: this.opened, keys: new SubmissionKeys(() => newCreateKey('profile')) });
    this.changed();
  }

  /**
   * Keeps the values as typed. The form they come from holds them while it is on screen; they are read again only
   * when a form for the edit is drawn anew, so nothing is redrawn for a keystroke. Nothing when no edit is open (a
   * form still reporting after its edit was saved or cancelled).
   */
  edit<V>(key: string, values: V): void {
    const draft = this.drafts.get(key);
    if (draft) this.drafts.set(key, { ...draft, values });
  }

  /** Ends an edit: saved, or cancelled. */
  close(key: string): void {
    if (this.drafts.delete(key)) this.changed();
  }

  /** Ends every edit (the session ended, or another began). */
  clear(): void {
    if (this.drafts.size === 0) return;
    this.drafts.clear();
    this.changed();
  }

  holdsAny(): boolean {
    return this.drafts.size > 0;
  }

  /** Whether any open edit holds values other than those it opened with. */
  unsaved(): boolean {
    for (const draft of this.drafts.values()) if (valuesText(draft.values) !== valuesText(draft.opened)) return true;
    return false;
  }

  /** The keys of the open edits, oldest opening first. */
  keys(): string[] {
    return [...this.drafts.keys()];
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed() {
    for (const listener of this.listeners) listener();
  }
}

/**
 * The address the member's Addresses view opens when it is drawn (again): the last one opened of those with an edit
 * open ('new': the one being added), or none.
 */
export function lastAddress(store: DraftStore, scope: DraftScope, memberId: number): number | 'new' | null {
  const prefix = draftKey(scope, memberId, 'address/new').slice(0, -'new'.length);
  const last = store
    .keys()
    .filter((k) => k.startsWith(prefix))
    .at(-1);
  if (last === undefined) return null;
  const id = last.slice(prefix.length);
  return id === 'new' ? 'new' : Number(id);
}

/** The record a panel shows: the one its open edit started from, whatever the live query holds now; else the live one. */
export const shownRecord = <R>(draft: Draft<R, unknown> | undefined, live: R): R => (draft ? draft.start : live);

/**
 * Ends the edits with the session they were typed in: when the signed-in user's identity leaves the query cache
 * (sign-out, a session found ended, a new sign-in: the kernel empties the cache then), so typing is never shown to
 * the next user of the browser. Answers the unsubscribe.
 */
export function endWithSession(store: DraftStore, queryClient: QueryClient, identityKey: QueryKey): () => void {
  const identity = hashKey(identityKey);
  return queryClient.getQueryCache().subscribe((event) => {
    if (event.type === 'removed' && event.query.queryHash === identity) store.clear();
  });
}
