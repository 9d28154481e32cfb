import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

/** One benefit of the workbench: a box in the theme's border colour. */
export const benefit = style({
  border: `1px solid ${vars.color.border.standard}`,
  padding: '0.75rem',
  marginBottom: '0.75rem',
});

/** A wrapping row of fields. */
export const fieldRow = style({ display: 'flex', flexWrap: 'wrap', gap: '0.75rem' });

/** An annuitant's age with its remove button below it. */
export const annuitant = style({ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: '0.25rem' });
