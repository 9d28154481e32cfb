import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CouponCheck, CouponsService } from '@portal/plugin-coupons/service';
import {
  ApiError,
  type AuditEntry,
  brandedMail,
  GatewayError,
  type GatewaySubscription,
  type GatewayTransaction,
  GatewayUnavailableError,
  type KernelServices,
  loggedError,
  type Message,
  msg,
  type PluginInit,
  type SqlClient,
  type Text,
} from '@portal/server';
import {
  BILLING_MESSAGES,
  type BillingProfile,
  type BillingTransaction,
  type CardProfile,
  fromCents,
  type MembershipKey,
  type MoneyResult,
  PREPULL_DESCRIPTION,
  PRICES_CENTS,
} from '../contract';
import type { BillingActor, BillingService, SupportTransaction } from '../service';
import { capturedAtMost, receiptFigures } from './receipt';
import { reversalOf, SUPPORT_TX_SELECT, supportBatches, supportSearch, supportStatusCounts } from './support-queries';

interface CustomerRow {
  member_id: number;
  customer_profile_id: number;
  subscription_id: number | null;
  subscription_type: MembershipKey | null;
  subscription_status: 'active' | 'suspended' | 'canceled' | 'lifetime' | null;
  subscription_profile_id: number | null;
  /** The membership was canceled because the member terminated (a reactivation within the period paid gives it back). */
  ended_by_termination: boolean;
  coupon_code: string | null;
  is_deactivated: boolean;
}
interface CardRow {
  payment_profile_id: number;
  member_id: number;
  last4: string;
  card_type: string;
  expiration: string;
  is_default: boolean;
}
interface TxRow {
  id: number;
  member_id: number;
  gateway_trans_id: number | null;
  kind: string;
  status: string;
  amount_cents: number;
  description: string | null;
  payment_profile_id: number | null;
  claim_id: number | null;
  pa_number: string | null;
  message: string;
  request_hash: string | null;
  capture_key: string | null;
  capture_hash: string | null;
  review_started_at: Date | string | null;
  /** When a void or refund of this charge was last asked of the gateway through us (see REVERSAL_FREE). */
  reversal_started_at: Date | string | null;
  created_at: Date | string;
}

const SUBSCRIPTION_NAMES: Record<MembershipKey, string> = { 1: 'Monthly membership', 12: 'Yearly membership', 0: 'Lifetime membership' };
/**
 * A membership's first payment is named after the membership it starts (`startHeld`); a renewal is RENEWAL, and a charge
 * the transaction sync found has no description. A first payment held for review starts its membership when approved.
 */
const FIRST_PAYMENT_NAMES: readonly string[] = Object.values(SUBSCRIPTION_NAMES);
const startsMembership = (r: Pick<TxRow, 'kind' | 'description'>): MembershipKey | null => {
  if (r.kind !== 'subscription') return null;
  const found = (Object.entries(SUBSCRIPTION_NAMES) as [string, string][]).find(([, name]) => name === r.description);
  return found ? (Number(found[0]) as MembershipKey) : null;
};
/** The membership a subscription at the gateway is for: ours are named after it (SUBSCRIPTION_NAMES); null for another. */
const membershipOfSubscription = (s: Pick<GatewaySubscription, 'name' | 'intervalMonths'>): MembershipKey | null => {
  const found = (Object.entries(SUBSCRIPTION_NAMES) as [string, string][]).find(([key, name]) => name === s.name && Number(key) === s.intervalMonths);
  return found ? (Number(found[0]) as MembershipKey) : null;
};
/** The gateway's statuses of a subscription it renews, or would once its card is fixed (a declined renewal suspends it). */
const RENEWING: ReadonlySet<string> = new Set(['active', 'suspended']);
/** The description of a charge that names none, and of a recurring subscription charge. */
const CHARGE = 'Charge';
const RENEWAL = 'Membership renewal';
/** The descriptions the server gives charges itself: a receipt names them in the member's language. */
const OWN_DESCRIPTIONS: ReadonlySet<string> = new Set([...Object.values(SUBSCRIPTION_NAMES), CHARGE, RENEWAL, PREPULL_DESCRIPTION]);
/** A charge's description for a receipt or the member's payments: one of ours is translated, staff's own text stays as they typed it. */
export const described = (description: string): Message => (OWN_DESCRIPTIONS.has(description) ? msg(description) : description);
/**
 * A receipt's line for a capture, refund or void: the label with the charge's description, or the label alone (no
 * colon: the receipt's subject and its detail line, `<label>: <amount>`, add their own).
 */
const RECEIPT_LABELS = {
  charge: { alone: 'Charge', with: 'Charge: {{description}}' },
  refund: { alone: 'Refund', with: 'Refund: {{description}}' },
  void: { alone: 'Voided charge', with: 'Voided: {{description}}' },
} as const;
const labelled = (label: keyof typeof RECEIPT_LABELS, description: string | null): Text => {
  const d = description?.trim();
  return d ? msg(RECEIPT_LABELS[label].with, { description: described(d) }) : msg(RECEIPT_LABELS[label].alone);
};

export const toTransaction = (r: TxRow): BillingTransaction => ({
  TransactionID: r.id,
  Status: r.status,
  Kind: r.kind,
  Amount: fromCents(r.amount_cents),
  Description: r.description,
  ProviderTransactionID: r.gateway_trans_id,
  PANumber: r.pa_number,
  ClaimID: r.claim_id,
  DateCreated: new Date(r.created_at).toISOString(),
});

/** Where a failing gateway call is logged: a request's logger (pino's `req.log` fits). */
export interface GatewayLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}
/** Where billing's work outside a request logs (the kernel's jobs, another plugin's call): the process's console, as the job queue's. */
const processLog: GatewayLog = {
  warn: (obj, msg) => console.warn(msg, { ...obj, err: loggedError((obj as { err?: unknown }).err) }),
  error: (obj, msg) => console.error(msg, { ...obj, err: loggedError((obj as { err?: unknown }).err) }),
};

/**
 * Runs a gateway call. Its refusal of the request becomes a 400 (404 for a record it cannot find) with its message;
 * an unreachable or failing gateway our 503, its cause logged as a warning; a refusal of our own credentials (401,
 * 403: a wrong GATEWAY_LOGIN_ID or GATEWAY_TRANSACTION_KEY) our 503 too, logged as an error, since the gateway's text
 * ("User authentication failed ...") is for the operator, not for members.
 */
export async function gatewayCall<T>(f: () => Promise<T>, log: GatewayLog = processLog): Promise<T> {
  try {
    return await f();
  } catch (e) {
    if (e instanceof GatewayError && (e.status === 401 || e.status === 403)) {
      log.error({ err: e, status: e.status }, 'card gateway refused our credentials');
      throw new ApiError(503, BILLING_MESSAGES.unavailable);
    }
    if (e instanceof GatewayError) throw new ApiError(e.status === 404 ? 404 : 400, e.message);
    if (e instanceof GatewayUnavailableError) {
      log.warn({ err: e }, 'card gateway unavailable');
      throw new ApiError(503, BILLING_MESSAGES.unavailable);
    }
    throw e;
  }
}

/** What a request keyed by a client's idempotency key asked for: a repeat of the key must ask for the same. */
const requestHash = (request: Record<string, unknown>): string => createHash('sha256').update(JSON.stringify(request)).digest('hex');
/** How long a subscription start may hold its lease before another start may take over (a crashed process's). */
const START_LEASE_SECONDS = 120;
/** How long a second start for the same member waits for the first to finish before it is refused. */
const START_WAIT_MS = 15_000;

/** A money call's result; its message is English (a catalogue key), worded by the route that answers it. */
const result = (ok: boolean, message: string, transactionId: number | null): MoneyResult => ({
  StatusString: ok ? 'Ok' : 'Error',
  Message: message,
  TransactionID: transactionId,
});

/** Whether money moved (or is held for capture) on a charge in this status. */
const approved = (status: TxRow['status']): boolean => status === 'Charged' || status === 'Authorized';

/** Who a refusal for a terminated member is worded for: the member (their own pages) or support (its screens). */
export type RefusedTo = 'member' | 'support';

/** A held payment's decision as applyHeldDecision took it: not taken by this call, taken, or approved for a terminated member (nothing started). */
type HeldOutcome = false | 'moved' | 'notStarted';
/** The gateway's statuses of a charge not yet settled: a void gives it back; once settled, a refund does. */
const UNSETTLED: ReadonlySet<string> = new Set(['authorizedPendingCapture', 'capturedPendingSettlement']);

/**
 * How long a decision, void or refund asked of the gateway through us is left to that call (the gateway call's own
 * time-out is far less): the gateway's word of it meanwhile (a webhook, a sync) does not record it as someone else's.
 */
const CALL_IN_FLIGHT_SECONDS = 60;

/** The gateway's status of a charge as the support screens name it (spec 02 section 4). */
function statusOf(t: GatewayTransaction): TxRow['status'] {
  // Held for review by the gateway's fraud filters: support approves it (Charge) or declines it.
  if (t.responseCode === '4') return 'Pending';
  if (t.responseCode !== '1') return 'Declined';
  if (t.status === 'authorizedPendingCapture') return 'Authorized';
  if (t.status === 'voided') return 'Voided';
  return 'Charged';
}

type SupportTxRow = TxRow & { customer_profile_id: number | null; member_number: string; first_name: string; last_name: string };
const toSupportTransaction = (r: SupportTxRow): SupportTransaction => ({
  TransactionID: r.id,
  Status: r.status,
  Kind: r.kind,
  Amount: fromCents(r.amount_cents),
  Description: r.description,
  Message: r.message,
  PANumber: r.pa_number,
  ProviderTransactionID: r.gateway_trans_id,
  AuthProviderTransactionID: r.kind === 'prepull' || r.kind === 'authorize' ? r.gateway_trans_id : null,
  CustomerID: r.customer_profile_id,
  PaymentProfileID: r.payment_profile_id,
  NCPDPRequestID: null,
  ClaimID: r.claim_id,
  DateCreated: new Date(r.created_at).toISOString(),
  Member: { MemberID: r.member_id, MemberNumber: r.member_number, FirstName: r.first_name, LastName: r.last_name },
});

/**
 * The job that finishes the give-back of a terminated member's approved first payment when its first attempt
 * (endHeldForTerminated) failed: the gateway unreachable or refusing. Queued with that failure's audit, once per
 * charge (its singleton key); retried with backoff (see the plugin's init).
 */
export const HELD_TERMINATED_JOB = 'billing.held-terminated.finish';
export interface HeldTerminatedJob {
  /** Our row of the approved first payment. */
  transactionId: number;
  /** The subscription it created at the gateway (null when the gateway named none). */
  subscriptionId: number | null;
  subscriptionType: MembershipKey;
  /** The first attempt's audit action (`billing.held.terminated`, or `billing.subscription.terminated` for a start). */
  action: string;
}

export interface Billing extends BillingService {
  /** The same service logging a failing gateway call to `log` (a billing route's request logger) instead of the console. */
  withLog(log: GatewayLog): Billing;
  customer(memberId: number, create: boolean): Promise<CustomerRow | null>;
  cards(memberId: number): Promise<CardProfile[]>;
  ownCard(memberId: number, paymentProfileId: number): Promise<CardProfile>;
  memberOfCustomer(customerProfileId: number): Promise<number | null>;
  syncCards(memberId: number, actor: BillingActor): Promise<{ reactivated: boolean }>;
  /**
   * Support's change of membership type: starts the new one on the default card first and ends the one it replaces
   * only when that succeeded; no card or a decline changes nothing. The membership replaced is the one read when the
   * call came: canceled or replaced meanwhile, the call is a 409 and nothing is charged. With no membership, a start.
   */
  changeSubscription(
    memberId: number,
    input: { type: MembershipKey; idempotencyKey: string },
    actor: BillingActor,
  ): ReturnType<BillingService['startSubscription']>;
  /** A terminated member: declines a first payment held for review, cancels a subscription the gateway renews; true when there was one. */
  cancelRenewals(memberId: number, actor: BillingActor): Promise<boolean>;
  /**
   * The HELD_TERMINATED_JOB's run: finishes what the give-back of a terminated member's approved first payment left
   * (endHeldForTerminated failed), doing only what is still left. Throws while something is left, so the queue
   * retries; the last attempt audits the failure first.
   */
  finishHeldForTerminated(job: HeldTerminatedJob, run: { attempt: number; maxAttempts: number }, actor: BillingActor): Promise<void>;
  /**
   * A reactivated member: the monthly or yearly membership the termination canceled runs again at the gateway for the
   * period already paid for, its next charge when that period ends (nothing charged now); true when it was given back.
   */
  restoreAfterReactivation(memberId: number, actor: BillingActor): Promise<boolean>;
  deleteCard(memberId: number, paymentProfileId: number, actor: BillingActor): Promise<{ deactivated: boolean }>;
  setDefaultCard(memberId: number, paymentProfileId: number, actor: BillingActor): Promise<void>;
  setSubscriptionCard(memberId: number, paymentProfileId: number, actor: BillingActor): Promise<void>;
  /** The hosted form's token: the add-payment form, or with paymentProfileId the edit-payment form of the member's own card. */
  formToken(memberId: number, returnUrl: string, paymentProfileId?: number): Promise<{ Token: string; Url: string }>;
  checkCoupon(memberId: number, code: string): Promise<{ Status: number; IsLifetime: boolean; IsVendorLifetime: boolean; Message: string }>;
  /** A coupon; refused (409) for a terminated member, worded for `by` (the member by default). */
  applyCoupon(
    memberId: number,
    code: string,
    actor: BillingActor,
    by?: RefusedTo,
  ): Promise<{ Status: number; IsLifetime: boolean; IsVendorLifetime: boolean; Message: string }>;
  authorize(
    memberId: number,
    input: { amountCents: number; description: string; claimId?: number; idempotencyKey: string },
    actor: BillingActor,
  ): Promise<MoneyResult>;
  /** Captures the card's newest authorization; a repeat of the same capture (its key) answers what the first did. */
  capture(memberId: number, paymentProfileId: number, amountCents: number, actor: BillingActor, idempotencyKey: string): Promise<MoneyResult>;
  /**
   * Stores a charge's PA number and answers the one stored then. With `expected` (the number the caller saw, null for
   * none) it stores only while the stored one is still that: a number someone else saved meanwhile is kept and answered,
   * so the caller sees it differs from the one submitted.
   */
  setPaNumber(transactionId: number, paNumber: string, actor: BillingActor, expected?: string | null): Promise<string>;
  /**
   * Support's Check with the gateway: records the member's charges we have not (a subscription a start whose answer
   * was lost left is taken up as that start would have recorded it), follows the held ones the merchant has since
   * decided and the ones voided or refunded at the gateway, and suspends the membership whose renewal it finds
   * declined. Counts the charges recorded, the held ones decided and the voids and refunds recorded.
   */
  syncTransactions(memberId: number, actor: BillingActor): Promise<number>;
  /**
   * The gateway's word that a charge it held for review was decided (fraud.approved or fraud.declined webhooks): our
   * Pending row follows the gateway's transaction, once; an approved first payment of a membership starts it. False
   * when we hold no such Pending row.
   */
  recordHeldDecision(transId: number, actor: BillingActor): Promise<boolean>;
  /**
   * The gateway's word of a void or refund (void.created or refund.created webhooks), made by anyone: our own call's
   * is recorded by that call, one made outside our product (the gateway's merchant screen) as recordReversal does.
   * False when it gives back no charge of ours, or was recorded already.
   */
  recordGatewayReversal(transId: number, actor: BillingActor): Promise<boolean>;
  recordWebhookCharge(
    event: { notificationId: string; eventType: string; transId: number; customerProfileId: number | null },
    actor: BillingActor,
  ): Promise<boolean>;
}

