import { ClaimStatus, type Message, msg } from '@portal/core';

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
/** A status's name as a message for the user: translated with the message it is put into. */
export const statusLabel = (id: number): Message => {
  const name = NAMES[id];
  return name === undefined ? msg('status {{id}}', { id }) : msg(name);
};

export const allowedTransitions = (from: number): readonly number[] => CLAIM_TRANSITIONS[from] ?? [];

/** Messages one after another with a separator between them, each translated on its own (a list of status names, of reasons). */
export function joinMessages(parts: readonly Message[], separator: string): Message {
  if (parts.length === 0) return '';
  return parts.reduce((all, part) => msg(`{{all}}${separator}{{part}}`, { all, part }));
}

export type TransitionCheck = { ok: true } | { ok: false; message: string };

/** Why a bill may not move from one status to another, as a message for the user; null when it may. */
export function transitionRefusal(from: number, to: number): Message | null {
  if (!(to in NAMES)) return msg('{{status}} is not a known claim status.', { status: to });
  if (!(from in NAMES)) return msg('The bill has an unknown status ({{status}}).', { status: from });
  if (from === to) return msg('The bill is already {{status}}.', { status: statusLabel(to) });
  const next = allowedTransitions(from);
  if (next.includes(to)) return null;
  const names = { from: statusLabel(from), to: statusLabel(to) };
  return next.length
    ? msg('A bill that is {{from}} cannot be set to {{to}}: it can move to {{next}}.', { ...names, next: joinMessages(next.map(statusLabel), ', ') })
    : msg('A bill that is {{from}} cannot be set to {{to}}: its status is final.', names);
}

/** Whether a bill may move from one status to another, with the reason in English when it may not. */
export function checkTransition(from: number, to: number): TransitionCheck {
  const refusal = transitionRefusal(from, to);
  return refusal === null ? { ok: true } : { ok: false, message: String(refusal) };
}

/** Statuses in which a bill's details may still be edited by its finance user (SuperUser may edit in any status but Void). */
export const EDITABLE_STATUSES: readonly number[] = [S.Received, S.InReview, S.PendingInformation];
