import { vars } from '@portal/themes';
import { style } from '@vanilla-extract/css';

export const message = style({ margin: 0, color: vars.color.foreground.text });
