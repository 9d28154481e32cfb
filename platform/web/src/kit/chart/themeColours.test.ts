import { afterEach, describe, expect, it, vi } from 'vitest';
import { GAUGE_BANDS } from './gauge';
import { chartColours, cssVariableName, gaugeColour, themeColour } from './themeColours';

// The theme contract as the build makes it (vanilla-extract): each value a `var(--name)`. Without the build's plugin the
// contract cannot be created in a unit test, so these stand in for it.
vi.mock('@portal/themes', () => ({
  vars: {
    color: {
      background: { brandAccent: 'var(--color-background-brandAccent__x1)' },
      border: { standard: 'var(--color-border-standard__x2)' },
      foreground: {
        critical: 'var(--color-foreground-critical__x3)',
        caution: 'var(--color-foreground-caution__x4)',
        positive: 'var(--color-foreground-positive__x5)',
      },
    },
  },
}));

/** A page whose root has these custom properties set (a brand theme's style sheet). */
function themedPage(properties: Record<string, string>) {
  const root = { tagName: 'HTML' };
  vi.stubGlobal('document', { documentElement: root });
  vi.stubGlobal('getComputedStyle', (element: unknown) => ({
    getPropertyValue: (name: string) => (element === root ? (properties[name] ?? '') : ''),
  }));
  return root;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("chart colours from the brand's theme", () => {
  it('finds the custom property behind a contract value', () => {
    expect(cssVariableName('var(--color-border-standard__x2)')).toBe('--color-border-standard__x2');
    expect(cssVariableName('var( --a, #fff)')).toBe('--a');
    expect(cssVariableName('#d7dbe3')).toBeNull();
  });

  it("draws the series in the brand's accent, the grid and the gauge's track in its border, the bands in its tones", () => {
    themedPage({
      '--color-background-brandAccent__x1': ' #b4521a ',
      '--color-border-standard__x2': '#d7dbe3',
      '--color-foreground-critical__x3': '#b42318',
      '--color-foreground-positive__x5': '#146c2e',
    });
    expect(chartColours()).toEqual({ series: '#b4521a', grid: '#d7dbe3', track: '#d7dbe3' });
    expect(gaugeColour(GAUGE_BANDS[0])).toBe('#b42318');
    expect(gaugeColour(GAUGE_BANDS[2])).toBe('#146c2e');
    // A tone the theme leaves unset: the band's own colour.
    expect(gaugeColour(GAUGE_BANDS[1])).toBe('#8a5300');
  });

  it('reads the theme where a given element is', () => {
    const root = themedPage({ '--color-border-standard__x2': '#aabbcc' });
    expect(themeColour('var(--color-border-standard__x2)', '#000000', root as unknown as Element)).toBe('#aabbcc');
    expect(themeColour('var(--color-border-standard__x2)', '#000000', {} as Element)).toBe('#000000');
  });

  it('keeps the literal colours where no theme is set or there is no page (unit tests, the server)', () => {
    expect(chartColours()).toEqual({ series: '#1f4e8c', grid: '#d5dbe5', track: '#e4e8ef' });
    expect(GAUGE_BANDS.map((b) => gaugeColour(b))).toEqual(['#b3261e', '#8a5300', '#1e6b3c']);
    themedPage({});
    expect(chartColours()).toEqual({ series: '#1f4e8c', grid: '#d5dbe5', track: '#e4e8ef' });
  });
});
