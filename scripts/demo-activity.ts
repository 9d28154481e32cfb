/**
 * Card payments for the demo, made the way they are made in use: scripts/start runs this once the API and the sandbox
 * providers are up, so support's transaction lists and two members' payment pages are not empty on a fresh demo.
 * Everything goes over real HTTP. Support opens the gateway's hosted card form for a member and the form saves one of
 * the sandbox's test cards (the number goes to the gateway, never to our API); then support charges, pre-authorizes,
 * refunds and voids through our API, and the gateway settles its batch in between. Charges on one card are declined
 * and on another held for review, so the declined and the pending lists have work in them.
 *
 * Safe to run again: a card a member already has is not added twice, every charge carries a fixed idempotency key
 * (a second run replays it: no money moves) and a refund or void of a charge already reversed is answered from its
 * record.
 *   node --import tsx scripts/demo-activity.ts    (PORT, SANDBOX_URL, GATEWAY_* as scripts/start sets them)
 */
import { request } from 'node:http';
import { buildPath, buildQuery, type EndpointData, type EndpointInput, type EndpointSpec, isEnvelope, KernelApi } from '@portal/core';
import { BillingApi, type MoneyResult } from '@portal/plugin-billing/contract';
import { SupportApi } from '@portal/plugin-support/contract';
import { gatewayConfigFromEnv } from '@portal/server';
import { DEMO_PASSWORD } from './lib/demo';

/** A sandbox test card (apps/sandbox/src/gateway-cards.ts): 'approve' cards are charged, 'chargeDecline' ones saved but declined. */
type DemoCard = { number: string; expiry: string };
const VISA: DemoCard = { number: '4111111111111111', expiry: '12/30' };
const MASTERCARD: DemoCard = { number: '5424000000000015', expiry: '09/29' };
const DECLINING_VISA: DemoCard = { number: '4000000000000341', expiry: '06/29' };
/** Charges on it are held for review by the gateway: support's pending list. */
const REVIEWED_VISA: DemoCard = { number: '4000000000000259', expiry: '03/31' };

type Step =
  /** A charge on the member's n-th card (0: the first, their default). */
  | { kind: 'charge'; key: string; card: number; amount: number; description: string }
  /** A pre-authorization on the member's default card: a hold support captures later (status Authorized). */
  | { kind: 'prepull'; key: string; amount: number; description: string }
  | { kind: 'settle' }
  | { kind: 'refund'; of: string }
  | { kind: 'void'; of: string };

export interface DemoPlan {
  /** The demo login of the member (scripts/seed), found by its e-mail address. */
  userName: string;
  cards: DemoCard[];
  steps: Step[];
}

/** What a fresh demo shows: every status support's list filters on but PA Number. */
export const DEMO_PLANS: DemoPlan[] = [
  {
    userName: 'card.careguard',
    cards: [VISA, REVIEWED_VISA],
    steps: [
      { kind: 'charge', key: 'er-visit', card: 0, amount: 125.4, description: "St. Mary's Hospital, emergency visit" },
      { kind: 'charge', key: 'pharmacy', card: 0, amount: 48, description: 'Riverside Pharmacy, prescriptions' },
      { kind: 'settle' },
      { kind: 'refund', of: 'pharmacy' },
      { kind: 'charge', key: 'imaging-twice', card: 0, amount: 19.99, description: 'Lakeview Imaging, duplicate payment' },
      { kind: 'void', of: 'imaging-twice' },
      { kind: 'prepull', key: 'surgery-hold', amount: 210.15, description: 'Valley Medical Center, outpatient surgery' },
      { kind: 'charge', key: 'inpatient', card: 1, amount: 1250, description: 'Mercy Hospital, inpatient stay' },
    ],
  },
  {
    userName: 'assist.careassist',
    cards: [MASTERCARD, DECLINING_VISA],
    steps: [
      { kind: 'charge', key: 'office-visit', card: 0, amount: 86.2, description: 'Northside Clinic, office visit' },
      { kind: 'charge', key: 'dental', card: 1, amount: 64.1, description: 'Bay Dental Group, cleaning' },
      { kind: 'charge', key: 'physio', card: 1, amount: 342.75, description: 'Harbor Physical Therapy, six sessions' },
      { kind: 'prepull', key: 'lab-hold', amount: 150, description: 'Summit Labs, blood panel' },
    ],
  },
];

