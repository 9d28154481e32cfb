import { createGlobalTheme } from '@vanilla-extract/css';
import { type BrandColours, baseTokens, colours } from './base';
import { vars } from './contract.css';
import { PALETTES } from './palettes';

createGlobalTheme(':root', vars, {
  ...baseTokens,
  color: colours(PALETTES.assist as BrandColours),
});
