import { vars } from '@portal/themes';
import { globalStyle, style } from '@vanilla-extract/css';

/**
 * The recent claims as a compact table: one line a claim on a wide frame, so the six fit the dashboard's fixed frame
 * (a narrow one wraps the payee's name and scrolls).
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
/** Days keep to one line. */
export const nowrap = style({ whiteSpace: 'nowrap' });
/** The amount column, right-aligned in tabular figures so the cents line up. */
export const amount = style({ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' });
globalStyle(`${table} th${amount}, ${table} td${amount}`, { textAlign: 'right', paddingRight: 0 });
