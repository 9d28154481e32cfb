import type { VirtualItem } from '@tanstack/react-virtual';

/** Rows rendered above and below the viewport, so fast scrolling does not flash blanks. */
export const OVERSCAN = 5;

export interface WindowRange {
  /** First rendered row (inclusive). */
  start: number;
  /** Last rendered row (exclusive). */
  end: number;
  /** Spacer heights standing in for the rows not in the DOM. */
  padTop: number;
  padBottom: number;
}

export interface GridVirtualizerInput {
  rowCount: number;
  rowHeight: number;
  /** Height of the sticky head (header and filter rows) above the first body row, inside the scroll container. */
  headHeight: number;
  /** Height of the scroll container before it is measured (its max-height). */
  viewportHeight: number;
  enabled: boolean;
}

/**
 * The grid's options for @tanstack/react-virtual's virtualizer: a fixed row height, and the body starting below the
 * sticky head, which also covers the top of the viewport, so a row revealed upwards lands below it, not under it.
 */
export function gridVirtualizerOptions({ rowCount, rowHeight, headHeight, viewportHeight, enabled }: GridVirtualizerInput) {
  return {
    count: enabled ? rowCount : 0,
    enabled,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    scrollMargin: headHeight,
    scrollPaddingStart: headHeight,
    initialRect: { width: 0, height: viewportHeight },
  };
}

/** The rendered slice and the spacer heights for the virtualizer's items (every row rowHeight high). */
export function windowFromItems(items: readonly Pick<VirtualItem, 'index'>[], rowCount: number, rowHeight: number): WindowRange {
  const first = items[0];
  const last = items.at(-1);
  if (!first || !last) return { start: 0, end: 0, padTop: 0, padBottom: Math.max(0, rowCount) * rowHeight };
  const start = first.index;
  const end = last.index + 1;
  return { start, end, padTop: start * rowHeight, padBottom: (rowCount - end) * rowHeight };
}
