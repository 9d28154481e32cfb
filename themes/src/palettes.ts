import type { BrandColours } from './base';

/**
 * Each theme's own colours, as plain values: the theme files build their CSS from them, and the server draws them into
 * the brand's PDFs (statements, letters, the card).
 */
export const PALETTES: Record<string, BrandColours> = {
  assist: { brandAccent: '#1e7b45', brandAccentHover: '#166236', body: '#f3f9f5', link: '#17693a' },
  card: { brandAccent: '#5b2a86', brandAccentHover: '#47206a', body: '#f7f4fb', link: '#5b2a86' },
  finance: { brandAccent: '#1f5fae', brandAccentHover: '#174a88', body: '#f4f7fb', link: '#1a56a0' },
  quote: { brandAccent: '#b4521a', brandAccentHover: '#8f4014', body: '#fbf6f2', link: '#9c4614' },
  staff: { brandAccent: '#2f3b52', brandAccentHover: '#1f283a', body: '#f4f5f7', link: '#24508f' },
};