/**
 * The billing logic over the gateway. `webhookUrl` is where the gateway posts recurring charges and its decisions on
 * held charges; it is registered (idempotently) before the first subscription this process starts or the first charge
 * it sees held. `businessTimeZone` (`config.businessTimeZone`) is the zone of the day a receipt is dated with.
 *
 * The service given out logs a failing gateway call to the process's console; `withLog(req.log)` gives the same
 * service logging to a request's logger (billing's routes take it through billingOf). Each view is a fresh set of
 * closures over the same state: the logger is handed down, not looked up in an AsyncLocalStorage, whose promise hooks
 * on Node 20 would make every later request of the process pay for it once one billing route had run (about a fifth
 * more CPU for /health, issue 23's fifty-seventh pass).
 */
export function makeBilling(
  services: KernelServices,
  database: PluginInit['database'],
  coupons: CouponsService,
  webhookUrl: string,
  businessTimeZone: string,
): Billing {
  const shared: SharedState = { webhook: null };
  const withLog = (log: GatewayLog): Billing => billingView({ services, database, coupons, webhookUrl, businessTimeZone }, shared, log, withLog);
  return withLog(processLog);
}

/** What every view of one billing service shares: the webhook's registration, asked once a process. */
interface SharedState {
  webhook: Promise<void> | null;
}

/** What makeBilling was given. */
interface BillingDeps {
  services: KernelServices;
  database: PluginInit['database'];
  coupons: CouponsService;
  webhookUrl: string;
  businessTimeZone: string;
}

