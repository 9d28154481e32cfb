import { vars } from '@portal/themes';
import { globalStyle, style } from '@vanilla-extract/css';

/** How many quotes, and the way to a new one, on one line above the latest quotes. */
export const summary = style({ margin: `0 0 ${vars.space.small}`, display: 'flex', flexWrap: 'wrap', gap: `0 ${vars.space.medium}` });
globalStyle(`${summary} a`, { color: vars.color.foreground.link });
