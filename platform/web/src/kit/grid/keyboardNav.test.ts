import { describe, expect, it } from 'vitest';
import { cellKeyAction, moveCell } from './keyboardNav';

const bounds = { rowCount: 11, colCount: 4, pageRows: 5 };

describe('keyboard navigation', () => {
  it('moves by arrows, home/end and pages, clamped to the grid', () => {
    expect(moveCell({ row: 0, col: 0 }, 'ArrowUp', bounds)).toEqual({ row: 0, col: 0 });
    expect(moveCell({ row: 0, col: 0 }, 'ArrowDown', bounds)).toEqual({ row: 1, col: 0 });
    expect(moveCell({ row: 3, col: 3 }, 'ArrowRight', bounds)).toEqual({ row: 3, col: 3 });
    expect(moveCell({ row: 3, col: 2 }, 'Home', bounds)).toEqual({ row: 3, col: 0 });
    expect(moveCell({ row: 3, col: 2 }, 'End', bounds)).toEqual({ row: 3, col: 3 });
    expect(moveCell({ row: 3, col: 2 }, 'Home', bounds, true)).toEqual({ row: 0, col: 0 });
    expect(moveCell({ row: 3, col: 2 }, 'End', bounds, true)).toEqual({ row: 10, col: 3 });
    expect(moveCell({ row: 8, col: 1 }, 'PageDown', bounds)).toEqual({ row: 10, col: 1 });
    expect(moveCell({ row: 3, col: 1 }, 'PageUp', bounds)).toEqual({ row: 0, col: 1 });
    expect(moveCell({ row: 3, col: 1 }, 'Enter', bounds)).toBeNull();
  });

  it('stays inside the grid for any key sequence', () => {
    const keys = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown'];
    let pos = { row: 0, col: 0 };
    for (let i = 0; i < 2000; i++) {
      pos = moveCell(pos, keys[(i * 7 + (i >> 3)) % keys.length] as string, bounds, i % 5 === 0) ?? pos;
      expect(pos.row).toBeGreaterThanOrEqual(0);
      expect(pos.row).toBeLessThan(bounds.rowCount);
      expect(pos.col).toBeGreaterThanOrEqual(0);
      expect(pos.col).toBeLessThan(bounds.colCount);
    }
  });
});

describe('a key on a focused cell operates its control', () => {
  it('Space and Enter press a lone checkbox or button; a link (a record’s name) follows Enter only, as links do', () => {
    expect(cellKeyAction(' ', ['INPUT'])).toBe('operate');
    expect(cellKeyAction('Enter', ['BUTTON'])).toBe('operate');
    expect(cellKeyAction('Enter', ['A'])).toBe('operate');
    expect(cellKeyAction(' ', ['A'])).toBeNull();
    expect(cellKeyAction('x', ['BUTTON'])).toBeNull();
    expect(cellKeyAction('Enter', [])).toBeNull();
  });

  it('never presses one of several controls unseen (a row’s Charge and Refund): Enter or F2 moves into the cell, Space does nothing', () => {
    expect(cellKeyAction('Enter', ['BUTTON', 'BUTTON'])).toBe('enter');
    expect(cellKeyAction('F2', ['BUTTON', 'BUTTON'])).toBe('enter');
    expect(cellKeyAction(' ', ['BUTTON', 'BUTTON'])).toBeNull();
    expect(cellKeyAction('F2', ['BUTTON'])).toBe('enter');
  });
});
