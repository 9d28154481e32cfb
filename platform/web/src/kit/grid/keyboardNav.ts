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

/** The controls a focused cell may hold, which Space or Enter on the cell operates (see cellOperates). */
export const CELL_CONTROLS = 'input[type="checkbox"], input[type="radio"], button, a[href]';

/**
 * Whether a key pressed on a focused cell operates the control in it: Space or Enter press a checkbox, radio or button;
 * a link follows Enter only, as a link does (Space scrolls the page).
 */
export function cellOperates(key: string, controlTag: string): boolean {
  if (key === 'Enter') return true;
  return key === ' ' && controlTag.toUpperCase() !== 'A';
}
