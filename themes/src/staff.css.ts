import { createGlobalTheme } from '@vanilla-extract/css';
import { baseTokens, colours } from './base';
import { vars } from './contract.css';

createGlobalTheme(':root', vars, {
  ...baseTokens,
  color: colours({ brandAccent: '#2f3b52', brandAccentHover: '#1f283a', body: '#f4f5f7', link: '#24508f' }),
});
