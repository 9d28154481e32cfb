export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  rowCount: number;
  /** Extra rows rendered above and below so fast scrolling does not flash blanks. */
  overscan?: number;
}

export interface WindowRange {
  /** First rendered row (inclusive). */
  start: number;
  /** Last rendered row (exclusive). */
  end: number;
  /** Spacer heights standing in for the rows not in the DOM. */
  padTop: number;
  padBottom: number;
}

/** Which rows of a fixed-height list are visible in a scroll container. */
export function computeWindow({ scrollTop, viewportHeight, rowHeight, rowCount, overscan = 5 }: WindowInput): WindowRange {
  if (rowCount <= 0 || rowHeight <= 0) return { start: 0, end: 0, padTop: 0, padBottom: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const visible = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.min(rowCount, Math.max(0, first - overscan));
  const end = Math.min(rowCount, first + visible + overscan);
  return { start, end: Math.max(start, end), padTop: start * rowHeight, padBottom: (rowCount - Math.max(start, end)) * rowHeight };
}

/** scrollTop that brings a row fully into view, or null when it already is. */
export function scrollToRow(row: number, { scrollTop, viewportHeight, rowHeight }: Omit<WindowInput, 'rowCount'>): number | null {
  const top = row * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return null;
}
