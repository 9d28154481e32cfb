import { createGlobalTheme } from '@vanilla-extract/css';
import { baseTokens, colours } from './base';
import { vars } from './contract.css';

createGlobalTheme(':root', vars, {
  ...baseTokens,
  color: colours({ brandAccent: '#1f5fae', brandAccentHover: '#174a88', body: '#f4f7fb', link: '#1a56a0' }),
});
