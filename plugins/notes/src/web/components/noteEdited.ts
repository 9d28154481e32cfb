import type { Note } from '../../contract';

/**
 * Edited after it was written: the server moves UpdatedDate on every saved edit (a new note has both equal). Its own
 * module, free of the contract's schemas: the dashboard's recent-notes widget uses it.
 */
export const isEdited = (n: Pick<Note, 'CreatedDate' | 'UpdatedDate'>): boolean => Date.parse(n.UpdatedDate) > Date.parse(n.CreatedDate);
