/** Keeps only ASCII digits, optionally truncated; the base of every numeric mask. */
export function onlyDigits(input: string | null | undefined, max = Number.POSITIVE_INFINITY): string {
  return (input ?? '').replace(/\D/g, '').slice(0, max);
}
