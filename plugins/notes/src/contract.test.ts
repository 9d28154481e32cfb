import { describe, expect, it } from 'vitest';
import {
  DEFAULT_NOTE_TYPE,
  NOTE_AUTHOR_KIND_NAMES,
  NOTE_AUTHOR_KINDS,
  NOTE_TYPE_NAMES,
  noteCreateSchema,
  noteSchema,
  noteTypeIdOf,
  noteUpdateSchema,
} from './contract';
import serverEs from './server/i18n/es.json';
import webEn from './web/i18n/en.json';
import webEs from './web/i18n/es.json';

const note = {
  NoteID: 1,
  MemberID: 2,
  NoteText: 'Hello',
  NoteTypeID: 1,
  CreatedBy: 'Ann Lee',
  CreatedByKind: 'Member',
  CreatedDate: '2026-03-01T10:00:00.000Z',
  UpdatedDate: '2026-03-01T10:00:00.000Z',
  ReplyToID: null,
  IsRead: true,
  CanEdit: true,
  Version: 1,
  Attachments: [],
};

describe('note type by name (spec 02 section 3: NoteType, default Member Notes)', () => {
  it('names the types as the Note Type lookup does', () => {
    expect(NOTE_TYPE_NAMES).toEqual({ 1: 'Member Notes', 2: 'Support Notes', 3: 'System Notes' });
    expect(DEFAULT_NOTE_TYPE).toBe('Member Notes');
  });
  it('a note carries NoteType', () => {
    expect(noteSchema.safeParse({ ...note, NoteType: 'Member Notes' }).success).toBe(true);
    expect(noteSchema.safeParse(note).success).toBe(false);
  });
  it('takes the name on create and update (trimmed, any case), Member Notes when neither name nor id is sent', () => {
    const created = noteCreateSchema.parse({ NoteText: 'hi', NoteType: ' support NOTES ' });
    expect(created.NoteType).toBe('Support Notes');
    expect(noteTypeIdOf(created)).toBe(2);
    expect(noteTypeIdOf(noteCreateSchema.parse({ NoteText: 'hi' }))).toBe(1);
    expect(noteTypeIdOf(noteCreateSchema.parse({ NoteText: 'hi', NoteTypeID: 2 }))).toBe(2);
    expect(noteTypeIdOf(noteUpdateSchema.parse({ NoteID: 1, Version: 1, NoteText: 'hi', NoteType: 'Member Notes' }))).toBe(1);
  });
  it('refuses an unknown name, System Notes, a non-text and a name that contradicts NoteTypeID', () => {
    for (const body of [{ NoteType: 'Urgent Notes' }, { NoteType: 'System Notes' }, { NoteType: 2 }, { NoteType: 'Support Notes', NoteTypeID: 1 }]) {
      const r = noteCreateSchema.safeParse({ NoteText: 'hi', ...body });
      expect(r.success, JSON.stringify(body)).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual(['NoteType']);
    }
  });
});

describe('the create’s IdempotencyKey (ours, not the spec’s)', () => {
  it('is optional, trimmed, 8 to 100 letters, digits or - _ . :', () => {
    expect(noteCreateSchema.parse({ NoteText: 'hi' }).IdempotencyKey).toBeUndefined();
    expect(noteCreateSchema.parse({ NoteText: 'hi', IdempotencyKey: ' note-1a2b3c4d ' }).IdempotencyKey).toBe('note-1a2b3c4d');
    for (const bad of ['x', 'has spaces in it', 'note/1a2b3c4d', 'k'.repeat(101), 42]) {
      expect(noteCreateSchema.safeParse({ NoteText: 'hi', IdempotencyKey: bad }).error?.issues[0]?.path, JSON.stringify(bad)).toEqual(['IdempotencyKey']);
    }
  });
});

describe('who wrote a note, by the name the pages show (the search finds notes by it)', () => {
  it("names each author kind in English as the web's notes:kind does, and in Spanish as the server's catalogue does", () => {
    for (const kind of NOTE_AUTHOR_KINDS) {
      const english = NOTE_AUTHOR_KIND_NAMES[kind];
      expect(webEn.kind[kind], kind).toBe(english);
      expect((serverEs as Record<string, string>)[english], kind).toBe(webEs.kind[kind]);
    }
  });
});
