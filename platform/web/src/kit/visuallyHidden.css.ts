import { visuallyHiddenRule } from '@portal/themes';
import { style } from '@vanilla-extract/css';

/**
 * Words for screen readers only (a table's caption, a field's label the layout shows another way, a count's unit): out
 * of sight and out of the layout, still read out. One class for the kit, the shell and every plugin.
 */
export const visuallyHidden = style(visuallyHiddenRule);
