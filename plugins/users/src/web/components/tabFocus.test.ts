import { isFocusFree } from '@portal/web/focus';
import { describe, expect, it } from 'vitest';
import { teamFocusAfter, teamFocusStep } from './tabFocus';

const body = { name: 'body' };
const save = { name: 'Save' };
const tab = { name: 'a tab the user moved to' };

describe('which team’s button takes focus after a change to a list of teams', () => {
  const before = ['1', '2', '3', '4'];

  it('the team’s own when it is still shown (a rename that kept its row on the page, a refused change)', () => {
    expect(teamFocusAfter(before, '2', ['1', '2', '3', '4'])).toBe('2');
    expect(teamFocusAfter(before, '2', ['2', '1', '3', '4'])).toBe('2');
  });

  it('the one that took its place when it went (removed, deleted, or renamed off the page)', () => {
    expect(teamFocusAfter(before, '2', ['1', '3', '4'])).toBe('3');
    // The next one shown before is gone too (a change made elsewhere): the one after it.
    expect(teamFocusAfter(before, '2', ['1', '4'])).toBe('4');
  });

  it('the nearest one above when it was the last one shown', () => {
    expect(teamFocusAfter(before, '4', ['1', '2', '3'])).toBe('3');
    expect(teamFocusAfter(before, '4', ['1'])).toBe('1');
  });

  it('none when no team it stood among is left (the caller falls back: Teams…, or the List tab)', () => {
    expect(teamFocusAfter(['7'], '7', [])).toBeNull();
    expect(teamFocusAfter(before, '2', ['9'])).toBeNull();
    expect(teamFocusAfter([], '2', ['1'])).toBeNull();
  });
});

describe('one look at a wish for focus after a team change', () => {
  const wish = { from: save, since: 100 };
  const read = { readAt: 200, overlay: false };

  it('waits while the list shown is the one read before the change (its row may still be there, about to go)', () => {
    expect(teamFocusStep(wish, { readAt: 100, overlay: false }, true)).toEqual({ move: false, settled: false });
    expect(teamFocusStep(wish, read, true)).toEqual({ move: true, settled: true });
  });

  it('waits while a dialog over the list (the rename, the delete question) is still open', () => {
    expect(teamFocusStep(wish, { readAt: 200, overlay: true }, true)).toEqual({ move: false, settled: false });
  });

  it('waits for the mode asked for (a new team: the list), without waiting for a read when it need not', () => {
    const created = { from: save, since: null, mode: 'list' };
    expect(teamFocusStep(created, { readAt: 0, overlay: false, mode: 'new' }, true)).toEqual({ move: false, settled: false });
    expect(teamFocusStep(created, { readAt: 0, overlay: false, mode: 'list' }, true)).toEqual({ move: true, settled: true });
  });

  it('moves focus only when it is lost or still on the control pressed; a user who moved on stays', () => {
    expect(teamFocusStep(wish, read, isFocusFree(body, body, save))).toEqual({ move: true, settled: true });
    expect(teamFocusStep(wish, read, isFocusFree(save, body, save))).toEqual({ move: true, settled: true });
    expect(teamFocusStep(wish, read, isFocusFree(tab, body, save))).toEqual({ move: false, settled: true });
  });

  it('moves nothing without a wish (a tab or dialog drawn anew)', () => {
    expect(teamFocusStep(null, read, true)).toEqual({ move: false, settled: true });
  });
});
