/**
 * The next funding date: members' accounts are funded on the first business day (Monday to Friday) of each month.
 * On or before this month's funding day it is this month's, after it next month's. No holiday calendar: a funding
 * day on a federal holiday is shown as that day (see README, "Funding date").
 */
export function nextFundingDate(today: Date): string {
  const y = today.getUTCFullYear();
  const m = today.getUTCMonth();
  const todayIso = today.toISOString().slice(0, 10);
  const first = firstBusinessDay(y, m);
  return first >= todayIso ? first : firstBusinessDay(m === 11 ? y + 1 : y, (m + 1) % 12);
}

function firstBusinessDay(year: number, month: number): string {
  const d = new Date(Date.UTC(year, month, 1));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}
