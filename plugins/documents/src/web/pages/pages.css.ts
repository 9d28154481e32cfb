import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const controls = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.medium, alignItems: 'flex-end', marginBottom: vars.space.medium });
export const table = style({ width: '100%', borderCollapse: 'collapse' });
export const caption = style({ textAlign: 'left', color: vars.color.foreground.muted, paddingBottom: vars.space.small });
export const cell = style({ textAlign: 'left', padding: vars.space.small, borderBottom: `1px solid ${vars.color.border.standard}` });
export const pager = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.small, alignItems: 'center', marginTop: vars.space.medium });
