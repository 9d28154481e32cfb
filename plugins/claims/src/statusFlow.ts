import { ClaimStatus } from '@portal/core';

const S = ClaimStatus;

/**
 * The claim status state machine: which status a bill may move to from each status.
 *
 *   Received ─► InReview ─► Approved ─► ScheduledForPayment ─► PaymentIssued ─► Paid
 *      │  ▲        │  ▲         │  ▲              │                   │            │
 *      │  └ PendingInformation  │  └──────────────┘ (payment pulled)  │            ▼
 *      └──► Denied ◄────────────┘                         NonRedeemedPayment ◄─────┘
 *            (appeal ─► InReview)                           │        ▲  │ (late cash ─► Paid)
 *                                                           ▼        │
 *                                                   ReadyForReissue ─► PaymentIssued (reissued)
 *   Void: from anything before money left (Received .. ScheduledForPayment) and from ReadyForReissue; terminal.
 */
export const CLAIM_TRANSITIONS: Readonly<Record<number, readonly number[]>> = {
  [S.Received]: [S.InReview, S.PendingInformation, S.Denied, S.Void],
  [S.InReview]: [S.Approved, S.Denied, S.PendingInformation, S.Void],
  [S.PendingInformation]: [S.InReview, S.Denied, S.Void],
  [S.Approved]: [S.ScheduledForPayment, S.InReview, S.Void],
  [S.Denied]: [S.InReview],
  [S.ScheduledForPayment]: [S.PaymentIssued, S.Approved, S.Void],
  [S.PaymentIssued]: [S.Paid, S.NonRedeemedPayment],
  [S.Paid]: [S.NonRedeemedPayment],
  [S.NonRedeemedPayment]: [S.ReadyForReissue, S.Paid],
  [S.ReadyForReissue]: [S.PaymentIssued, S.Void],
  [S.Void]: [],
};

const NAMES: Record<number, string> = {
  [S.Received]: 'Received',
  [S.InReview]: 'In Review',
  [S.PendingInformation]: 'Pending Information',
  [S.Approved]: 'Approved',
  [S.Denied]: 'Denied',
  [S.ScheduledForPayment]: 'Scheduled for Payment',
  [S.PaymentIssued]: 'Payment Issued',
  [S.Paid]: 'Paid',
  [S.Void]: 'Void',
  [S.NonRedeemedPayment]: 'Non Redeemed Payment',
  [S.ReadyForReissue]: 'Ready for Reissue',
};
export const statusName = (id: number): string => NAMES[id] ?? `status ${id}`;

export const allowedTransitions = (from: number): readonly number[] => CLAIM_TRANSITIONS[from] ?? [];

export type TransitionCheck = { ok: true } | { ok: false; message: string };

export function checkTransition(from: number, to: number): TransitionCheck {
  if (!(to in NAMES)) return { ok: false, message: `${to} is not a known claim status.` };
  if (!(from in NAMES)) return { ok: false, message: `The bill has an unknown status (${from}).` };
  if (from === to) return { ok: false, message: `The bill is already ${statusName(to)}.` };
  if (!allowedTransitions(from).includes(to)) {
    const next = allowedTransitions(from);
    const options = next.length ? `it can move to ${next.map(statusName).join(', ')}` : 'its status is final';
    return { ok: false, message: `A bill that is ${statusName(from)} cannot be set to ${statusName(to)}: ${options}.` };
  }
  return { ok: true };
}

/** Statuses in which a bill's details may still be edited by its finance user (SuperUser may edit in any status but Void). */
export const EDITABLE_STATUSES: readonly number[] = [S.Received, S.InReview, S.PendingInformation];
