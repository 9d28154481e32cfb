/** Tokens brands share unless they override them; a brand file spreads these and supplies its colours. */
export const baseTokens = {
  font: {
    body: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    heading: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    size: { small: '0.8125rem', standard: '0.9375rem', large: '1.125rem', title: '1.5rem' },
  },
  space: { xsmall: '4px', small: '8px', medium: '16px', large: '24px', xlarge: '40px' },
  radius: { standard: '6px', large: '12px' },
  shadow: { raised: '0 1px 3px rgba(16, 24, 40, 0.12), 0 1px 2px rgba(16, 24, 40, 0.08)' },
};

const toolbar = { assist: '#1e7b45', guard: '#5b2a86', standard: '#1f5fae' };

export interface BrandColours {
  brandAccent: string;
  brandAccentHover: string;
  body: string;
  link: string;
}

export function colours(c: BrandColours) {
  return {
    background: {
      body: c.body,
      surface: '#ffffff',
      surfaceRaised: '#f7f8fa',
      brandAccent: c.brandAccent,
      brandAccentHover: c.brandAccentHover,
      formAccent: c.brandAccent,
      critical: '#fdecea',
      positive: '#e8f5ec',
      caution: '#fff6e0',
      info: '#e8f0fb',
    },
    foreground: {
      text: '#1d2433',
      muted: '#5a6478',
      onBrandAccent: '#ffffff',
      link: c.link,
      critical: '#b42318',
      positive: '#146c2e',
      caution: '#8a5a00',
      info: '#1f4f96',
      onToolbar: '#ffffff',
    },
    border: { standard: '#d7dbe3', field: '#8b93a4', focus: c.brandAccent, critical: '#b42318' },
    toolbar,
  };
}
