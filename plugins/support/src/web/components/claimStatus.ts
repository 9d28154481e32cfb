import { displayStatus } from '@portal/plugin-claims/contract';

/**
 * A bill's status as the claims pages show it: its name from the lookup cache in the page's language (the kit's lookup
 * names), with the paid statuses (29, 30) shown as Paid; the id while the cache has no such item.
 */
export const claimStatusLabel = (statusNames: ReadonlyMap<number, string>, id: number): string => statusNames.get(displayStatus(id)) ?? String(id);

/** A status support may move the bill to, by its own name (not folded into Paid): the choice is that status. */
export const nextStatusLabel = (statusNames: ReadonlyMap<number, string>, id: number): string => statusNames.get(id) ?? String(id);
