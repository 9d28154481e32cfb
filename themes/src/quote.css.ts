import { createGlobalTheme } from '@vanilla-extract/css';
import { baseTokens, colours } from './base';
import { vars } from './contract.css';

createGlobalTheme(':root', vars, {
  ...baseTokens,
  color: colours({ brandAccent: '#b4521a', brandAccentHover: '#8f4014', body: '#fbf6f2', link: '#9c4614' }),
});
