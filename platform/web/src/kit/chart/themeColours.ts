import { vars } from '@portal/themes';
import type { GaugeBand } from './gauge';

/** The custom property behind a theme contract's value: vars.color.border.standard is 'var(--name)', this is '--name'. */
export function cssVariableName(reference: string): string | null {
  return /^var\(\s*(--[^\s,)]+)/.exec(reference)?.[1] ?? null;
}

/**
 * A theme colour as a literal, for what cannot take `var(--name)` (apexcharts draws its colours into SVG attributes
 * and works out shades from them): the value the theme gives the contract's custom property where `element` is (the
 * page's root when none is given). The fallback while the property is unset: no theme style sheet (unit tests, the
 * server), or no page at all.
 */
export function themeColour(reference: string, fallback: string, element?: Element | null): string {
  const name = cssVariableName(reference);
  const at = element ?? globalThis.document?.documentElement;
  if (!name || !at || typeof globalThis.getComputedStyle !== 'function') return fallback;
  return globalThis.getComputedStyle(at).getPropertyValue(name).trim() || fallback;
}

/** The colours a chart is drawn in. */
export interface ChartColours {
  /** Bars and lines: the brand's accent. */
  series: string;
  /** The grid lines of bar and line charts. */
  grid: string;
  /** The gauge's track, behind its bar. */
  track: string;
}

/**
 * The brand theme's chart colours where `element` is; each literal is its fallback (a dark blue of 7:1 on white for
 * the series, light greys for the grid and the track).
 */
export function chartColours(element?: Element | null): ChartColours {
  return {
    series: themeColour(vars.color.background.brandAccent, '#1f4e8c', element),
    grid: themeColour(vars.color.border.standard, '#d5dbe5', element),
    track: themeColour(vars.color.border.standard, '#e4e8ef', element),
  };
}

/** A gauge band's colour: the theme's foreground colour of its tone, else the band's own. */
export function gaugeColour(band: GaugeBand, element?: Element | null): string {
  return themeColour(vars.color.foreground[band.tone], band.colour, element);
}
