import { serviceRef } from '@portal/core';
import type { AuditEntry, SqlClient } from '@portal/server';
import type { BillingProfile, BillingTransaction, MembershipKey, MoneyResult } from './contract';

/** Who acts: for the audit trail and receipts. */
export interface BillingActor {
  audit: (entry: Omit<AuditEntry, 'actorUserId' | 'actorName' | 'ip' | 'requestId'>, tx?: SqlClient) => Promise<void>;
  /** The brand whose site the call came from (receipt sender), or null. */
  brand: { displayName: string; contacts: { supportEmail: string } } | null;
}

/**
 * The payment service for other plugins (registration wizard, support tooling): every call takes the member id,
 * moves money at most once per idempotency key, records and audits each charge, refund and void once, and
 * queues a receipt e-mail.
 */
export interface BillingService {
  profile(memberId: number): Promise<BillingProfile>;
  transactions(memberId: number): Promise<BillingTransaction[]>;
  startSubscription(
    memberId: number,
    input: { type: MembershipKey; code?: string; idempotencyKey?: string },
    actor: BillingActor,
  ): Promise<MoneyResult & { SubscriptionType: number | null }>;
  cancelSubscription(memberId: number, actor: BillingActor): Promise<BillingProfile>;
  chargeCard(
    memberId: number,
    input: { paymentProfileId: number; amountCents: number; description?: string; idempotencyKey?: string },
    actor: BillingActor,
  ): Promise<MoneyResult>;
  refund(transactionId: number, actor: BillingActor): Promise<MoneyResult>;
  voidTransaction(transactionId: number, actor: BillingActor): Promise<MoneyResult>;
}

export const billingService = serviceRef<BillingService>('billing');