type Session = { access_token: string; form_token: string };

export interface DemoActivityOptions {
  /** The API, as the browser reaches it on loopback: http://127.0.0.1:PORT (the brand is told by the Host header). */
  apiUrl: string;
  sandboxUrl: string;
  /** The support user who acts, and the password of every demo user. */
  staffUser?: string;
  password?: string;
  plans?: DemoPlan[];
  log?: (line: string) => void;
}

/** Runs the plans; answers how many members it touched and how many money calls it made (replays included). */
export async function demoActivity(o: DemoActivityOptions): Promise<{ members: number; calls: number }> {
  const log = o.log ?? console.log;
  const api = new URL(o.apiUrl);
  const staffHost = `staff.localhost:${api.port || '80'}`;

  /** One call of an endpoint as the staff site makes it, typed by its contract; an error answer throws with the API's own message. */
  const call = <E extends EndpointSpec>(endpoint: E, opts: Partial<EndpointInput<E>> & { session?: Session }) =>
    new Promise<EndpointData<E>>((resolve, reject) => {
      const path = buildPath(endpoint.path, opts.params as Record<string, unknown> | undefined) + buildQuery(opts.query as Record<string, unknown> | undefined);
      const form = endpoint.bodyEncoding === 'form';
      const body = opts.body === undefined ? undefined : form ? new URLSearchParams(opts.body as Record<string, string>).toString() : JSON.stringify(opts.body);
      const headers: Record<string, string> = { host: staffHost, accept: 'application/json' };
      if (opts.session) {
        headers.authorization = `Bearer ${opts.session.access_token}`;
        headers['x-form-token'] = opts.session.form_token;
      }
      if (body !== undefined) {
        headers['content-type'] = form ? 'application/x-www-form-urlencoded' : 'application/json';
        headers['content-length'] = String(Buffer.byteLength(body));
      }
      const what = `${endpoint.method} ${path}`;
      const req = request({ hostname: api.hostname, port: api.port, path, method: endpoint.method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (d: Buffer) => chunks.push(d));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let v: unknown;
          try {
            v = JSON.parse(text);
          } catch {
            return reject(new Error(`${what}: HTTP ${res.statusCode}, not JSON`));
          }
          if ((res.statusCode ?? 0) >= 300 || (isEnvelope(v) && v.HasError))
            return reject(new Error(`${what}: HTTP ${res.statusCode} ${isEnvelope(v) ? v.MsgText : text.slice(0, 200)}`));
          resolve((isEnvelope(v) ? v.Data : v) as EndpointData<E>);
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.setTimeout(30_000, () => req.destroy(new Error(`${what}: no answer in 30 s`)));
      req.end(body);
    });

  const gateway = gatewayConfigFromEnv(o.sandboxUrl);
  const gatewayAuth = `Basic ${Buffer.from(`${gateway.loginId}:${gateway.transactionKey}`).toString('base64')}`;
  const sandbox = async (path: string, init: RequestInit) => {
    const res = await fetch(new URL(path, o.sandboxUrl), init);
    const data = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`sandbox ${path}: HTTP ${res.status} ${String(data.error ?? '')}`);
    return data;
  };

  const session = await call(KernelApi.token, {
    body: { grant_type: 'password', UserName: o.staffUser ?? 'staff.caresupport', Password: o.password ?? DEMO_PASSWORD },
  });
  let members = 0;
  let calls = 0;
  for (const plan of o.plans ?? DEMO_PLANS) {
    const email = `${plan.userName}@demo.example.com`;
    const found = await call(SupportApi.members, {
      session,
      body: { Query: { Status: 'All', SearchString: email }, PageSize: 10 },
    });
    const memberId = found.Items.find((m) => m.Email?.toLowerCase() === email)?.MemberID;
    if (memberId === undefined) {
      log(`  demo activity: no member ${plan.userName}, left out`);
      continue;
    }
    members++;

    // The cards, through the gateway's hosted form as support's card page opens it.
    let profile = await call(BillingApi.supportProfile, { session, body: { MemberId: memberId } });
    for (const card of plan.cards) {
      if (profile.Profiles.some((p) => p.CardNumber.endsWith(card.number.slice(-4)))) continue;
      const form = await call(BillingApi.supportToken, {
        session,
        params: { memberId },
        query: { returnUrl: `http://${staffHost}/support/card/${memberId}` },
      });
      await sandbox('/customer/api/save', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: form.Token, cardNumber: card.number, expiry: card.expiry, cvv: '123' }),
      });
      profile = await call(BillingApi.supportSync, { session, body: { MemberId: memberId } });
    }
    const cardOf = (n: number) => {
      const last4 = plan.cards[n]?.number.slice(-4) ?? '';
      const p = profile.Profiles.find((c) => c.CardNumber.endsWith(last4));
      if (!p) throw new Error(`${plan.userName}: card ${n} was not saved`);
      return p;
    };
    // The first card is the one a retried charge and a pre-authorization use.
    const first = cardOf(0);
    if (!first.IsDefault) {
      profile = await call(BillingApi.supportDefaultCard, { session, body: { MemberId: memberId, ProfileId: first.ProfileId } });
    }

    const done = new Map<string, number>();
    const idempotencyKey = (key: string) => `demo-${memberId}-${key}`;
    for (const step of plan.steps) {
      if (step.kind === 'settle') {
        await sandbox('/gateway/api/settle-now', { method: 'POST', headers: { authorization: gatewayAuth } });
        continue;
      }
      calls++;
      let r: Pick<MoneyResult, 'TransactionID' | 'Message'>;
      if (step.kind === 'charge') {
        if (profile.CustomerId === null) throw new Error(`${plan.userName}: no customer at the gateway after the cards were saved`);
        r = await call(BillingApi.charge, {
          session,
          body: {
            customerId: profile.CustomerId,
            profileId: cardOf(step.card).ProfileId,
            amount: step.amount,
            description: step.description,
            IdempotencyKey: idempotencyKey(step.key),
          },
        });
      } else if (step.kind === 'prepull') {
        r = await call(BillingApi.prepull, {
          session,
          body: { MemberId: memberId, Amount: step.amount, Description: step.description, IdempotencyKey: idempotencyKey(step.key) },
        });
      } else {
        const id = done.get(step.of);
        if (id === undefined) throw new Error(`${plan.userName}: ${step.kind} of ${step.of}, which made no transaction`);
        r = await call(step.kind === 'refund' ? SupportApi.refund : SupportApi.void, {
          session,
          body: { TransactionID: id, IdempotencyKey: idempotencyKey(`${step.kind}-${step.of}`) },
        });
      }
      if (r.TransactionID === null) throw new Error(`${plan.userName}: ${step.kind} made no transaction: ${r.Message}`);
      if ('key' in step) done.set(step.key, r.TransactionID);
    }
    log(`  demo activity: ${plan.userName}, ${plan.cards.length} card(s), ${plan.steps.length} step(s)`);
  }
  return { members, calls };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = process.env.PORT ?? '8080';
  const host = !process.env.HOST || process.env.HOST === '0.0.0.0' || process.env.HOST === '::' ? '127.0.0.1' : process.env.HOST;
  demoActivity({ apiUrl: `http://${host}:${port}`, sandboxUrl: process.env.SANDBOX_URL ?? 'http://localhost:8090' }).catch((e: unknown) => {
    console.error(`Demo activity failed (the product runs; support's transaction lists start empty): ${(e as Error).message}`);
    process.exit(1);
  });
}