/** makeBilling's service as seen by one logger. */
function billingView(deps: BillingDeps, shared: SharedState, log: GatewayLog, withLog: (log: GatewayLog) => Billing): Billing {
  const { services, database, coupons, webhookUrl, businessTimeZone } = deps;
  /** A gateway call whose failure is logged to this view's logger (see gatewayCall). */
  const viaGateway = <T>(f: () => Promise<T>): Promise<T> => gatewayCall(f, log);
  const sql = database.sql;
  const gw = services.payments;
  const ensureWebhook = () => {
    shared.webhook ??= viaGateway(() => gw.registerWebhook(webhookUrl)).catch((e) => {
      shared.webhook = null;
      throw e;
    });
    return shared.webhook;
  };

  const customer = async (memberId: number, create: boolean, q: SqlClient = sql): Promise<CustomerRow | null> => {
    const found = (await q.query<CustomerRow>('SELECT * FROM billing_customers WHERE member_id = $1', [memberId]))[0];
    if (found || !create) return found ?? null;
    const member = await services.members.load(memberId);
    if (!member) throw new ApiError(404, BILLING_MESSAGES.noMember);
    const profileId = await viaGateway(() => gw.ensureCustomer(`member-${memberId}`, member.email ?? undefined));
    await sql.query('INSERT INTO billing_customers (member_id, customer_profile_id) VALUES ($1, $2) ON CONFLICT (member_id) DO NOTHING', [memberId, profileId]);
    return (await sql.query<CustomerRow>('SELECT * FROM billing_customers WHERE member_id = $1', [memberId]))[0] ?? null;
  };
  const mustCustomer = async (memberId: number) => {
    const c = await customer(memberId, true);
    if (!c) throw new ApiError(404, BILLING_MESSAGES.noMember);
    return c;
  };

  const cardRows = (memberId: number, q: SqlClient = sql) =>
    q.query<CardRow>('SELECT * FROM billing_cards WHERE member_id = $1 ORDER BY created_at, payment_profile_id', [memberId]);
  const toCard = (c: CardRow, cust: CustomerRow | null): CardProfile => ({
    ProfileId: c.payment_profile_id,
    IsSubscription:
      cust?.subscription_profile_id === c.payment_profile_id && (cust?.subscription_status === 'active' || cust?.subscription_status === 'suspended'),
    IsDefault: c.is_default,
    CardNumber: `XXXX${c.last4}`,
    CardType: c.card_type,
    Expiration: c.expiration,
  });
  const cards = async (memberId: number) => {
    const cust = await customer(memberId, false);
    return (await cardRows(memberId)).map((c) => toCard(c, cust));
  };
  const ownCard = async (memberId: number, paymentProfileId: number) => {
    const card = (await cards(memberId)).find((c) => c.ProfileId === paymentProfileId);
    if (!card) throw new ApiError(404, BILLING_MESSAGES.cardNotFound);
    return card;
  };

  /** The member's first payment of a membership the gateway holds for review (see startHeld), if any. */
  const heldFirstPayment = async (memberId: number): Promise<TxRow | undefined> =>
    (
      await sql.query<TxRow>(
        `SELECT * FROM billing_transactions WHERE member_id = $1 AND kind = 'subscription' AND status = 'Pending' AND description = ANY($2::text[])
         ORDER BY id DESC LIMIT 1`,
        [memberId, FIRST_PAYMENT_NAMES],
      )
    )[0];

  /**
   * When the period last paid for of a monthly or yearly membership ends: the member's latest charged membership payment
   * (a first payment or a renewal, not one refunded or voided) plus the plan's period; null when none was charged.
   */
  const paidThrough = async (memberId: number, type: number | null, q: SqlClient = sql): Promise<Date | null> => {
    if (type !== 1 && type !== 12) return null;
    const rows = await q.query<{ until: Date | string | null }>(
      `SELECT max(created_at) + make_interval(months => $2) AS until FROM billing_transactions WHERE member_id = $1 AND kind = 'subscription' AND status = 'Charged'`,
      [memberId, type],
    );
    const until = rows[0]?.until;
    return until ? new Date(until) : null;
  };

  const profile = async (memberId: number): Promise<BillingProfile> => {
    const cust = await customer(memberId, false);
    const held = await heldFirstPayment(memberId);
    const paid = cust?.subscription_status === 'canceled' ? await paidThrough(memberId, cust.subscription_type) : null;
    // The termination as the kernel's isTerminated reads it (its date has come), with its date while it is: the pages
    // show the membership terminated instead of the plans or its status, with no call of their own.
    const ended = (await services.members.load(memberId))?.terminationDate ?? null;
    const terminated = ended !== null && Date.parse(ended) <= Date.now();
    return {
      Profiles: (await cardRows(memberId)).map((c) => toCard(c, cust)),
      CustomerId: cust?.customer_profile_id ?? null,
      SubscriptionId: cust?.subscription_id ?? null,
      SubscriptionType: cust?.subscription_type ?? null,
      SubscriptionStatus: cust?.subscription_status ?? null,
      IsDeactivated: cust?.is_deactivated ?? false,
      CouponCode: cust?.coupon_code ?? null,
      HeldSubscriptionType: held ? startsMembership(held) : null,
      PaidThrough: paid ? paid.toISOString() : null,
      IsTerminated: terminated,
      TerminationDate: terminated ? ended : null,
    };
  };

  /**
   * Refuses (409) a call that would start, change or pay for something new for a terminated member: a start, a change
   * of plan, a coupon, support's prepull or charge. `by`: who is told, the member (their own pages, or staff acting for
   * them there) or support (its member screens). In `tx`, the member's row is read FOR SHARE: a termination waits for
   * that transaction, so it cannot land between this check and the write that follows it there.
   */
  const refuseTerminated = async (memberId: number, by: RefusedTo, tx?: SqlClient) => {
    if (await services.members.isTerminated(memberId, tx, { share: true })) {
      throw new ApiError(409, by === 'support' ? BILLING_MESSAGES.memberTerminated : BILLING_MESSAGES.terminated);
    }
  };

  const audit = (actor: BillingActor, entry: AuditEntry, tx: SqlClient) => actor.audit(entry, tx);

  /** Whether the member's membership ended: a termination date reached (spec 02: terminated when TerminationDate is set). */

  /**
   * A receipt through the mail queue, after the money moved and the record committed, in the member's language (the
   * one they last signed in with), whoever moved the money: the member, staff, or the gateway's webhook. `what` is
   * translated when it is a Text (our own descriptions); a plain string (staff's description) goes as typed. The amount
   * is grouped as the pages write it ('$1,000.00') and the date is the business's day (`receiptFigures`).
   */
  const receipt = async (memberId: number, actor: BillingActor, what: Text | string, amountCents: number, transactionId: number, card: string | null) => {
    const member = await services.members.load(memberId);
    if (!member?.email) return;
    // Signed by the member's brand (a receipt from the staff site, or from a webhook outside any request, too).
    const brand = services.brands.byId(member.brand) ?? actor.brand;
    const language = await services.identity.languageOfMember(memberId);
    const t = (message: Message) => services.messages.t(message, language);
    const { amount, day } = receiptFigures(amountCents, language, businessTimeZone);
    await services.mail.send(
      brandedMail({
        brand,
        to: member.email,
        subject: t(msg('Receipt: {{what}} {{amount}}', { what, amount })),
        language,
        greeting: t(msg('Dear {{firstName}} {{lastName}},', { firstName: member.firstName, lastName: member.lastName })),
        paragraphs: [t('This is your receipt for the transaction below.')],
        details: [
          { label: typeof what === 'string' ? what : t(what), value: amount },
          { label: t('Transaction'), value: String(transactionId) },
          ...(card ? [{ label: t('Card'), value: card }] : []),
          { label: t('Date'), value: day },
        ],
        t,
      }),
    );
  };

  /**
   * Records a gateway transaction once (by the gateway's id and by our idempotency key) and audits it in the same
   * transaction; `after` runs inside it too. Answers the new row, or null when it was recorded before.
   */
  const record = async (
    memberId: number,
    t: GatewayTransaction,
    fields: {
      kind: string;
      description: string | null;
      claimId?: number | null;
      refId?: number | null;
      idempotencyKey?: string | null;
      requestHash?: string | null;
    },
    actor: BillingActor,
    after?: (tx: SqlClient, row: TxRow) => Promise<void>,
  ): Promise<TxRow | null> => {
    const row = await sql.transaction(async (tx) => {
      // An attempt support has since charged again is part of that charge, not a charge of its own.
      if (t.transId && (await tx.query('SELECT 1 FROM billing_superseded_attempts WHERE gateway_trans_id = $1', [t.transId])).length) return null;
      const row = (
        await tx.query<TxRow>(
          `INSERT INTO billing_transactions (member_id, gateway_trans_id, kind, status, amount_cents, description, payment_profile_id, ref_transaction_id, claim_id, message, idempotency_key, request_hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING RETURNING *`,
          [
            memberId,
            t.transId,
            fields.kind,
            fields.kind === 'refund' ? 'Refunded' : fields.kind === 'void' ? 'Voided' : statusOf(t),
            t.amountCents,
            fields.description,
            t.paymentProfileId,
            fields.refId ?? null,
            fields.claimId ?? null,
            t.message,
            fields.idempotencyKey ?? null,
            fields.idempotencyKey ? (fields.requestHash ?? null) : null,
          ],
        )
      )[0];
      if (!row) return null;
      await audit(
        actor,
        {
          action: `billing.${fields.kind}`,
          entity: 'billing_transaction',
          entityId: String(row.id),
          memberId,
          outcome: t.responseCode === '1' ? 'success' : 'failure',
          detail: { amountCents: t.amountCents, gatewayTransId: t.transId, status: row.status, message: t.message },
        },
        tx,
      );
      if (after) await after(tx, row);
      return row;
    });
    // A charge held for review is decided later, maybe in the gateway's own screens: its webhook tells us. Without it
    // (the gateway unreachable now), support's transaction sync still finds the decision.
    if (row?.status === 'Pending') await ensureWebhook().catch(() => undefined);
    return row;
  };

  /**
   * The member's earlier call of this kind with this idempotency key, if any; refused (409) when it asked for something
   * else. A key is the member's own: another member's call with the same key is a call of its own.
   */
  const byKey = async (memberId: number, kind: string, key: string, hash: string) => {
    const prior =
      (await sql.query<TxRow>('SELECT * FROM billing_transactions WHERE member_id = $1 AND kind = $2 AND idempotency_key = $3', [memberId, kind, key]))[0] ??
      null;
    if (prior?.request_hash && prior.request_hash !== hash) throw new ApiError(409, BILLING_MESSAGES.keyReused);
    return prior;
  };
  /** The answer the first call gave: its own success message, or the gateway's refusal as it was recorded. */
  const replay = (r: TxRow, okMessage: string): MoneyResult => {
    const ok = r.status === 'Charged' || r.status === 'Authorized' || r.status === 'Refunded' || r.status === 'Voided';
    return result(ok, ok ? okMessage : r.message, r.id);
  };

  const defaultCardOf = async (memberId: number) => (await cardRows(memberId)).find((c) => c.is_default) ?? null;

  /**
   * Moves a suspended subscription (its renewal declined, or its card deleted) onto one of the member's cards at the
   * gateway, where it runs again, and marks it active. False when there is no suspended subscription.
   */
  const resumeOnto = async (memberId: number, paymentProfileId: number, actor: BillingActor): Promise<boolean> => {
    const cust = await customer(memberId, false);
    if (!cust?.subscription_id || cust.subscription_status !== 'suspended') return false;
    await viaGateway(() => gw.updateSubscription(cust.subscription_id as number, { paymentProfileId }));
    return sql.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE billing_customers SET subscription_status = 'active', subscription_profile_id = $2, updated_at = now()
         WHERE member_id = $1 AND subscription_status = 'suspended' AND subscription_id = $3 RETURNING member_id`,
        [memberId, paymentProfileId, cust.subscription_id],
      );
      if (!rows.length) return false;
      await audit(
        actor,
        { action: 'billing.subscription.resume', entity: 'billing_customer', entityId: String(memberId), memberId, detail: { paymentProfileId } },
        tx,
      );
      return true;
    });
  };

  /**
   * Our copy of the member's cards follows the gateway's (the hosted form saves there), audited with what changed. A
   * card that was deactivated gets its account back; a suspended subscription resumes on the default card then, or on
   * a card just added.
   *
   * A terminated member (read FOR SHARE in the same transaction) keeps their cards as they are at the gateway and the
   * no-card deactivation still ends with a card (it says only that the account has no card), but the answer is not
   * `reactivated`: the membership is not active again (its reactivation is the profile's), so the page does not say so;
   * and no suspended subscription resumes (the termination cancels it).
   */
  const syncCards = async (memberId: number, actor: BillingActor) => {
    const cust = await mustCustomer(memberId);
    const remote = await viaGateway(() => gw.getCustomer(cust.customer_profile_id));
    const profiles = remote.paymentProfiles;
    let reactivated = false;
    let terminated = false;
    let added: number[] = [];
    /** Cards whose number, type or expiry changed (the member's Edit at the gateway), not only their default flag. */
    let edited: number[] = [];
    await sql.transaction(async (tx) => {
      const before = await cardRows(memberId, tx);
      const known = new Map(before.map((c) => [c.payment_profile_id, c]));
      const removed = before.filter((c) => !profiles.some((p) => p.paymentProfileId === c.payment_profile_id)).map((c) => c.payment_profile_id);
      added = profiles.filter((p) => !known.has(p.paymentProfileId)).map((p) => p.paymentProfileId);
      const changed = (p: (typeof profiles)[number]) => {
        const c = known.get(p.paymentProfileId);
        return c !== undefined && (c.last4 !== p.last4 || c.card_type !== p.cardType || c.expiration !== p.expiration);
      };
      edited = profiles.filter(changed).map((p) => p.paymentProfileId);
      const defaultMoved = (p: (typeof profiles)[number]) => {
        const c = known.get(p.paymentProfileId);
        return c !== undefined && c.is_default !== p.isDefault;
      };
      const updated = profiles.filter((p) => changed(p) || defaultMoved(p)).map((p) => p.paymentProfileId);
      await tx.query('DELETE FROM billing_cards WHERE member_id = $1 AND NOT (payment_profile_id = ANY($2::int[]))', [
        memberId,
        profiles.map((p) => p.paymentProfileId),
      ]);
      for (const p of profiles) {
        await tx.query(
          `INSERT INTO billing_cards (payment_profile_id, member_id, last4, card_type, expiration, is_default) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (payment_profile_id) DO UPDATE SET last4 = EXCLUDED.last4, card_type = EXCLUDED.card_type, expiration = EXCLUDED.expiration, is_default = EXCLUDED.is_default
           WHERE billing_cards.member_id = EXCLUDED.member_id`,
          [p.paymentProfileId, memberId, p.last4, p.cardType, p.expiration, p.isDefault],
        );
      }
      if (added.length || removed.length || updated.length) {
        await audit(
          actor,
          { action: 'billing.cards.sync', entity: 'billing_customer', entityId: String(memberId), memberId, detail: { added, removed, updated } },
          tx,
        );
      }
      const now = (await tx.query<CustomerRow>('SELECT * FROM billing_customers WHERE member_id = $1 FOR UPDATE', [memberId]))[0];
      terminated = await services.members.isTerminated(memberId, tx, { share: true });
      if (now?.is_deactivated && profiles.length > 0) {
        reactivated = !terminated;
        await tx.query(`UPDATE billing_customers SET is_deactivated = false, updated_at = now() WHERE member_id = $1`, [memberId]);
        await audit(
          actor,
          {
            action: 'billing.account.reactivate',
            entity: 'billing_customer',
            entityId: String(memberId),
            memberId,
            ...(terminated ? { detail: { memberTerminated: true } } : {}),
          },
          tx,
        );
      }
    });
    if (terminated) return { reactivated: false };
    // A suspended subscription moves to the new default card (an account that had no card), else to the card just
    // added (the member adds a card to resume), else stays on its own card when the member edited it (a new number or
    // expiry for the card that declined), and runs again.
    const def = profiles.find((p) => p.isDefault);
    const subCard = cust.subscription_status === 'suspended' ? cust.subscription_profile_id : null;
    const editedSubCard = subCard !== null && edited.includes(subCard) ? subCard : undefined;
    const onto = reactivated ? def?.paymentProfileId : (added.at(-1) ?? editedSubCard);
    if (onto !== undefined) await resumeOnto(memberId, onto, actor);
    return { reactivated };
  };

  /**
   * The subscription a new membership replaces (a suspended one, or for support's change an active one) is canceled at
   * the gateway, not left beside the new one where a renewal could charge it again. Run only once the new membership
   * stands (its first payment charged, at once or approved after a hold): a refused start leaves the old one as it was.
   * `old` is the member's billing state the new membership replaced.
   */
  const cancelReplaced = async (memberId: number, old: Pick<CustomerRow, 'subscription_id' | 'subscription_status'>, actor: BillingActor): Promise<void> => {
    if ((old.subscription_status !== 'suspended' && old.subscription_status !== 'active') || !old.subscription_id) return;
    const id = old.subscription_id;
    // The new membership is already charged and recorded: an old subscription the gateway would not cancel is named in
    // the audit log (a failure) for support to cancel there, and the start still answers its success.
    const failed = await viaGateway(() => gw.cancelSubscription(id)).then(
      () => null,
      (e: unknown) => (e instanceof Error ? e.message : String(e)),
    );
    await sql.transaction((tx) =>
      audit(
        actor,
        {
          action: 'billing.subscription.cancel',
          entity: 'billing_customer',
          entityId: String(memberId),
          memberId,
          ...(failed === null ? {} : { outcome: 'failure' as const }),
          detail: failed === null ? { replaced: true, subscriptionId: id } : { replaced: true, subscriptionId: id, message: failed },
        },
        tx,
      ),
    );
  };

  /**
   * A coupon refused where it is written (deleted, deactivated or ended while the gateway canceled the subscription it
   * was to replace, see applyCoupon): the subscription the gateway canceled is recorded canceled in that transaction,
   * while our row still names it, audited as a cancel with the coupon's refusal (reason 'coupon refused').
   */
  const recordCanceledForCoupon = async (tx: SqlClient, memberId: number, subscriptionId: number, actor: BillingActor, refusal: CouponCheck) => {
    const rows = await tx.query(
      `UPDATE billing_customers SET subscription_status = 'canceled', ended_by_termination = false, updated_at = now()
       WHERE member_id = $1 AND subscription_id = $2 AND subscription_status IN ('active', 'suspended') RETURNING member_id`,
      [memberId, subscriptionId],
    );
    if (!rows.length) return;
    await audit(
      actor,
      {
        action: 'billing.subscription.cancel',
        entity: 'billing_customer',
        entityId: String(memberId),
        memberId,
        detail: { subscriptionId, reason: 'coupon refused', couponStatus: refusal.Status },
      },
      tx,
    );
  };

  /** The member's subscriptions of ours at the gateway, whatever their status (the gateway customer is the member's own). */
  const gatewaySubscriptions = async (customerProfileId: number): Promise<GatewaySubscription[]> =>
    (await viaGateway(() => gw.getCustomer(customerProfileId))).subscriptions.filter((s) => membershipOfSubscription(s) !== null);

  /**
   * Cancels at the gateway subscriptions of ours that our row does not name (a start whose answer was lost left them):
   * they would renew beside the membership we know of, or with none. Each audited as a cancel (`stray`).
   */
  const cancelStrays = async (memberId: number, strays: readonly GatewaySubscription[], actor: BillingActor, detail: Record<string, unknown>) => {
    for (const s of strays) {
      await viaGateway(() => gw.cancelSubscription(s.subscriptionId));
      await sql.transaction((tx) =>
        audit(
          actor,
          {
            action: 'billing.subscription.cancel',
            entity: 'billing_customer',
            entityId: String(memberId),
            memberId,
            detail: { subscriptionId: s.subscriptionId, stray: true, ...detail },
          },
          tx,
        ),
      );
    }
  };

  /**
   * A subscription start whose answer was lost (a time-out, a dropped connection: the gateway created the subscription
   * and charged its first payment, and we recorded nothing) is settled before anything starts another: a subscription
   * of ours the gateway runs, holds suspended, or holds for review (its first payment), that `cust` (the row under the
   * member's subscription-start lease, which the caller holds) does not name. The newest is taken up as the start would
   * have recorded it: its first payment recorded under the membership's name (or, recorded before by the transaction
   * sync with no description, named so) and, approved, the membership started in the same transaction, audited
   * `billing.subscription.takeup`; then the membership it replaces (a suspended one; for support's change, the one
   * changed) is canceled at the gateway, and the receipt the member never got is sent. A first payment held for review
   * becomes the member's held first payment, which its decision starts (applyHeldDecision). Any other such subscription
   * is canceled at the gateway: it would renew beside the one taken up. Null when there is none to take up.
   */
  const takeUpLost = async (
    memberId: number,
    cust: CustomerRow,
    actor: BillingActor,
    request: { key: string; hash: string } | null,
  ): Promise<{ row: TxRow; type: MembershipKey; ok: boolean; recorded: boolean } | null> => {
    const lost = (await gatewaySubscriptions(cust.customer_profile_id))
      .filter((s) => (RENEWING.has(s.status) || s.status === 'pending') && s.subscriptionId !== cust.subscription_id)
      .sort((a, b) => Number(RENEWING.has(b.status)) - Number(RENEWING.has(a.status)) || b.subscriptionId - a.subscriptionId);
    const sub = lost[0];
    const type = sub ? membershipOfSubscription(sub) : null;
    if (!sub || type === null) return null;
    const first = (await viaGateway(() => gw.listTransactions(cust.customer_profile_id)))
      .filter((t) => t.subscriptionId === sub.subscriptionId && t.type === 'authCapture')
      .sort((a, b) => a.transId - b.transId)[0];
    if (!first) return null;
    const status = statusOf(first);
    const ok = approved(status);
    const name = SUBSCRIPTION_NAMES[type];
    const start = async (tx: SqlClient, row: TxRow) => {
      if (!ok) return;
      await tx.query(
        `UPDATE billing_customers SET subscription_id = $2, subscription_type = $3, subscription_status = $4, subscription_profile_id = $5, coupon_code = NULL,
           updated_at = now() WHERE member_id = $1`,
        [memberId, sub.subscriptionId, type, sub.status === 'suspended' ? 'suspended' : type === 0 ? 'lifetime' : 'active', sub.paymentProfileId],
      );
      await audit(
        actor,
        {
          action: 'billing.subscription.takeup',
          entity: 'billing_customer',
          entityId: String(memberId),
          memberId,
          detail: {
            subscriptionId: sub.subscriptionId,
            subscriptionType: type,
            gatewayStatus: sub.status,
            gatewayTransId: first.transId,
            transactionId: row.id,
            replaced: cust.subscription_id,
          },
        },
        tx,
      );
    };
    const fields = { kind: 'subscription', description: name, idempotencyKey: request?.key ?? null, requestHash: request?.hash ?? null };
    const fresh = await record(memberId, first, fields, actor, start);
    const row =
      fresh ??
      (await sql.transaction(async (tx) => {
        // Recorded before with no membership named (the transaction sync's unknown charge): named now, and a status it
        // had as held for review follows the gateway's decision.
        const named = (
          await tx.query<TxRow>(
            `UPDATE billing_transactions SET description = $3,
               status = CASE WHEN status = 'Pending' THEN $4 ELSE status END, message = CASE WHEN status = 'Pending' THEN $5 ELSE message END,
               idempotency_key = COALESCE(idempotency_key, $6), request_hash = CASE WHEN idempotency_key IS NULL THEN $7 ELSE request_hash END
             WHERE gateway_trans_id = $1 AND member_id = $2 AND kind = 'subscription' AND (description IS NULL OR description = $3) RETURNING *`,
            [first.transId, memberId, name, status, first.message, fields.idempotencyKey, fields.requestHash],
          )
        )[0];
        if (named) await start(tx, named);
        return named ?? null;
      }));
    if (!row) return null;
    if (ok) {
      await cancelReplaced(memberId, cust, actor);
      const card = (await cardRows(memberId)).find((c) => c.payment_profile_id === sub.paymentProfileId);
      if (fresh) await receipt(memberId, actor, msg(name), first.amountCents, row.id, card ? `XXXX${card.last4}` : null);
    }
    await cancelStrays(
      memberId,
      lost.slice(1).filter((s) => RENEWING.has(s.status)),
      actor,
      { reason: 'beside a subscription taken up', takenUp: sub.subscriptionId },
    );
    return { row, type, ok, recorded: fresh !== null };
  };

  /**
   * Runs `f` holding the member's subscription-start lease, so two starts at once (two tabs, the registration step and
   * the billing page, staff and the member) cannot both create a subscription at the gateway: the second waits for the
   * first and then sees its outcome (the same key replays it, another finds the membership active). Every other call
   * that acts on the member's subscription at the gateway and then writes it takes the same lease (support's change, a
   * held payment's approval, a coupon, a cancel, the termination job, a move to another card, a card deletion), so none
   * of them writes over a subscription another replaced meanwhile; `f` gets the row as it is under the lease. A lease a
   * crashed process left behind lapses after START_LEASE_SECONDS.
   */
  const withStartLease = async <T>(memberId: number, f: (cust: CustomerRow) => Promise<T>): Promise<T> => {
    const lease = crypto.randomUUID();
    const deadline = Date.now() + START_WAIT_MS;
    for (;;) {
      const held = (
        await sql.query<CustomerRow>(
          `UPDATE billing_customers SET start_lease = $2, start_lease_until = now() + $3 * interval '1 second'
           WHERE member_id = $1 AND (start_lease IS NULL OR start_lease_until < now()) RETURNING *`,
          [memberId, lease, START_LEASE_SECONDS],
        )
      )[0];
      if (held) {
        try {
          return await f(held);
        } finally {
          await sql.query('UPDATE billing_customers SET start_lease = NULL, start_lease_until = NULL WHERE member_id = $1 AND start_lease = $2', [
            memberId,
            lease,
          ]);
        }
      }
      if (Date.now() > deadline) throw new ApiError(409, BILLING_MESSAGES.startInProgress);
      await sleep(100);
    }
  };

  /** A start of a membership; `by`: who a refusal for a terminated member is worded for. */
  const startFor = async (memberId: number, input: Parameters<BillingService['startSubscription']>[1], actor: BillingActor, by: RefusedTo) => {
    await mustCustomer(memberId);
    return withStartLease(memberId, (cust) => startHeld(memberId, cust, input, actor, null, by));
  };
  const startSubscription: BillingService['startSubscription'] = (memberId, input, actor) => startFor(memberId, input, actor, 'member');

  /** Whether the member's billing state names a membership (a running, suspended or lifetime one). */
  const hasMembership = (c: CustomerRow) => c.subscription_status === 'active' || c.subscription_status === 'suspended' || c.subscription_status === 'lifetime';

  /**
   * Support's change of a member's membership to another type: the new subscription is started first, on the default
   * card, and the one it replaces (active, suspended or lifetime) ends only once the new one is charged. No card, a
   * decline or an unreachable gateway leave the member's membership as it was. A member with no membership when the
   * call comes gets the new one started, as a start would.
   *
   * The membership replaced is the one read when the call came (the one support saw): if, once the call holds the
   * subscription-start lease, the row names another membership or a canceled one (the member's cancel or a coupon ran
   * meanwhile), nothing is started or charged and the call is a 409. A retry of a request already run (its idempotency
   * key) answers that request's outcome before this check, since the row then names the membership it started.
   */
  const changeSubscription = async (memberId: number, input: { type: MembershipKey; idempotencyKey: string }, actor: BillingActor) => {
    const seen = await customer(memberId, false);
    if (!seen || !hasMembership(seen)) return startFor(memberId, input, actor, 'support');
    return withStartLease(memberId, (cust) => startHeld(memberId, cust, input, actor, seen, 'support'));
  };

  /**
   * Starts a membership under the member's subscription-start lease (`cust` is the row read under it). `replacing` is
   * null for a start, and for support's change the row as read when the call came: the membership it replaces.
   *
   * A terminated member gets nothing (409, worded for `by`): nothing asked of the gateway, nothing stored, and a retry
   * of a request run before the termination is refused too (the termination canceled what it started). A termination that commits while the
   * start is at the gateway is found when the start writes (the member's row read FOR SHARE in that transaction): the
   * charge is recorded as the gateway has it, no membership starts, the subscription is canceled and the charge given
   * back (endHeldForTerminated, as for a held first payment approved for a terminated member), and the call is a 409.
   */
  const startHeld = async (
    memberId: number,
    cust: CustomerRow,
    { type, code, idempotencyKey }: Parameters<BillingService['startSubscription']>[1],
    actor: BillingActor,
    replacing: CustomerRow | null,
    by: RefusedTo,
  ) => {
    const change = replacing !== null;
    await refuseTerminated(memberId, by);
    const hash = requestHash({ type });
    const prior = await byKey(memberId, 'subscription', idempotencyKey, hash);
    if (prior) return { ...replay(prior, BILLING_MESSAGES.subscribed), SubscriptionType: cust.subscription_type };
    if (replacing) {
      // Support changes the membership it saw: one canceled or replaced meanwhile is not changed (nor charged for).
      if (!hasMembership(cust) || !sameMembership(replacing, cust)) throw new ApiError(409, BILLING_MESSAGES.subscriptionChangedNotStarted);
      if (cust.subscription_type === type) {
        return { ...result(true, BILLING_MESSAGES.alreadySubscribed, null), SubscriptionType: type };
      }
    }
    // A first payment the gateway holds for review is the member's start, waiting for the merchant's decision: another
    // start (another key, another type, a coupon, support's change) answers it and charges nothing, so an approval
    // later cannot find a second membership paid for beside it. Once it is declined the member can start again.
    const held = await heldFirstPayment(memberId);
    if (held) return { ...result(false, held.message, held.id), SubscriptionType: cust.subscription_type };
    if (!change && (cust.subscription_status === 'active' || cust.subscription_status === 'lifetime')) {
      return { ...result(false, BILLING_MESSAGES.alreadySubscribed, null), SubscriptionType: cust.subscription_type };
    }
    const replaceOld = () => cancelReplaced(memberId, cust, actor);
    const trimmed = code?.trim() ?? '';
    if (trimmed) {
      const member = await services.members.load(memberId);
      const brand = member?.brand ?? null;
      const check = await coupons.check(trimmed, { brand });
      if (check.Status !== 0) return { ...result(false, check.Message, null), SubscriptionType: null };
      // A valid coupon always gives lifetime, with no charge (the coupon is the discount). The code is written first,
      // holding the coupon (its row FOR SHARE) in that transaction: a delete of it waits and then finds the member
      // using it (409); one that committed first, or a deactivation, is seen there and the start refused as the check
      // refuses, with nothing changed. The suspended membership it replaces is canceled at the gateway only after,
      // as a card start's is once charged, so a refused coupon leaves it as it was.
      const hold = await sql.transaction(async (tx) => {
        await refuseTerminated(memberId, by, tx);
        const coupon = await coupons.holdForUse(trimmed, tx, { brand });
        if (coupon.Status !== 0) return coupon;
        await tx.query(
          `UPDATE billing_customers SET subscription_type = 0, subscription_status = 'lifetime', coupon_code = $2, updated_at = now() WHERE member_id = $1`,
          [memberId, trimmed],
        );
        await audit(
          actor,
          { action: 'billing.subscription.coupon', entity: 'billing_customer', entityId: String(memberId), memberId, detail: { code: trimmed } },
          tx,
        );
        return coupon;
      });
      if (hold.Status !== 0) return { ...result(false, hold.Message, null), SubscriptionType: null };
      await replaceOld();
      return { ...result(true, BILLING_MESSAGES.lifetimeByCoupon, null), SubscriptionType: 0 };
    }
    // An earlier start whose answer was lost may have created a subscription at the gateway: it is taken up (and
    // answered as this start's outcome) instead of a second one being created and charged.
    const lost = await takeUpLost(memberId, cust, actor, { key: idempotencyKey, hash });
    if (lost) {
      return lost.ok
        ? { ...result(true, BILLING_MESSAGES.subscribed, lost.row.id), SubscriptionType: lost.type }
        : { ...result(false, lost.row.message, lost.row.id), SubscriptionType: cust.subscription_type };
    }
    const card = await defaultCardOf(memberId);
    if (!card) return { ...result(false, BILLING_MESSAGES.noCard, null), SubscriptionType: null };
    const amountCents = PRICES_CENTS[type];
    await ensureWebhook();
    // The gateway's key is the client's: a retried start (a lost answer) is the same subscription at the gateway too.
    const gwKey = `m${memberId}:sub:${idempotencyKey}`;
    const created = await viaGateway(() =>
      gw.createSubscription(
        {
          customerProfileId: cust.customer_profile_id,
          paymentProfileId: card.payment_profile_id,
          name: SUBSCRIPTION_NAMES[type],
          intervalMonths: type,
          amountCents,
        },
        gwKey,
      ),
    );
    const t = created.transaction;
    const ok = t.responseCode === '1';
    /** A termination committed while the gateway charged: nothing starts, and the charge is given back below. */
    let endedMeanwhile = false;
    const row = await record(
      memberId,
      t,
      { kind: 'subscription', description: SUBSCRIPTION_NAMES[type], idempotencyKey, requestHash: hash },
      actor,
      async (tx) => {
        endedMeanwhile = ok && (await services.members.isTerminated(memberId, tx, { share: true }));
        if (ok && !endedMeanwhile) {
          await tx.query(
            `UPDATE billing_customers SET subscription_id = $2, subscription_type = $3, subscription_status = $4, subscription_profile_id = $5, coupon_code = NULL,
               updated_at = now() WHERE member_id = $1`,
            [memberId, created.subscription.subscriptionId, type, type === 0 ? 'lifetime' : 'active', card.payment_profile_id],
          );
        }
      },
    );
    if (row && ok && endedMeanwhile) {
      await receipt(memberId, actor, msg(SUBSCRIPTION_NAMES[type]), t.amountCents, row.id, `XXXX${card.last4}`);
      await endHeldForTerminated(row, { ...t, subscriptionId: created.subscription.subscriptionId }, type, actor, 'billing.subscription.terminated');
      throw new ApiError(409, by === 'support' ? BILLING_MESSAGES.memberTerminated : BILLING_MESSAGES.terminated);
    }
    if (row && ok) {
      await replaceOld();
      await receipt(memberId, actor, msg(SUBSCRIPTION_NAMES[type]), t.amountCents, row.id, `XXXX${card.last4}`);
    }
    const recorded = row ?? (await sql.query<TxRow>('SELECT * FROM billing_transactions WHERE gateway_trans_id = $1', [t.transId]))[0];
    return { ...result(ok, ok ? BILLING_MESSAGES.subscribed : t.message, recorded?.id ?? null), SubscriptionType: ok ? type : null };
  };

  /** Whether two reads of the member's billing state name the same membership: its subscription, its type, lifetime or not. */
  const sameMembership = (a: CustomerRow, b: CustomerRow) =>
    a.subscription_id === b.subscription_id &&
    a.subscription_type === b.subscription_type &&
    (a.subscription_status === 'lifetime') === (b.subscription_status === 'lifetime');

  /**
   * Cancels the membership `cust` names (read under the member's subscription-start lease, which the caller holds): the
   * gateway stops renewing its subscription (a lifetime membership has none to stop) and any other of ours it renews
   * for the member (cancelStrays: one a start whose answer was lost left there), then our row is marked canceled
   * only while it still names that membership, audited in the same transaction. False when the row names another one
   * by then (possible only once a lease has lapsed): nothing is marked canceled.
   */
  const cancelLeased = async (
    memberId: number,
    cust: CustomerRow,
    actor: BillingActor,
    detail: Record<string, unknown>,
    byTermination = false,
  ): Promise<boolean> => {
    const subscriptionId = cust.subscription_id;
    const lifetime = cust.subscription_status === 'lifetime';
    if (subscriptionId && !lifetime) await viaGateway(() => gw.cancelSubscription(subscriptionId));
    // Every other subscription of ours the gateway would still renew for the member (one a start whose answer was
    // lost left there) ends with the membership.
    const strays = (await gatewaySubscriptions(cust.customer_profile_id)).filter((s) => RENEWING.has(s.status) && s.subscriptionId !== subscriptionId);
    await cancelStrays(memberId, strays, actor, detail);
    return sql.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE billing_customers SET subscription_status = 'canceled', ended_by_termination = $5, updated_at = now()
         WHERE member_id = $1 AND subscription_id IS NOT DISTINCT FROM $2 AND subscription_type IS NOT DISTINCT FROM $3
           AND subscription_status <> 'canceled' AND (subscription_status = 'lifetime') = $4 RETURNING member_id`,
        [memberId, subscriptionId, cust.subscription_type, lifetime, byTermination],
      );
      if (!rows.length) return false;
      await audit(
        actor,
        { action: 'billing.subscription.cancel', entity: 'billing_customer', entityId: String(memberId), memberId, detail: { subscriptionId, ...detail } },
        tx,
      );
      return true;
    });
  };

  /**
   * The member's (or support's) cancel of the membership. It runs holding the member's subscription-start lease, as
   * starts, support's change, a held payment's approval, a coupon and a card move do, so none of them can replace the
   * subscription between the gateway's cancel and our write. The membership is the one read when the call came: if a
   * change that was under way replaced it meanwhile (another subscription, type or a lifetime coupon), nothing is
   * canceled and the call is a 409, since the caller asked to cancel the one they saw.
   */
  const cancelSubscription = async (memberId: number, actor: BillingActor) => {
    const seen = await customer(memberId, false);
    if (!seen?.subscription_status || seen.subscription_status === 'canceled') throw new ApiError(400, BILLING_MESSAGES.noSubscription);
    await withStartLease(memberId, async (leased) => {
      if (!leased.subscription_status || leased.subscription_status === 'canceled') throw new ApiError(400, BILLING_MESSAGES.noSubscription);
      // A first payment held for review (support's change of this membership) is declined too: approved after the
      // cancel, it would start the plan the member just stopped paying for. Approved by the merchant first, it started
      // that plan: the membership is then not the one the member asked to cancel (409 below).
      await declineHeldLeased(memberId, actor, 'membership canceled');
      const cust = (await customer(memberId, false)) ?? leased;
      if (!sameMembership(seen, cust) || !(await cancelLeased(memberId, cust, actor, {}))) {
        throw new ApiError(409, BILLING_MESSAGES.subscriptionChangedNotCanceled);
      }
    });
    return profile(memberId);
  };

  /**
   * A membership that ended (spec 01 section 7, POST customer/terminate, run for every termination): cancels the
   * subscription the gateway would renew (monthly, yearly; also one suspended for a failed renewal), after declining a
   * first payment held for review (declineHeldLeased), whose approval would start a membership, and with it every
   * other subscription of ours the gateway renews for the member (cancelLeased; with no membership of ours running,
   * the ones a start whose answer was lost left there). A lifetime membership is left as it is. Under the
   * subscription-start lease, and whatever subscription
   * the row names then: one a change started meanwhile is canceled too. Safe to run again: the gateway's cancel is
   * idempotent, and a refusal (the lease still held by another call, the row changed) fails the job, which is retried.
   */
  const cancelRenewals = async (memberId: number, actor: BillingActor) => {
    if (!(await customer(memberId, false))) return false;
    return withStartLease(memberId, async (leased) => {
      // A first payment held for review is declined at the gateway first: approved later, it would start a renewing
      // membership for a member who has none (one the merchant approved first is reversed, see declineHeldLeased).
      await declineHeldLeased(memberId, actor, 'member terminated');
      const cust = (await customer(memberId, false)) ?? leased;
      if (!cust.subscription_id || (cust.subscription_status !== 'active' && cust.subscription_status !== 'suspended')) {
        // No membership of ours renews; a subscription a start whose answer was lost left at the gateway would.
        const strays = (await gatewaySubscriptions(cust.customer_profile_id)).filter((s) => RENEWING.has(s.status));
        await cancelStrays(memberId, strays, actor, { reason: 'member terminated' });
        return strays.length > 0;
      }
      if (!(await cancelLeased(memberId, cust, actor, { reason: 'member terminated' }, true))) throw new ApiError(409, BILLING_MESSAGES.subscriptionChanged);
      return true;
    });
  };

  /**
   * A member who terminated and reactivated gets back the membership the termination canceled, for the period already
   * paid for, without a new charge: while that period lasts (the latest charged membership payment plus the plan's
   * period, see paidThrough), the same plan is subscribed again at the gateway on the same card (else the default one),
   * its first charge on the day the paid period ends (ARB's startDate; tomorrow at the earliest), and our row names it,
   * active. Only for a monthly or yearly membership canceled by the termination (not one the member or support canceled
   * before), with the member no longer terminated; a period already over leaves the member to start a plan as before.
   * Under the subscription-start lease; the gateway's key is the canceled subscription's, so a retried run (the kernel's
   * job) subscribes once. True when the membership was given back.
   */
  const restoreAfterReactivation = async (memberId: number, actor: BillingActor): Promise<boolean> => {
    if (!(await customer(memberId, false))) return false;
    return withStartLease(memberId, async (cust) => {
      const type = cust.subscription_type;
      const oldId = cust.subscription_id;
      if (cust.subscription_status !== 'canceled' || !cust.ended_by_termination || !oldId || (type !== 1 && type !== 12)) return false;
      if (await services.members.isTerminated(memberId)) return false;
      const until = await paidThrough(memberId, type);
      if (!until || until.getTime() <= Date.now()) return false;
      const cards = await cardRows(memberId);
      const card = cards.find((c) => c.payment_profile_id === cust.subscription_profile_id) ?? cards.find((c) => c.is_default);
      if (!card) return false;
      // The day the paid period ends (UTC, the gateway's day); tomorrow when it ends within a day (a start day is after today).
      const tomorrow = new Date(Date.now() + 86_400_000);
      const startDate = (until > tomorrow ? until : tomorrow).toISOString().slice(0, 10);
      const sub = await viaGateway(() =>
        gw.scheduleSubscription(
          {
            customerProfileId: cust.customer_profile_id,
            paymentProfileId: card.payment_profile_id,
            name: SUBSCRIPTION_NAMES[type],
            intervalMonths: type,
            amountCents: PRICES_CENTS[type],
            startDate,
          },
          `m${memberId}:restore:${oldId}`,
        ),
      );
      const restored = await sql.transaction(async (tx) => {
        const rows = await tx.query(
          `UPDATE billing_customers SET subscription_id = $2, subscription_status = 'active', subscription_profile_id = $3, ended_by_termination = false,
             updated_at = now()
           WHERE member_id = $1 AND subscription_id = $4 AND subscription_status = 'canceled' AND ended_by_termination RETURNING member_id`,
          [memberId, sub.subscriptionId, card.payment_profile_id, oldId],
        );
        if (!rows.length) return false;
        await audit(
          actor,
          {
            action: 'billing.subscription.restore',
            entity: 'billing_customer',
            entityId: String(memberId),
            memberId,
            detail: { subscriptionId: sub.subscriptionId, replaced: oldId, subscriptionType: type, paidThrough: until.toISOString(), startDate },
          },
          tx,
        );
        return true;
      });
      // Our row changed meanwhile (it cannot under the lease, but a subscription we do not name must not renew).
      if (!restored) await viaGateway(() => gw.cancelSubscription(sub.subscriptionId));
      return restored;
    });
  };

  const moveMoney = async (
    memberId: number,
    kind: 'charge' | 'prepull',
    gwType: 'authCapture' | 'authOnly',
    input: { paymentProfileId: number; amountCents: number; description: string; claimId?: number; idempotencyKey: string },
    actor: BillingActor,
  ) => {
    const hash = requestHash({
      paymentProfileId: input.paymentProfileId,
      amountCents: input.amountCents,
      description: input.description,
      claimId: input.claimId ?? null,
    });
    const prior = await byKey(memberId, kind, input.idempotencyKey, hash);
    if (prior) return replay(prior, gwType === 'authOnly' ? BILLING_MESSAGES.authorized : BILLING_MESSAGES.charged);
    // Support charges or authorizes nothing new for a terminated member (a retry above still answers what a call made
    // before the termination did: that money did move).
    await refuseTerminated(memberId, 'support');
    const cust = await mustCustomer(memberId);
    const card = await ownCard(memberId, input.paymentProfileId);
    // The gateway's key is the client's: a retried call (a lost answer) is the same transaction at the gateway too.
    const key = `m${memberId}:${kind}:${input.idempotencyKey}`;
    const t = await viaGateway(() =>
      gw.transaction(
        {
          type: gwType,
          customerProfileId: cust.customer_profile_id,
          paymentProfileId: input.paymentProfileId,
          amountCents: input.amountCents,
          description: input.description,
        },
        key,
      ),
    );
    const ok = t.responseCode === '1';
    const row = await record(
      memberId,
      t,
      { kind, description: input.description, claimId: input.claimId, idempotencyKey: input.idempotencyKey, requestHash: hash },
      actor,
    );
    if (row && ok) {
      const what = gwType === 'authOnly' ? msg('Authorization: {{description}}', { description: described(input.description) }) : described(input.description);
      await receipt(memberId, actor, what, t.amountCents, row.id, card.CardNumber);
    }
    const recorded = row ?? (await sql.query<TxRow>('SELECT * FROM billing_transactions WHERE gateway_trans_id = $1', [t.transId]))[0];
    return result(ok, ok ? (gwType === 'authOnly' ? BILLING_MESSAGES.authorized : BILLING_MESSAGES.charged) : t.message, recorded?.id ?? null);
  };

  const txById = async (id: number) => (await sql.query<TxRow>('SELECT * FROM billing_transactions WHERE id = $1', [id]))[0] ?? null;

  /**
   * Moves a charge the gateway held for review to what the gateway then decided (approved: Charged, or Authorized for
   * a prepull; declined: Declined), once: only the call that moves the row audits it and sends the receipt. A charge
   * still held stays Pending. Answers whether this call moved it.
   *
   * An approved first payment of a membership (held when the subscription started) starts that membership in the same
   * database transaction as the row moves, so whichever of the webhook (however often delivered), the transaction sync
   * and support's Charge moves the row starts it, once. It runs holding the member's subscription-start lease, as a start
   * does, so no start can charge for a second membership meanwhile; a membership it replaces (support's change of an
   * active one) is canceled at the gateway afterwards. A declined one starts nothing: the member can start again.
   */
  const applyHeldDecision = async (
    original: TxRow,
    t: GatewayTransaction,
    actor: BillingActor,
    action: string,
    detail: Record<string, unknown>,
    leased = false,
  ): Promise<HeldOutcome> => {
    const status = statusOf(t);
    if (status === 'Pending') return false;
    const ok = approved(status);
    const type = ok && t.subscriptionId !== null ? startsMembership(original) : null;
    const decide = () =>
      sql.transaction(async (tx) => {
        const rows = await tx.query(`UPDATE billing_transactions SET status = $2, message = $3 WHERE id = $1 AND status = 'Pending' RETURNING id`, [
          original.id,
          status,
          t.message,
        ]);
        if (!rows.length) return null;
        let replaced: CustomerRow | null = null;
        // A member terminated meanwhile gets no membership: the charge is recorded as the gateway has it (the money
        // moved), and is reversed with the subscription it created once this transaction commits (endHeldForTerminated).
        const ended = type !== null && (await services.members.isTerminated(original.member_id, tx));
        if (type !== null && !ended) {
          replaced = (await tx.query<CustomerRow>('SELECT * FROM billing_customers WHERE member_id = $1 FOR UPDATE', [original.member_id]))[0] ?? null;
          await tx.query(
            `UPDATE billing_customers SET subscription_id = $2, subscription_type = $3, subscription_status = $4, subscription_profile_id = $5, coupon_code = NULL,
               updated_at = now() WHERE member_id = $1`,
            [original.member_id, t.subscriptionId, type, type === 0 ? 'lifetime' : 'active', original.payment_profile_id ?? t.paymentProfileId],
          );
        }
        await audit(
          actor,
          {
            action,
            entity: 'billing_transaction',
            entityId: String(original.id),
            memberId: original.member_id,
            outcome: ok ? 'success' : 'failure',
            detail: {
              amountCents: t.amountCents,
              gatewayTransId: t.transId,
              status,
              ...detail,
              ...(type === null
                ? {}
                : ended
                  ? { membership: null, notStarted: { subscriptionType: type, subscriptionId: t.subscriptionId, reason: 'member terminated' } }
                  : { membership: { subscriptionType: type, subscriptionId: t.subscriptionId, replaced: replaced?.subscription_id ?? null } }),
            },
          },
          tx,
        );
        return { replaced, ended };
      });
    const moved = type === null || leased ? await decide() : await withStartLease(original.member_id, decide);
    if (!moved) return false;
    if (moved.replaced && moved.replaced.subscription_id !== t.subscriptionId) await cancelReplaced(original.member_id, moved.replaced, actor);
    if (ok) {
      const what = described(original.description ?? CHARGE);
      const card = (await cardRows(original.member_id)).find((c) => c.payment_profile_id === original.payment_profile_id);
      await receipt(
        original.member_id,
        actor,
        status === 'Authorized' ? msg('Authorization: {{description}}', { description: what }) : what,
        t.amountCents,
        original.id,
        card ? `XXXX${card.last4}` : null,
      );
    }
    if (moved.ended && type !== null) {
      await endHeldForTerminated(original, t, type, actor);
      return 'notStarted';
    }
    return 'moved';
  };

  /**
   * An approved first payment of a member terminated meanwhile (applyHeldDecision recorded it Charged and started
   * nothing; or a start the termination overtook while it was at the gateway, see startHeld): the subscription the
   * payment created at the gateway is canceled, so it never renews, and the charge is given back through `reverse`:
   * voided while unsettled, refunded once settled (a void the gateway refuses because the batch settled meanwhile
   * becomes a refund). Audited as `action` (`billing.held.terminated`; `billing.subscription.terminated` for a start).
   * A failure (the gateway unreachable, a refusal) is audited naming what is left, and in that transaction the
   * HELD_TERMINATED_JOB is queued (once per charge) to finish it (finishHeldForTerminated).
   */
  const endHeldForTerminated = async (original: TxRow, t: GatewayTransaction, type: MembershipKey, actor: BillingActor, action = 'billing.held.terminated') => {
    const subscriptionId = t.subscriptionId;
    const problems: string[] = [];
    let subscriptionCanceled = false;
    // A lifetime membership's subscription is over once its payment is approved: the gateway renews nothing.
    if (subscriptionId !== null && type !== 0) {
      await viaGateway(() => gw.cancelSubscription(subscriptionId)).then(
        () => {
          subscriptionCanceled = true;
        },
        (e: unknown) => problems.push(`cancel: ${failedText(e)}`),
      );
    }
    const back = await giveBack(original, t.transId, actor);
    if (back.problem) problems.push(back.problem);
    const job: HeldTerminatedJob = { transactionId: original.id, subscriptionId, subscriptionType: type, action };
    await sql.transaction(async (tx) => {
      await audit(
        actor,
        {
          action,
          entity: 'billing_transaction',
          entityId: String(original.id),
          memberId: original.member_id,
          outcome: problems.length ? 'failure' : 'success',
          detail: {
            reason: 'member terminated',
            subscriptionType: type,
            subscriptionId,
            subscriptionCanceled,
            reversal: back.reversal,
            reversed: back.reversed,
            ...(back.atGateway ? { givenBackAtGateway: true } : {}),
            ...(problems.length ? { problems, retryJob: HELD_TERMINATED_JOB } : {}),
          },
        },
        tx,
      );
      if (problems.length) await services.jobs.send(HELD_TERMINATED_JOB, job, { tx, singletonKey: `held-terminated:${original.id}` });
    });
  };
  const failedText = (e: unknown) => (e instanceof Error ? e.message : String(e));

  /**
   * Gives back an approved charge through `reverse`, as the gateway has it now (`transId`, its transaction): voided
   * while unsettled, refunded once settled (a refused void becomes a refund). One given back outside our product
   * meanwhile (the merchant's screen) makes the gateway refuse ours: reverseCharge then records that void or refund
   * instead (`atGateway`), so nothing is given back twice. A void of ours whose answer was lost is voided again under
   * the same gateway key, which answers that void: it is recorded, not repeated. `problem` names what failed, if anything.
   */
  const giveBack = async (
    original: TxRow,
    transId: number,
    actor: BillingActor,
  ): Promise<{ reversal: 'void' | 'refund' | null; reversed: boolean; problem: string | null; atGateway: boolean }> => {
    let reversal: 'void' | 'refund' | null = null;
    try {
      const now = await viaGateway(() => gw.getTransaction(transId));
      const voided = now.status === 'voided';
      reversal = voided || UNSETTLED.has(now.status) ? 'void' : 'refund';
      let back = await reverseCharge(original.id, reversal, actor, 'terminated');
      if (back.result.StatusString !== 'Ok' && reversal === 'void' && !voided) {
        reversal = 'refund';
        back = await reverseCharge(original.id, reversal, actor, 'terminated');
      }
      const r = back.result;
      const reversed = r.StatusString === 'Ok';
      return { reversal, reversed, problem: reversed ? null : `${reversal}: ${r.Message}`, atGateway: back.atGateway };
    } catch (e) {
      return { reversal, reversed: false, problem: `${reversal ?? 'reverse'}: ${failedText(e)}`, atGateway: false };
    }
  };

  /**
   * The HELD_TERMINATED_JOB: finishes what endHeldForTerminated left, reading again what is still to do, so a run
   * repeated (a retry after a failure part-way, a job delivered twice) does nothing twice. The subscription is canceled
   * at the gateway only while the gateway still renews it (active or suspended; a cancel done already is no error), and
   * the charge given back only while our records hold no void or refund of it (the row Voided or Refunded, or a
   * reversal row); `reverse`'s gateway key is the charge's own (`void:<id>`, `refund:<id>`), so two runs at once give
   * it back once. A run that finishes audits `action` as a success with `retried` and its attempt; one that fails
   * throws, so the queue retries it, and the last attempt audits the failure first, naming what is left for support.
   */
  const finishHeldForTerminated = async (job: HeldTerminatedJob, run: { attempt: number; maxAttempts: number }, actor: BillingActor) => {
    const original = await txById(job.transactionId);
    if (!original || original.gateway_trans_id === null) return;
    const transId = original.gateway_trans_id;
    const { subscriptionId, subscriptionType: type } = job;
    const problems: string[] = [];
    /** What this run did; empty when everything was done before it. */
    const finished: string[] = [];
    let subscriptionCanceled = subscriptionId === null || type === 0;
    if (subscriptionId !== null && type !== 0) {
      try {
        const sub = await viaGateway(() => gw.getSubscription(subscriptionId));
        if (RENEWING.has(sub.status)) {
          await viaGateway(() => gw.cancelSubscription(subscriptionId));
          finished.push('cancel');
        }
        subscriptionCanceled = true;
      } catch (e) {
        problems.push(`cancel: ${failedText(e)}`);
      }
    }
    // Given back whole: voided, or refunded in full (a refund made at the gateway that left some of it does not count).
    const done = (
      await sql.query<{ kind: 'void' | 'refund' }>(
        `SELECT kind FROM billing_transactions WHERE ref_transaction_id = $1 AND kind = 'void' ORDER BY id LIMIT 1`,
        [original.id],
      )
    )[0];
    let reversal: 'void' | 'refund' | null = done?.kind ?? (original.status === 'Voided' ? 'void' : original.status === 'Refunded' ? 'refund' : null);
    let reversed = reversal !== null;
    /** Given back in the gateway's own screens meanwhile: recorded by this run, not given back again. */
    let atGateway = false;
    if (!reversed) {
      const back = await giveBack(original, transId, actor);
      reversal = back.reversal;
      reversed = back.reversed;
      atGateway = back.atGateway;
      if (back.problem) problems.push(back.problem);
      else if (reversal && !atGateway) finished.push(reversal);
    }
    const last = run.attempt >= run.maxAttempts;
    const left = () => new Error(`billing: the give-back of held payment ${original.id} of a terminated member is not finished: ${problems.join('; ')}`);
    if (problems.length && !last) throw left();
    await sql.transaction((tx) =>
      audit(
        actor,
        {
          action: job.action,
          entity: 'billing_transaction',
          entityId: String(original.id),
          memberId: original.member_id,
          outcome: problems.length ? 'failure' : 'success',
          detail: {
            reason: 'member terminated',
            subscriptionType: type,
            subscriptionId,
            subscriptionCanceled,
            reversal,
            reversed,
            retried: true,
            attempt: run.attempt,
            finished,
            ...(atGateway ? { givenBackAtGateway: true } : {}),
            ...(problems.length ? { problems } : {}),
          },
        },
        tx,
      ),
    );
    if (problems.length) throw left();
  };

  /**
   * Declines at the gateway the member's first payment held for review (the gateway's review decision 'decline', as
   * support's Decline asks it), so no approval can start its membership later; the caller holds the member's
   * subscription-start lease (the termination job, the member's cancel). Our row follows the gateway's answer through
   * applyHeldDecision: Declined, audited `billing.held.decline`; or, when the merchant approved it first (the gateway
   * no longer holds it), that approval as the gateway has it (for a terminated member: recorded, reversed, nothing
   * started). Nothing held: nothing done.
   */
  const declineHeldLeased = async (memberId: number, actor: BillingActor, reason: string): Promise<void> => {
    const held = await heldFirstPayment(memberId);
    if (!held || held.gateway_trans_id === null) return;
    const transId = held.gateway_trans_id;
    await reviewStarting(held.id);
    const t = await viaGateway(async () => {
      try {
        return await gw.reviewHeld(transId, 'decline');
      } catch (e) {
        // Decided already (the merchant approved it on the gateway's screen): the gateway's transaction as it is now.
        if (e instanceof GatewayError && e.status === 400) return gw.getTransaction(transId);
        throw e;
      }
    });
    const declined = statusOf(t) === 'Declined';
    await applyHeldDecision(held, t, actor, declined ? 'billing.held.decline' : 'billing.held.decided', { source: 'decline', reason }, true);
  };

  /**
   * Support's Charge on a charge the gateway holds for review: approved at the gateway, the held charge itself moves the
   * money (no second charge); a prepull becomes the authorization it asked for, and a membership's first payment starts
   * the membership (applyHeldDecision). Approving twice decides once at the gateway, and only the call that moves the row
   * audits it and sends the receipt.
   */
  const approveHeld = async (original: TxRow, idempotencyKey: string, actor: BillingActor): Promise<MoneyResult> => {
    await reviewStarting(original.id);
    const t = await viaGateway(() => gw.reviewHeld(original.gateway_trans_id as number, 'approve'));
    if ((await applyHeldDecision(original, t, actor, 'billing.held.approve', { idempotencyKey })) === 'notStarted') {
      throw new ApiError(409, BILLING_MESSAGES.heldForTerminated);
    }
    const status = statusOf(t);
    const ok = approved(status);
    return result(ok, ok ? (status === 'Authorized' ? BILLING_MESSAGES.authorized : BILLING_MESSAGES.charged) : t.message, original.id);
  };

  /** Marks a held charge as being decided through us, before the gateway is asked (see {@link heldRow}). */
  const reviewStarting = async (id: number) => {
    await sql.query(`UPDATE billing_transactions SET review_started_at = now() WHERE id = $1 AND status = 'Pending'`, [id]);
  };
  /**
   * Our Pending row of a gateway transaction that no call of ours is deciding: support's Charge or Decline records its
   * own decision (audited as support's), so the gateway's word of it leaves the row to that call for a minute.
   */
  const HELD_FREE = `status = 'Pending' AND (review_started_at IS NULL OR review_started_at < now() - interval '${CALL_IN_FLIGHT_SECONDS} seconds')`;
  const heldRow = async (transId: number): Promise<TxRow | undefined> =>
    (await sql.query<TxRow>(`SELECT * FROM billing_transactions WHERE gateway_trans_id = $1 AND ${HELD_FREE}`, [transId]))[0];
  /** The member's held charges of {@link heldRow}, by gateway transaction: one query for a whole sync. */
  const heldRowsOf = async (memberId: number): Promise<Map<number, TxRow>> =>
    new Map(
      (await sql.query<TxRow>(`SELECT * FROM billing_transactions WHERE member_id = $1 AND gateway_trans_id IS NOT NULL AND ${HELD_FREE}`, [memberId])).map(
        (r) => [r.gateway_trans_id as number, r],
      ),
    );

  /**
   * A charge of ours that no call of ours is giving back: a void or refund asked through us is recorded by that call
   * (audited as its actor's), so the gateway's word of it leaves the charge to that call for a minute.
   */
  const REVERSAL_FREE = `(reversal_started_at IS NULL OR reversal_started_at < now() - interval '${CALL_IN_FLIGHT_SECONDS} seconds')`;

  /**
   * Records a void or refund the gateway made of a charge of ours that no call of ours recorded: one the merchant's
   * staff made in the gateway's own screens (or another tool on the merchant's account), or a call of ours whose answer
   * was lost. `t` is the gateway's void or refund transaction. It is recorded as our own `reverse` records one (a row of
   * its kind referring to the charge, once by the gateway's id), the charge's status following when it is given back
   * whole (a void; refunds that add up to its amount), audited `billing.void.synced` or `billing.refund.synced` with
   * `source`, and the member is sent the receipt. True when this call recorded it.
   */
  const recordReversal = async (t: GatewayTransaction, actor: BillingActor, source: 'webhook' | 'sync' | 'terminated'): Promise<boolean> => {
    if ((t.type !== 'void' && t.type !== 'refund') || t.responseCode !== '1' || t.refTransId === null) return false;
    const kind = t.type;
    // Recorded before (the usual case in a sync, which reads the member's whole history): nothing to write.
    const original = (
      await sql.query<TxRow>(
        `SELECT * FROM billing_transactions WHERE gateway_trans_id = $1 AND kind IN ('subscription', 'charge', 'prepull') AND ${REVERSAL_FREE}
            AND NOT EXISTS (SELECT 1 FROM billing_transactions WHERE gateway_trans_id = $2)`,
        [t.refTransId, t.transId],
      )
    )[0];
    if (!original) return false;
    const row = await record(original.member_id, t, { kind, description: original.description, refId: original.id }, actor, async (tx) => {
      const refunded =
        kind === 'refund'
          ? ((
              await tx.query<{ s: number }>(
                `SELECT COALESCE(sum(amount_cents), 0)::int AS s FROM billing_transactions WHERE ref_transaction_id = $1 AND kind = 'refund'`,
                [original.id],
              )
            )[0]?.s ?? 0)
          : 0;
      const whole = kind === 'void' || refunded >= original.amount_cents;
      if (whole) await tx.query('UPDATE billing_transactions SET status = $2 WHERE id = $1', [original.id, kind === 'refund' ? 'Refunded' : 'Voided']);
      await audit(
        actor,
        {
          action: `billing.${kind}.synced`,
          entity: 'billing_transaction',
          entityId: String(original.id),
          memberId: original.member_id,
          detail: { gatewayTransId: t.transId, amountCents: t.amountCents, whole, source },
        },
        tx,
      );
    });
    if (row) await receipt(original.member_id, actor, labelled(kind, original.description), t.amountCents, row.id, null);
    return row !== null;
  };

  /**
   * The voids and refunds the gateway holds of one charge of ours (`original`), recorded as recordReversal records
   * them; answers the charge as it is then.
   */
  const takeUpReversals = async (original: TxRow, actor: BillingActor, source: 'sync' | 'terminated'): Promise<TxRow> => {
    const cust = await customer(original.member_id, false);
    if (!cust || original.gateway_trans_id === null) return original;
    const remote = await viaGateway(() => gw.listTransactions(cust.customer_profile_id));
    for (const t of remote) if (t.refTransId === original.gateway_trans_id) await recordReversal(t, actor, source);
    return (await txById(original.id)) ?? original;
  };

  /**
   * Support's Refund or Void of a charge (and the held-terminated give-back's, `source` 'terminated'), once per charge:
   * the gateway's key is the charge's own. `atGateway`: the gateway refused it because the charge was given back in
   * its own screens meanwhile, which this call recorded (recordReversal) and answers as given back.
   */
  const reverseCharge = async (
    transactionId: number,
    kind: 'refund' | 'void',
    actor: BillingActor,
    source: 'sync' | 'terminated' = 'sync',
  ): Promise<{ result: MoneyResult; atGateway: boolean }> => {
    const answer = (r: MoneyResult, atGateway = false) => ({ result: r, atGateway });
    const given = kind === 'refund' ? BILLING_MESSAGES.refunded : BILLING_MESSAGES.voided;
    const original = await txById(transactionId);
    if (!original || original.gateway_trans_id === null || !['subscription', 'charge', 'prepull'].includes(original.kind)) {
      throw new ApiError(404, BILLING_MESSAGES.transactionNotFound);
    }
    const reversal = reversalOf(original.id, kind);
    const done = (await sql.query<TxRow>(reversal.sql, reversal.params))[0];
    // Given back already (a refund that left some of the charge, made at the gateway, does not count: the rest is refunded).
    if (done && (kind === 'void' || original.status === 'Refunded')) return answer(replay(done, given));
    // The gateway's word of this void or refund (its webhook) leaves it to this call, which records it as its actor's.
    // A call that fails or is refused lets it go: what the gateway did meanwhile is anyone's to record.
    await sql.query('UPDATE billing_transactions SET reversal_started_at = now() WHERE id = $1', [original.id]);
    const letGo = () => sql.query('UPDATE billing_transactions SET reversal_started_at = NULL WHERE id = $1', [original.id]);
    const t = await viaGateway(() =>
      gw.transaction(
        kind === 'refund'
          ? { type: 'refund', refTransId: original.gateway_trans_id as number }
          : { type: 'void', refTransId: original.gateway_trans_id as number },
        `${kind}:${original.gateway_trans_id}`,
      ),
    ).catch(async (e: unknown) => {
      await letGo();
      throw e;
    });
    if (t.responseCode !== '1') {
      await letGo();
      // Refused because the merchant's staff gave it back in the gateway's own screens (its webhook not here yet): that
      // void or refund is recorded, and answered as given back.
      const now = await takeUpReversals(original, actor, source).catch(() => original);
      const last = (
        await sql.query<TxRow>(`SELECT * FROM billing_transactions WHERE ref_transaction_id = $1 AND kind IN ('void', 'refund') ORDER BY id DESC LIMIT 1`, [
          original.id,
        ])
      )[0];
      if (last && (now.status === 'Voided' || now.status === 'Refunded')) {
        return answer(replay(last, last.kind === 'refund' ? BILLING_MESSAGES.refunded : BILLING_MESSAGES.voided), true);
      }
      await sql.transaction((tx) =>
        audit(
          actor,
          {
            action: `billing.${kind}`,
            entity: 'billing_transaction',
            entityId: String(original.id),
            memberId: original.member_id,
            outcome: 'refused',
            detail: { message: t.message },
          },
          tx,
        ),
      );
      return answer(result(false, t.message, original.id));
    }
    const row = await record(original.member_id, t, { kind, description: original.description, refId: original.id }, actor, async (tx) => {
      await tx.query('UPDATE billing_transactions SET status = $2 WHERE id = $1', [original.id, kind === 'refund' ? 'Refunded' : 'Voided']);
    });
    if (row) await receipt(original.member_id, actor, labelled(kind, original.description), t.amountCents, row.id, null);
    return answer(result(true, given, row?.id ?? original.id));
  };

  /**
   * Captures one authorization for up to its amount. The gateway's key is the authorization's (capture:<its id>), so
   * two captures of it at once capture it once; the one that records it audits it and sends the receipt. `request`:
   * the caller's IdempotencyKey and request hash, stored so a repeat of that call answers what it did.
   */
  const captureAuthorization = async (auth: TxRow, amountCents: number, actor: BillingActor, request: { key: string; hash: string } | null) => {
    if (amountCents > auth.amount_cents) throw new ApiError(400, msg('Amount: must be at most the authorized {{amount}}', capturedAtMost(auth.amount_cents)));
    const t = await viaGateway(() =>
      gw.transaction({ type: 'priorAuthCapture', refTransId: auth.gateway_trans_id as number, amountCents }, `capture:${auth.gateway_trans_id}`),
    );
    if (t.responseCode !== '1') return result(false, t.message, auth.id);
    const changed = await sql.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE billing_transactions SET status = 'Charged', amount_cents = $2, capture_key = $3, capture_hash = $4 WHERE id = $1 AND status = 'Authorized' RETURNING id`,
        [auth.id, amountCents, request?.key ?? null, request?.hash ?? null],
      );
      if (rows.length) {
        await audit(
          actor,
          { action: 'billing.capture', entity: 'billing_transaction', entityId: String(auth.id), memberId: auth.member_id, detail: { amountCents } },
          tx,
        );
      }
      return rows.length > 0;
    });
    if (changed) await receipt(auth.member_id, actor, labelled('charge', auth.description), amountCents, auth.id, null);
    return result(true, BILLING_MESSAGES.captured, auth.id);
  };

  return {
    withLog,
    customer: (memberId, create) => customer(memberId, create),
    cards,
    ownCard,
    profile,
    async transactions(memberId) {
      return (await sql.query<TxRow>('SELECT * FROM billing_transactions WHERE member_id = $1 ORDER BY created_at DESC, id DESC', [memberId])).map(
        toTransaction,
      );
    },
    async memberOfCustomer(customerProfileId) {
      return (
        (await sql.query<{ member_id: number }>('SELECT member_id FROM billing_customers WHERE customer_profile_id = $1', [customerProfileId]))[0]?.member_id ??
        null
      );
    },
    syncCards,
    /**
     * Under the member's subscription-start lease, as a cancel, a change or a move to another card: a subscription that
     * ran on the deleted card moves to the default card, at the gateway and then in our row (only while the row still
     * names that subscription on that card), audited in the same transaction as the write.
     */
    async deleteCard(memberId, paymentProfileId, actor) {
      await mustCustomer(memberId);
      return withStartLease(memberId, async (cust) => {
        const card = await ownCard(memberId, paymentProfileId);
        await viaGateway(() => gw.deleteProfile(cust.customer_profile_id, paymentProfileId));
        let deactivated = false;
        await sql.transaction(async (tx) => {
          await tx.query('DELETE FROM billing_cards WHERE payment_profile_id = $1 AND member_id = $2', [paymentProfileId, memberId]);
          await audit(
            actor,
            { action: 'billing.card.delete', entity: 'billing_card', entityId: String(paymentProfileId), memberId, detail: { card: card.CardNumber } },
            tx,
          );
          const left = (await cardRows(memberId, tx)).length;
          if (left === 0) {
            deactivated = true;
            await tx.query(
              `UPDATE billing_customers SET is_deactivated = true, updated_at = now(),
                 subscription_status = CASE WHEN subscription_status = 'active' THEN 'suspended' ELSE subscription_status END WHERE member_id = $1`,
              [memberId],
            );
            await audit(actor, { action: 'billing.account.deactivate', entity: 'billing_customer', entityId: String(memberId), memberId }, tx);
          }
        });
        if (!deactivated) {
          await syncCards(memberId, actor);
          const after = await customer(memberId, false);
          const def = await defaultCardOf(memberId);
          if (after?.subscription_status === 'active' && after.subscription_profile_id === paymentProfileId && after.subscription_id && def) {
            const subscriptionId = after.subscription_id;
            await viaGateway(() => gw.updateSubscription(subscriptionId, { paymentProfileId: def.payment_profile_id }));
            await sql.transaction(async (tx) => {
              const moved = await tx.query(
                `UPDATE billing_customers SET subscription_profile_id = $2, updated_at = now()
                 WHERE member_id = $1 AND subscription_id = $3 AND subscription_profile_id = $4 AND subscription_status = 'active' RETURNING member_id`,
                [memberId, def.payment_profile_id, subscriptionId, paymentProfileId],
              );
              if (!moved.length) return;
              await audit(
                actor,
                {
                  action: 'billing.subscription.card',
                  entity: 'billing_card',
                  entityId: String(def.payment_profile_id),
                  memberId,
                  detail: { subscriptionId, from: paymentProfileId, reason: 'card deleted' },
                },
                tx,
              );
            });
          }
        }
        return { deactivated };
      });
    },
    async setDefaultCard(memberId, paymentProfileId, actor) {
      const cust = await mustCustomer(memberId);
      await ownCard(memberId, paymentProfileId);
      await viaGateway(() => gw.setDefaultProfile(cust.customer_profile_id, paymentProfileId));
      await sql.transaction(async (tx) => {
        await tx.query('UPDATE billing_cards SET is_default = (payment_profile_id = $2) WHERE member_id = $1', [memberId, paymentProfileId]);
        await audit(actor, { action: 'billing.card.default', entity: 'billing_card', entityId: String(paymentProfileId), memberId }, tx);
      });
      // A membership suspended by a declined renewal (or its card deleted) resumes on the card the member chose.
      await resumeOnto(memberId, paymentProfileId, actor);
    },
    /**
     * Moves the subscription to one of the member's cards (a suspended one resumes there at the gateway), under the
     * member's subscription-start lease: the subscription moved is the one the row names under it, and our row follows
     * only while it still names that one, running or suspended (else a 409 and nothing is written).
     */
    async setSubscriptionCard(memberId, paymentProfileId, actor) {
      await mustCustomer(memberId);
      await withStartLease(memberId, async (cust) => {
        await ownCard(memberId, paymentProfileId);
        const subscriptionId = cust.subscription_id;
        if (!subscriptionId || (cust.subscription_status !== 'active' && cust.subscription_status !== 'suspended')) {
          throw new ApiError(400, BILLING_MESSAGES.noSubscription);
        }
        await viaGateway(() => gw.updateSubscription(subscriptionId, { paymentProfileId }));
        await sql.transaction(async (tx) => {
          const rows = await tx.query(
            `UPDATE billing_customers SET subscription_profile_id = $2, subscription_status = 'active', updated_at = now()
             WHERE member_id = $1 AND subscription_id = $3 AND subscription_status IN ('active', 'suspended') RETURNING member_id`,
            [memberId, paymentProfileId, subscriptionId],
          );
          if (!rows.length) throw new ApiError(409, BILLING_MESSAGES.subscriptionChanged);
          await audit(
            actor,
            {
              action: 'billing.subscription.card',
              entity: 'billing_card',
              entityId: String(paymentProfileId),
              memberId,
              detail: { subscriptionId, from: cust.subscription_profile_id, resumed: cust.subscription_status === 'suspended' },
            },
            tx,
          );
        });
      });
    },
    async formToken(memberId, returnUrl, paymentProfileId) {
      const cust = await mustCustomer(memberId);
      // Another member's card (or one removed meanwhile) is not this member's to edit: 404, no token.
      if (paymentProfileId !== undefined && !(await cardRows(memberId)).some((c) => c.payment_profile_id === paymentProfileId))
        throw new ApiError(404, BILLING_MESSAGES.cardNotFound);
      const t = await viaGateway(() => gw.hostedFormToken({ customerProfileId: cust.customer_profile_id, paymentProfileId, returnUrl }));
      return { Token: t.token, Url: t.url };
    },
    async checkCoupon(memberId, code) {
      const member = await services.members.load(memberId);
      return coupons.check(code, { brand: member?.brand ?? null });
    },
    async applyCoupon(memberId, code, actor, by = 'member') {
      // Nothing for a terminated member, before the code is even looked at; and again in the transaction that writes
      // the coupon (FOR SHARE), so a termination cannot land between the check and the write.
      await refuseTerminated(memberId, by);
      const member = await services.members.load(memberId);
      const brand = member?.brand ?? null;
      const answer = (c: CouponCheck) => ({ Status: c.Status, IsLifetime: c.IsLifetime, IsVendorLifetime: c.IsVendorLifetime, Message: c.Message });
      const check = await coupons.check(code, { brand });
      if (check.Status !== 0) return answer(check);
      await mustCustomer(memberId);
      // Under the start lease, as a start and a held payment's approval: a first payment held for review would, once
      // approved, start the plan it paid for over the coupon's lifetime membership, so the coupon waits for its decision.
      const held = await withStartLease(memberId, async (cust) => {
        if (await heldFirstPayment(memberId)) throw new ApiError(409, BILLING_MESSAGES.couponWhileHeld);
        const running =
          cust.subscription_id && (cust.subscription_status === 'active' || cust.subscription_status === 'suspended') ? cust.subscription_id : null;
        if (running !== null) {
          // The subscription ends at the gateway before the coupon is written (a gateway that fails leaves it running and
          // nothing changed). The code is checked again first: the lease may have been waited for, and a coupon deleted
          // or deactivated meanwhile then cancels nothing.
          const again = await coupons.check(code, { brand });
          if (again.Status !== 0) return again;
          await viaGateway(() => gw.cancelSubscription(running));
        }
        return sql.transaction(async (tx) => {
          await refuseTerminated(memberId, by, tx);
          // The coupon is held (its row FOR SHARE) until the code is written: a delete of it waits and then finds the
          // member using it (409); one that committed first, or a deactivation, is seen here and the code is refused.
          const hold = await coupons.holdForUse(code, tx, { brand });
          if (hold.Status !== 0) {
            // Refused after the gateway canceled the subscription (the coupon was deleted, deactivated or ended while
            // it did): our row says so, as the member's cancel would, and the member can start a plan again.
            if (running !== null) await recordCanceledForCoupon(tx, memberId, running, actor, hold);
            return hold;
          }
          await tx.query(
            `UPDATE billing_customers SET subscription_type = 0, subscription_status = 'lifetime', coupon_code = $2, updated_at = now() WHERE member_id = $1`,
            [memberId, code.trim()],
          );
          await audit(
            actor,
            { action: 'billing.subscription.coupon', entity: 'billing_customer', entityId: String(memberId), memberId, detail: { code: code.trim() } },
            tx,
          );
          return hold;
        });
      });
      return answer(held);
    },
    startSubscription,
    changeSubscription,
    cancelSubscription,
    cancelRenewals,
    finishHeldForTerminated,
    restoreAfterReactivation,
    // A blank description (the contract trims it to '') names none: the charge is a Charge, never an empty label.
    chargeCard: (memberId, input, actor) => moveMoney(memberId, 'charge', 'authCapture', { ...input, description: input.description || CHARGE }, actor),
    authorize: async (memberId, input, actor) => {
      const card = await defaultCardOf(memberId);
      if (!card) await refuseTerminated(memberId, 'support');
      if (!card) return result(false, BILLING_MESSAGES.noCard, null);
      return moveMoney(memberId, 'prepull', 'authOnly', { ...input, paymentProfileId: card.payment_profile_id }, actor);
    },
    async capture(memberId, paymentProfileId, amountCents, actor, idempotencyKey) {
      await ownCard(memberId, paymentProfileId);
      // A capture names the card, not the authorization: the newest one is captured. Its key makes a repeat of the
      // same capture (a lost answer, a retry) answer what the first did instead of capturing the next authorization.
      const hash = requestHash({ paymentProfileId, amountCents });
      const done = (await sql.query<TxRow>('SELECT * FROM billing_transactions WHERE member_id = $1 AND capture_key = $2', [memberId, idempotencyKey]))[0];
      if (done && done.capture_hash !== hash) throw new ApiError(409, BILLING_MESSAGES.keyReused);
      if (done) return result(true, BILLING_MESSAGES.captured, done.id);
      const auth = (
        await sql.query<TxRow>(
          `SELECT * FROM billing_transactions WHERE member_id = $1 AND payment_profile_id = $2 AND status = 'Authorized' ORDER BY created_at DESC, id DESC LIMIT 1`,
          [memberId, paymentProfileId],
        )
      )[0];
      if (!auth?.gateway_trans_id) return result(false, BILLING_MESSAGES.nothingToCapture, null);
      return captureAuthorization(auth, amountCents, actor, { key: idempotencyKey, hash });
    },
    async captureTransaction(id, amountCents, actor) {
      const auth = await txById(id);
      if (!auth || !['subscription', 'charge', 'prepull'].includes(auth.kind)) throw new ApiError(404, BILLING_MESSAGES.transactionNotFound);
      // The authorization, not the card, is named: once it is captured a repeat answers so, and no other one is taken.
      if (auth.status === 'Charged' && auth.kind === 'prepull') return result(true, BILLING_MESSAGES.captured, auth.id);
      if (auth.status !== 'Authorized' || !auth.gateway_trans_id) throw new ApiError(409, BILLING_MESSAGES.notCapturable);
      return captureAuthorization(auth, amountCents ?? auth.amount_cents, actor, null);
    },
    refund: async (id, actor) => (await reverseCharge(id, 'refund', actor)).result,
    voidTransaction: async (id, actor) => (await reverseCharge(id, 'void', actor)).result,
    async searchTransactions(q, reader = sql) {
      const { rows, total } = await supportSearch<SupportTxRow>(sql, reader, q);
      return { Items: rows.map(toSupportTransaction), ItemCount: total };
    },
    async *transactionBatches(q, reader = sql) {
      for await (const rows of supportBatches<SupportTxRow>(reader, q)) yield rows.map(toSupportTransaction);
    },
    async countByStatus(statuses, reader = sql) {
      const counts = supportStatusCounts(statuses);
      const rows = await reader.query<{ status: string; n: number }>(counts.sql, counts.params);
      return Object.fromEntries(statuses.map((s) => [s, rows.find((r) => r.status === s)?.n ?? 0])) as Record<(typeof statuses)[number], number>;
    },
    inLanguage: (tx, t) => ({ ...tx, Description: tx.Description === null ? null : t(described(tx.Description)), Message: t(tx.Message) }),
    async findTransaction(id) {
      const row = (await sql.query<SupportTxRow>(`${SUPPORT_TX_SELECT} AND t.id = $1`, [id]))[0];
      return row ? toSupportTransaction(row) : null;
    },
    async chargeTransaction(id, { idempotencyKey }, actor) {
      const original = await txById(id);
      if (!original || !['subscription', 'charge', 'prepull'].includes(original.kind)) throw new ApiError(404, BILLING_MESSAGES.transactionNotFound);
      if (original.status === 'Charged') return result(true, BILLING_MESSAGES.charged, original.id);
      if (original.status !== 'Declined' && original.status !== 'Pending') throw new ApiError(409, BILLING_MESSAGES.notChargeable);
      // A membership's payment charged on its own would take the money without starting or resuming the membership:
      // support changes the subscription instead (which charges and starts it). Approved here are only a payment the
      // gateway holds for review that completes its membership: a membership's first payment (the approval starts the
      // membership it pays for, see applyHeldDecision) and a renewal held while the membership runs.
      if (original.kind === 'subscription') {
        const held = original.status === 'Pending' && original.gateway_trans_id !== null;
        const firstPayment = held && startsMembership(original) !== null;
        const cust = held && !firstPayment ? await customer(original.member_id, false) : null;
        if (!firstPayment && cust?.subscription_status !== 'active') throw new ApiError(409, BILLING_MESSAGES.membershipNotChargeable);
        // A terminated member's membership is not started: its held first payment is declined, not charged (nothing
        // is asked of the gateway). One terminated while this call is at the gateway is reversed (applyHeldDecision).
        if (firstPayment && (await services.members.isTerminated(original.member_id))) throw new ApiError(409, BILLING_MESSAGES.heldForTerminated);
      }
      if (original.status === 'Pending' && original.gateway_trans_id !== null) return approveHeld(original, idempotencyKey, actor);
      // Charging a declined charge again is a new charge: none for a terminated member. (Approving one the gateway holds,
      // above, decides a charge made before, as a capture of an earlier authorization does: allowed.)
      await refuseTerminated(original.member_id, 'support');
      const cust = await mustCustomer(original.member_id);
      const card = await defaultCardOf(original.member_id);
      if (!card) return result(false, BILLING_MESSAGES.noCard, original.id);
      // One gateway key per state of the charge: a double click, a retried request or two staff at once move money once.
      const t = await viaGateway(() =>
        gw.transaction(
          {
            type: 'authCapture',
            customerProfileId: cust.customer_profile_id,
            paymentProfileId: card.payment_profile_id,
            amountCents: original.amount_cents,
            description: original.description ?? CHARGE,
          },
          `retry:${original.id}:${original.gateway_trans_id ?? 0}`,
        ),
      );
      const ok = t.responseCode === '1';
      // A retry the gateway holds for review is Pending, as a first charge held is: the merchant's or support's
      // decision moves it (webhook, sync, Charge, Decline). Recorded as Declined, its approval would be lost and a
      // second Charge would take the money twice.
      const status = statusOf(t);
      const changed = await sql.transaction(async (tx) => {
        const rows = await tx.query(
          `UPDATE billing_transactions SET status = $2, gateway_trans_id = $3, message = $4, payment_profile_id = $5
           WHERE id = $1 AND status IN ('Declined', 'Pending') AND gateway_trans_id IS NOT DISTINCT FROM $6 RETURNING id`,
          [original.id, status, t.transId, t.message, card.payment_profile_id, original.gateway_trans_id],
        );
        if (!rows.length) return false;
        if (original.gateway_trans_id !== null) {
          await tx.query('INSERT INTO billing_superseded_attempts (gateway_trans_id, transaction_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
            original.gateway_trans_id,
            original.id,
          ]);
        }
        await audit(
          actor,
          {
            action: 'billing.charge.retry',
            entity: 'billing_transaction',
            entityId: String(original.id),
            memberId: original.member_id,
            outcome: ok ? 'success' : 'failure',
            detail: { amountCents: t.amountCents, gatewayTransId: t.transId, before: original.gateway_trans_id, status, idempotencyKey, message: t.message },
          },
          tx,
        );
        return true;
      });
      if (changed && ok) {
        const what = described(original.description ?? CHARGE);
        await receipt(original.member_id, actor, what, t.amountCents, original.id, `XXXX${card.last4}`);
      }
      if (changed && status === 'Pending') await ensureWebhook().catch(() => undefined);
      return result(ok, ok ? BILLING_MESSAGES.charged : t.message, original.id);
    },
    async declineTransaction(id, actor) {
      const row = await txById(id);
      if (!row) throw new ApiError(404, BILLING_MESSAGES.transactionNotFound);
      // A charge the gateway holds for review is declined there first: no money can move on it afterwards.
      if (row.status === 'Pending' && row.gateway_trans_id !== null) {
        await reviewStarting(row.id);
        await viaGateway(() => gw.reviewHeld(row.gateway_trans_id as number, 'decline'));
      }
      return sql.transaction(async (tx) => {
        const rows = await tx.query(`UPDATE billing_transactions SET status = 'Declined' WHERE id = $1 AND status = 'Pending' RETURNING id`, [id]);
        if (!rows.length) return false;
        await audit(actor, { action: 'billing.decline', entity: 'billing_transaction', entityId: String(id), memberId: row.member_id }, tx);
        return true;
      });
    },
    async setPaNumber(transactionId, paNumber, actor, expected) {
      return sql.transaction(async (tx) => {
        const row = (
          await tx.query<{ member_id: number; pa_number: string | null }>('SELECT member_id, pa_number FROM billing_transactions WHERE id = $1 FOR UPDATE', [
            transactionId,
          ])
        )[0];
        if (!row) throw new ApiError(404, BILLING_MESSAGES.transactionNotFound);
        if (expected !== undefined && row.pa_number !== expected) return row.pa_number ?? '';
        await tx.query('UPDATE billing_transactions SET pa_number = $2 WHERE id = $1', [transactionId, paNumber]);
        await audit(
          actor,
          { action: 'billing.pa-number', entity: 'billing_transaction', entityId: String(transactionId), memberId: row.member_id, detail: { paNumber } },
          tx,
        );
        return paNumber;
      });
    },
    async syncTransactions(memberId, actor) {
      const cust = await customer(memberId, false);
      if (!cust) return 0;
      let count = 0;
      // A start whose answer was lost: its subscription is taken up as the start would have recorded it (its first
      // payment then is no unknown charge below). Not for a member with a membership running or a first payment held
      // for review, nor for a terminated one (the termination job cancels such a subscription).
      const runs = (c: CustomerRow) => c.subscription_status === 'active' || c.subscription_status === 'lifetime';
      if (!runs(cust) && !(await services.members.isTerminated(memberId))) {
        const takenUp = await withStartLease(memberId, async (leased) =>
          runs(leased) || (await heldFirstPayment(memberId)) ? null : takeUpLost(memberId, leased, actor, null),
        );
        if (takenUp?.recorded) count++;
      }
      const remote = await viaGateway(() => gw.listTransactions(cust.customer_profile_id));
      const held = await heldRowsOf(memberId);
      /** The subscriptions whose declined renewal this sync recorded. */
      const declined = new Set<number>();
      /** The charges a void transaction of the gateway's gives back: recorded from that transaction (recordReversal). */
      const voidedBy = new Set(remote.filter((t) => t.type === 'void' && t.responseCode === '1').map((t) => t.refTransId));
      for (const t of remote) {
        // A void or refund made at the gateway (its merchant screen), or one of ours whose answer was lost.
        if (t.type === 'void' || t.type === 'refund') {
          if (await recordReversal(t, actor, 'sync')) count++;
          continue;
        }
        if (t.type !== 'authCapture' && t.type !== 'authOnly') continue;
        const row = await record(
          memberId,
          t,
          { kind: t.subscriptionId ? 'subscription' : t.type === 'authOnly' ? 'prepull' : 'charge', description: null },
          actor,
        );
        if (row) {
          count++;
          if (row.status === 'Charged') await receipt(memberId, actor, msg(CHARGE), t.amountCents, row.id, null);
          if (row.status === 'Declined' && t.subscriptionId !== null) declined.add(t.subscriptionId);
        } else if (t.status === 'voided' && !voidedBy.has(t.transId)) {
          // Voided at the gateway with no void transaction to record (a gateway that voids in place): our row follows.
          await sql.transaction(async (tx) => {
            const voided = await tx.query<{ id: number }>(
              `UPDATE billing_transactions SET status = 'Voided' WHERE gateway_trans_id = $1 AND member_id = $2 AND status <> 'Voided' RETURNING id`,
              [t.transId, memberId],
            );
            for (const v of voided) {
              await audit(
                actor,
                {
                  action: 'billing.void.synced',
                  entity: 'billing_transaction',
                  entityId: String(v.id),
                  memberId,
                  detail: { gatewayTransId: t.transId, source: 'sync' },
                },
                tx,
              );
            }
          });
        } else {
          // A charge held for review that the merchant has since decided at the gateway.
          const pending = held.get(t.transId);
          if (pending && (await applyHeldDecision(pending, t, actor, 'billing.held.decided', { source: 'sync' }))) count++;
        }
      }
      // A declined renewal of the member's subscription (its webhook missed) suspends the membership, as the webhook
      // does, once the gateway says it suspended the subscription (not when the member has since moved it to a card
      // that works): adding or choosing a card then resumes it (resumeOnto).
      const now = await customer(memberId, false);
      const subscriptionId = now?.subscription_id ?? null;
      if (subscriptionId !== null && now?.subscription_status === 'active' && declined.has(subscriptionId)) {
        const remoteSub = await viaGateway(() => gw.getSubscription(subscriptionId));
        if (remoteSub.status === 'suspended') {
          await sql.transaction(async (tx) => {
            const rows = await tx.query(
              `UPDATE billing_customers SET subscription_status = 'suspended', updated_at = now()
               WHERE member_id = $1 AND subscription_id = $2 AND subscription_status = 'active' RETURNING member_id`,
              [memberId, subscriptionId],
            );
            if (!rows.length) return;
            await audit(
              actor,
              {
                action: 'billing.subscription.suspend',
                entity: 'billing_customer',
                entityId: String(memberId),
                memberId,
                detail: { subscriptionId, source: 'sync' },
              },
              tx,
            );
          });
        }
      }
      return count;
    },
    async recordGatewayReversal(transId, actor) {
      return recordReversal(await viaGateway(() => gw.getTransaction(transId)), actor, 'webhook');
    },
    async recordHeldDecision(transId, actor) {
      const held = await heldRow(transId);
      if (!held) return false;
      const t = await viaGateway(() => gw.getTransaction(transId));
      return (await applyHeldDecision(held, t, actor, 'billing.held.decided', { source: 'webhook' })) !== false;
    },
    async recordWebhookCharge(event, actor) {
      if (event.customerProfileId === null) return false;
      const memberId = await (async () =>
        (await sql.query<{ member_id: number }>('SELECT member_id FROM billing_customers WHERE customer_profile_id = $1', [event.customerProfileId]))[0]
          ?.member_id ?? null)();
      if (memberId === null) return false;
      const t = await viaGateway(() => gw.getTransaction(event.transId));
      // The member is the one the event names: only when the gateway's transaction is that customer's own. A forged or
      // mistaken event naming another customer books nothing on that member (nor suspends their membership): refused,
      // audited, and answered as recording nothing.
      if (t.customerProfileId !== event.customerProfileId) {
        await actor.audit({
          action: 'billing.webhook',
          outcome: 'refused',
          entity: 'webhook',
          entityId: event.notificationId,
          memberId,
          detail: {
            reason: 'customer',
            eventType: event.eventType,
            gatewayTransId: event.transId,
            eventCustomerProfileId: event.customerProfileId,
            transactionCustomerProfileId: t.customerProfileId,
          },
        });
        return false;
      }
      // Recorded once by the gateway's transaction id: a webhook delivered twice changes nothing the second time.
      const row = await record(memberId, t, { kind: 'subscription', description: RENEWAL }, actor, async (tx) => {
        await tx.query('INSERT INTO billing_webhook_events (notification_id, event_type) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
          event.notificationId,
          event.eventType,
        ]);
        // A declined renewal suspends the membership; one held for review waits for support's decision (Pending).
        if (t.responseCode !== '1' && t.responseCode !== '4') {
          await tx.query(`UPDATE billing_customers SET subscription_status = 'suspended' WHERE member_id = $1 AND subscription_status = 'active'`, [memberId]);
        }
      });
      if (row && t.responseCode === '1') await receipt(memberId, actor, msg(RENEWAL), t.amountCents, row.id, null);
      return row !== null;
    },
  };
}
