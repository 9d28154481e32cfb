/** Numeric cap (spec 02 section 5): a value above the bound resets to the bound; a lower bound is optional. */
export function capNumber(value: number, max: number, min?: number): number {
  if (Number.isNaN(value)) return value;
  if (value > max) return max;
  if (min !== undefined && value < min) return min;
  return value;
}
