export { vars } from './contract.css';
export const THEME_IDS = ['finance', 'assist', 'quote', 'card', 'staff'] as const;
