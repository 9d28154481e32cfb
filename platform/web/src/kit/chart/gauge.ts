/**
 * The gauge's bands (spec 02 section 9: 0-40, 40-80, 80-100). Each is drawn in the theme's foreground colour of its
 * tone (vars.color.foreground.critical, caution, positive: ./themeColours); `colour`, of at least 4.5:1 on white, is
 * what it is drawn in where the theme's colour cannot be read.
 */
export const GAUGE_BANDS = [
  { from: 0, to: 40, colour: '#b3261e', tone: 'critical', key: 'low' },
  { from: 40, to: 80, colour: '#8a5300', tone: 'caution', key: 'middle' },
  { from: 80, to: 100, colour: '#1e6b3c', tone: 'positive', key: 'high' },
] as const;

export type GaugeBand = (typeof GAUGE_BANDS)[number];

/** The band a gauge value (0-100, clamped) falls in; a boundary value belongs to the upper band. */
export function gaugeBand(value: number): GaugeBand {
  const v = Math.min(100, Math.max(0, value));
  return GAUGE_BANDS.find((b) => v < b.to) ?? GAUGE_BANDS[2];
}
