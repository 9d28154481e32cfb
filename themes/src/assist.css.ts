import { createGlobalTheme } from '@vanilla-extract/css';
import { baseTokens, colours } from './base';
import { vars } from './contract.css';

createGlobalTheme(':root', vars, {
  ...baseTokens,
  color: colours({ brandAccent: '#1e7b45', brandAccentHover: '#166236', body: '#f3f9f5', link: '#17693a' }),
});
