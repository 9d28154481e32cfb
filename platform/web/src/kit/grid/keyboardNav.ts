export interface CellPosition {
  /** 0 is the header row; data rows start at 1. */
  row: number;
  col: number;
}

export interface GridBounds {
  rowCount: number;
  colCount: number;
  /** Rows moved by PageUp/PageDown. */
  pageRows: number;
}

/** Next active cell for a key, following the ARIA grid pattern; null when the key is not a grid key. */
export function moveCell(from: CellPosition, key: string, bounds: GridBounds, ctrl = false): CellPosition | null {
  const lastRow = Math.max(0, bounds.rowCount - 1);
  const lastCol = Math.max(0, bounds.colCount - 1);
  const clamp = (row: number, col: number) => ({ row: Math.min(lastRow, Math.max(0, row)), col: Math.min(lastCol, Math.max(0, col)) });
  switch (key) {
    case 'ArrowUp':
      return clamp(from.row - 1, from.col);
    case 'ArrowDown':
      return clamp(from.row + 1, from.col);
    case 'ArrowLeft':
      return clamp(from.row, from.col - 1);
    case 'ArrowRight':
      return clamp(from.row, from.col + 1);
    case 'Home':
      return ctrl ? clamp(0, 0) : clamp(from.row, 0);
    case 'End':
      return ctrl ? clamp(lastRow, lastCol) : clamp(from.row, lastCol);
    case 'PageUp':
      return clamp(from.row - bounds.pageRows, from.col);
    case 'PageDown':
      return clamp(from.row + bounds.pageRows, from.col);
    default:
      return null;
  }
}

/** The controls a focused cell may hold, which a key on the cell operates or moves into (see cellKeyAction). */
export const CELL_CONTROLS = 'input[type="checkbox"], input[type="radio"], button, a[href]';

/**
 * What a key pressed on a focused cell does with the controls in it (their tag names, in order), as the ARIA grid
 * pattern has it:
 * - one control: Space or Enter press a checkbox, radio or button, and a link follows Enter only, as a link does (Space
 *   scrolls the page): 'operate';
 * - more than one (a row's actions: Charge, Refund): Enter moves focus to the first, and Tab then reaches the others;
 *   pressing one unseen could move money: 'enter';
 * - F2 moves focus into any cell with a control: 'enter';
 * - otherwise nothing (null).
 */
export function cellKeyAction(key: string, controlTags: readonly string[]): 'operate' | 'enter' | null {
  const [first] = controlTags;
  if (first === undefined) return null;
  if (key === 'F2') return 'enter';
  if (controlTags.length > 1) return key === 'Enter' ? 'enter' : null;
  if (key === 'Enter') return 'operate';
  return key === ' ' && first.toUpperCase() !== 'A' ? 'operate' : null;
}
