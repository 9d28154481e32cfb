import { describe, expect, it } from 'vitest';
import {
  type FieldCandidate,
  firstTabbableField,
  isFocusFree,
  isTabbableField,
  nearestEnabled,
  neighboursOf,
  swapFocusStep,
  swapFocusTarget,
} from './swapFocus';

const body = { name: 'body' };
const editButton = { name: 'edit' };
const firstName = { name: 'FirstName' };

describe("focus across a record's view/edit swap (profile, addresses, a user's Details tab)", () => {
  it('Edit puts focus on the first field of the form', () => {
    expect(swapFocusTarget('form', 'form', true)).toBe('firstField');
  });

  it('a save that went through, and Cancel, put it back on Edit', () => {
    expect(swapFocusTarget('view', 'view', true)).toBe('edit');
  });

  it('moves nothing when nothing was asked, when the tab does not show what was asked, or when focus is not free', () => {
    expect(swapFocusTarget(null, 'view', true)).toBeNull();
    expect(swapFocusTarget('view', 'form', true)).toBeNull();
    expect(swapFocusTarget('form', 'form', false)).toBeNull();
  });

  it('waits while the form is not ready (the company picker is disabled until the companies are in), then moves', () => {
    expect(swapFocusStep('form', 'form', false, true)).toEqual({ target: null, settled: false });
    expect(swapFocusStep('form', 'form', true, true)).toEqual({ target: 'firstField', settled: true });
  });

  it('settles without moving when nothing was asked or the user moved on while it waited', () => {
    expect(swapFocusStep(null, 'form', false, true)).toEqual({ target: null, settled: true });
    expect(swapFocusStep('form', 'form', true, false)).toEqual({ target: null, settled: true });
  });
});

describe('whether focus is free to be moved', () => {
  it('is free when lost (Edit, Save or Cancel went away with its part) or still on the control that asked', () => {
    expect(isFocusFree(body, body, editButton)).toBe(true);
    expect(isFocusFree(null, body, editButton)).toBe(true);
    expect(isFocusFree(editButton, body, editButton)).toBe(true);
  });

  it('is not free once the user put it somewhere else (typing in a field while the companies load)', () => {
    expect(isFocusFree(firstName, body, editButton)).toBe(false);
    expect(isFocusFree(firstName, body, undefined)).toBe(false);
  });
});

const field = (name: string, change: Partial<FieldCandidate> & { hidden?: boolean } = {}): FieldCandidate & { name: string } => ({
  tabIndex: 0,
  disabled: false,
  type: 'button',
  ...change,
  name,
  closest: () => (change.hidden ? { tag: 'div' } : null),
});

describe("the Details form's first field", () => {
  it("is the company picker's button, not the hidden native select beside it", () => {
    const fields = [field('companySelect', { tabIndex: -1, hidden: true }), field('CompanyId'), field('ContactId', { disabled: true })];
    expect(isTabbableField(fields[0] as FieldCandidate)).toBe(false);
    expect(firstTabbableField(fields)?.name).toBe('CompanyId');
  });

  it('is the next enabled field when the pickers have no choices (disabled)', () => {
    const fields = [field('CompanyId', { disabled: true }), field('ContactId', { disabled: true }), field('FirstName', { type: 'text' })];
    expect(firstTabbableField(fields)?.name).toBe('FirstName');
  });

  it('skips hidden inputs and is none when nothing can take focus', () => {
    expect(firstTabbableField([field('token', { type: 'hidden' })])).toBeNull();
  });
});

describe('neighboursOf: where focus looks after a row went', () => {
  it('the rows after it first, nearest first, then the rows before it, nearest first; nothing for a row not shown', () => {
    expect(neighboursOf(['1', '2', '3', '4'], '2')).toEqual(['3', '4', '1']);
    expect(neighboursOf(['1', '2'], '2')).toEqual(['1']);
    expect(neighboursOf(['1', '2'], '9')).toEqual([]);
  });
});

describe('nearestEnabled: where focus goes when the pressed button of a group is disabled by its press', () => {
  // A pager: First, Previous, Next, Last.
  it('Next or Last on the last page hands focus back to Previous; First or Previous on the first page to Next', () => {
    const onLast = [false, false, true, true];
    expect(nearestEnabled(onLast, 2)).toBe(1);
    expect(nearestEnabled(onLast, 3)).toBe(1);
    const onFirst = [true, true, false, false];
    expect(nearestEnabled(onFirst, 0)).toBe(2);
    expect(nearestEnabled(onFirst, 1)).toBe(2);
  });
  it('finds nothing when every button is disabled (a single page)', () => {
    expect(nearestEnabled([true, true, true, true], 2)).toBe(-1);
  });
});
