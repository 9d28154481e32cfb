/** What the box holds: a member ID (digits), a member number (letters and digits, e.g. D30661806), or neither. */
export function memberChoice(typed: string): { kind: 'id'; id: number } | { kind: 'number'; number: string } | null {
  if (/^\d{1,9}$/.test(typed)) {
    const id = Number(typed);
    return id > 0 ? { kind: 'id', id } : null;
  }
  if (/^[A-Za-z][A-Za-z0-9-]{0,29}$/.test(typed)) return { kind: 'number', number: typed };
  return null;
}
