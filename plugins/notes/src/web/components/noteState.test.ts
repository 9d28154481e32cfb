import { describe, expect, it } from 'vitest';
import { NoteType } from '../../contract';
import { isEdited } from './noteEdited';
import { defaultNoteType, staleAfterOpening } from './noteState';

describe('a note edited after it was written', () => {
  it('is marked when UpdatedDate is after CreatedDate, not when they are the same', () => {
    expect(isEdited({ CreatedDate: '2026-03-10T12:00:00.000Z', UpdatedDate: '2026-03-10T12:00:00.000Z' })).toBe(false);
    expect(isEdited({ CreatedDate: '2026-03-10T12:00:00.000Z', UpdatedDate: '2026-03-10T12:05:00.000Z' })).toBe(true);
  });
});

describe('opening a note', () => {
  const opened = ['notes', 'one', 7];
  const stale = staleAfterOpening(opened);
  it("makes the list's pages, the recent notes and the badge stale, so none still shows it new", () => {
    expect(stale({ queryKey: ['notes', 'list', { DateFrom: '2022-01-01', DateTo: '2026-01-01' }, { pageIndex: 0 }] })).toBe(true);
    expect(stale({ queryKey: ['notes', 'recent'] })).toBe(true);
    expect(stale({ queryKey: ['notes', 'unread'] })).toBe(true);
    expect(stale({ queryKey: ['notes', 'one', 8] })).toBe(true);
  });
  it('leaves the note just read and other plugins’ queries alone', () => {
    expect(stale({ queryKey: ['notes', 'one', 7] })).toBe(false);
    expect(stale({ queryKey: ['claims', 'list'] })).toBe(false);
  });
});

describe('the note type a new message starts with', () => {
  it('is Support Notes for staff and Member Notes for a member', () => {
    expect(defaultNoteType(true)).toBe(NoteType.Support);
    expect(defaultNoteType(false)).toBe(NoteType.Member);
  });
});
