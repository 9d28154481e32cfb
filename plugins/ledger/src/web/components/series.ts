/** A month with balance 0 shows the last non-zero balance before it (spec 02 section 9). */
export function carryForward(points: readonly { Date: string; Balance: number }[]): { Date: string; Balance: number }[] {
  let last = 0;
  return points.map((p) => {
    if (p.Balance !== 0) last = p.Balance;
    return { Date: p.Date, Balance: p.Balance === 0 ? last : p.Balance };
  });
}
