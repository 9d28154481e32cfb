import { createGlobalTheme } from '@vanilla-extract/css';
import { baseTokens, colours } from './base';
import { vars } from './contract.css';

createGlobalTheme(':root', vars, {
  ...baseTokens,
  color: colours({ brandAccent: '#5b2a86', brandAccentHover: '#47206a', body: '#f7f4fb', link: '#5b2a86' }),
});
