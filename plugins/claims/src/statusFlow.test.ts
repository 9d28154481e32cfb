import { ClaimStatus } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { allowedTransitions, CLAIM_TRANSITIONS, checkTransition } from './statusFlow';

const S = ClaimStatus;
const ALL = Object.values(S) as number[];

describe('claim status state machine', () => {
  it('has an entry for every status, and every target is a known status other than the source', () => {
    for (const s of ALL) {
      expect(CLAIM_TRANSITIONS[s], `status ${s}`).toBeDefined();
      for (const t of allowedTransitions(s)) {
        expect(ALL).toContain(t);
        expect(t).not.toBe(s);
      }
    }
  });

  it('allows the normal path from Received to Paid', () => {
    const path = [S.Received, S.InReview, S.Approved, S.ScheduledForPayment, S.PaymentIssued, S.Paid];
    for (let i = 1; i < path.length; i++) expect(checkTransition(path[i - 1] as number, path[i] as number)).toEqual({ ok: true });
  });

  it('allows the reissue loop of an uncashed payment', () => {
    expect(checkTransition(S.Paid, S.NonRedeemedPayment).ok).toBe(true);
    expect(checkTransition(S.NonRedeemedPayment, S.ReadyForReissue).ok).toBe(true);
    expect(checkTransition(S.ReadyForReissue, S.PaymentIssued).ok).toBe(true);
  });

  it('allows information requests and appeals', () => {
    expect(checkTransition(S.InReview, S.PendingInformation).ok).toBe(true);
    expect(checkTransition(S.PendingInformation, S.InReview).ok).toBe(true);
    expect(checkTransition(S.Denied, S.InReview).ok).toBe(true);
  });

  it('refuses skipping review, paying what was not issued, reviving a void bill, or voiding paid money', () => {
    const refused: [number, number][] = [
      [S.Received, S.Paid],
      [S.Received, S.Approved],
      [S.Approved, S.Paid],
      [S.Void, S.Received],
      [S.Void, S.InReview],
      [S.Paid, S.Void],
      [S.Paid, S.Received],
      [S.Denied, S.Paid],
    ];
    for (const [from, to] of refused) {
      const r = checkTransition(from, to);
      expect(r.ok, `${from} -> ${to}`).toBe(false);
    }
  });

  it('explains a refusal with both status names and the possible next statuses', () => {
    const r = checkTransition(S.Received, S.Paid);
    expect(r).toEqual({ ok: false, message: 'A bill that is Received cannot be set to Paid: it can move to In Review, Pending Information, Denied, Void.' });
    expect(checkTransition(S.Void, S.Paid)).toEqual({ ok: false, message: 'A bill that is Void cannot be set to Paid: its status is final.' });
    expect(checkTransition(S.Paid, S.Paid)).toEqual({ ok: false, message: 'The bill is already Paid.' });
    expect(checkTransition(S.Paid, 77).ok).toBe(false);
  });

  it('keeps Void terminal and reachable only before money leaves or when a reissue is cancelled', () => {
    expect(allowedTransitions(S.Void)).toEqual([]);
    const toVoid = ALL.filter((s) => allowedTransitions(s).includes(S.Void));
    expect(toVoid.sort((a, b) => a - b)).toEqual([S.Received, S.InReview, S.PendingInformation, S.Approved, S.ScheduledForPayment, S.ReadyForReissue]);
  });
});
