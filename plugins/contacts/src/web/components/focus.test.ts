import { isFocusFree } from '@portal/web/focus';
import { describe, expect, it } from 'vitest';
import { detailFocusStep, listReturn, rowTakesFocus } from './focus';

const body = { name: 'body' };
const list = { name: 'list' };
const search = { name: 'search' };

describe("focus when a contact's detail replaces the list", () => {
  it("opening a contact puts focus on its heading (the contact's name) once it is read; it waits while it loads", () => {
    expect(detailFocusStep('view', 'loading', true)).toEqual({ target: null, settled: false });
    expect(detailFocusStep('view', 'view', true)).toEqual({ target: 'heading', settled: true });
  });

  it("Add contact, and Edit, put focus on the form's first field", () => {
    expect(detailFocusStep('form', 'form', true)).toEqual({ target: 'firstField', settled: true });
  });

  it('a contact that could not be read puts focus on the failure (its Try again, or the message)', () => {
    expect(detailFocusStep('view', 'failed', true)).toEqual({ target: 'failure', settled: true });
  });

  it('moves nothing when nothing was asked, when the user moved on while it loaded, or when another part shows', () => {
    expect(detailFocusStep(null, 'view', true)).toEqual({ target: null, settled: true });
    expect(detailFocusStep('view', 'view', false)).toEqual({ target: null, settled: true });
    expect(detailFocusStep('form', 'view', true)).toEqual({ target: null, settled: true });
  });
});

describe('focus when the list comes back', () => {
  it('returns to the name of the contact that was open (Back to list, Save or Cancel)', () => {
    expect(listReturn(12, undefined)).toEqual({ row: 12 });
    expect(listReturn(12, 12)).toEqual({ row: 12 });
  });

  it("returns to a new contact's name once saved, and to Add contact when it was cancelled", () => {
    expect(listReturn('new', 40)).toEqual({ row: 40 });
    expect(listReturn('new', undefined)).toBe('add');
  });

  it("the contact's name takes focus when drawn, while focus is lost or held by the list meanwhile", () => {
    expect(rowTakesFocus({ row: 12 }, 12, isFocusFree(body, body, list))).toBe(true);
    expect(rowTakesFocus({ row: 12 }, 12, isFocusFree(list, body, list))).toBe(true);
  });

  it("no other contact's name takes it, nor any once the user moved on (typing a search)", () => {
    expect(rowTakesFocus({ row: 12 }, 13, true)).toBe(false);
    expect(rowTakesFocus('add', 12, true)).toBe(false);
    expect(rowTakesFocus(null, 12, true)).toBe(false);
    expect(rowTakesFocus({ row: 12 }, 12, isFocusFree(search, body, list))).toBe(false);
  });
});
