/** The price finder's arithmetic (spec 02 sections 3 and 5), in integer cents so sums do not drift. */

/**
 * A count or price as typed or sent: anything non-numeric (empty, text, NaN, infinity ...) counts as 0 (spec 02
 * section 5), and so does a negative number: a negative count of tablets or price makes no sense, and would turn the
 * totals and the savings negative.
 */
export function numeric(value: unknown): number {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : 0;
}

export interface LineFigures {
  /** Our price per unit as a number (0 when non-numeric), cents. */
  derivedOurCents: number;
  /** Our price × units, cents. */
  totalOurCents: number;
  /** AWP × units, cents. */
  totalCents: number;
  /** What the member saves on the line: total price − total our price, cents. */
  savingsCents: number;
}

export function lineFigures(line: { OurPrice: unknown; AWPPrice: unknown }, units: unknown): LineFigures {
  const u = numeric(units);
  const derivedOurCents = Math.round(numeric(line.OurPrice) * 100);
  const awpCents = Math.round(numeric(line.AWPPrice) * 100);
  const totalOurCents = Math.round(derivedOurCents * u);
  const totalCents = Math.round(awpCents * u);
  return { derivedOurCents, totalOurCents, totalCents, savingsCents: totalCents - totalOurCents };
}

/** The savings table: the sums over the selected lines. */
export function totals(lines: readonly LineFigures[]): Omit<LineFigures, 'derivedOurCents'> {
  return lines.reduce(
    (s, l) => ({ totalOurCents: s.totalOurCents + l.totalOurCents, totalCents: s.totalCents + l.totalCents, savingsCents: s.savingsCents + l.savingsCents }),
    { totalOurCents: 0, totalCents: 0, savingsCents: 0 },
  );
}
