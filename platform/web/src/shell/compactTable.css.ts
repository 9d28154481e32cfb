import { vars } from '@portal/themes';
import { globalStyle, style } from '@vanilla-extract/css';

/**
 * A compact table for a dashboard widget's few rows (recent claims, transactions, quotes): small type, a line a row,
 * hairlines between rows, muted column heads, so six rows fit a widget's fixed frame.
 */
export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: vars.font.size.small });
globalStyle(`${table} th, ${table} td`, {
  padding: `0.3rem ${vars.space.small} 0.3rem 0`,
  textAlign: 'left',
  verticalAlign: 'baseline',
  borderBottom: `1px solid ${vars.color.border.standard}`,
});
globalStyle(`${table} th`, { fontWeight: 600, color: vars.color.foreground.muted, whiteSpace: 'nowrap' });
globalStyle(`${table} tbody tr:last-child td`, { borderBottom: 'none' });
globalStyle(`${table} a`, { color: vars.color.foreground.link });
/** A cell kept to one line (a day, a count). */
export const nowrap = style({ whiteSpace: 'nowrap' });
/** An amount or a count: right-aligned, in tabular figures so the digits line up. */
export const number = style({ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' });
globalStyle(`${table} th${number}, ${table} td${number}`, { textAlign: 'right', paddingRight: 0 });
/** A cell whose text is cut with an ellipsis rather than wrapped (with `tableLayout: 'fixed'` on the table). */
export const clip = style({ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' });
