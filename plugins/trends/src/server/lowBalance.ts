import type { BrandManifest, Language } from '@portal/core';
import {
  type BrandsService,
  brandedMail,
  brandSiteAddress,
  type IdentityService,
  type MailMessage,
  type MembersService,
  type Message,
  msg,
  type ServerConfig,
  type Services,
  type SqlClient,
  type Translator,
} from '@portal/server';
import { LOW_BALANCE_SUBJECT, LOW_BALANCE_THRESHOLD_CENTS } from '../contract';
import type { BalanceReading, BalanceSource, TrendsService } from '../service';

const dollars = (cents: number) =>
  `${cents < 0 ? '-' : ''}$${(Math.abs(cents) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

/**
 * The e-mail of spec 01 section 7: to the member, subject 'Low Account Balance', with the balance and the account type,
 * worded by `t` in the member's language (the account type is the page's own text and goes in as it came).
 */
export function lowBalanceMail(m: {
  brand: BrandManifest | null;
  to: string;
  firstName: string;
  lastName: string;
  reading: BalanceReading;
  /** The brand site's address: the mail's button signs the member in there, to add funds. */
  site?: string | null;
  t: (message: Message) => string;
  language?: Language;
}): MailMessage {
  const { t } = m;
  const name = `${m.firstName} ${m.lastName}`.trim();
  return brandedMail({
    brand: m.brand,
    to: m.to,
    subject: t(LOW_BALANCE_SUBJECT),
    language: m.language,
    greeting: t(msg('Hello {{name}},', { name })),
    paragraphs: [
      t(
        msg('The balance of your {{accountType}} account is {{balance}}, under {{threshold}}.', {
          accountType: m.reading.accountType,
          balance: dollars(m.reading.balanceCents),
          threshold: dollars(LOW_BALANCE_THRESHOLD_CENTS),
        }),
      ),
      t('Please add funds so that your bills can be paid on time.'),
    ],
    ...(m.site ? { site: m.site, action: { label: t('Sign in'), url: `${m.site}/login` } } : {}),
    t,
  });
}

/**
 * The crossing rule, atomic per member: an advisory lock orders concurrent readings of one member, the stored state
 * says whether the last reading was under the threshold, and the mail goes out only when this reading crosses under.
 * The mail is queued (services.mail stores a job) in the transaction that records the crossing. A terminated member's
 * reading is recorded but mails nothing (neither from the page, a ledger write, a bank posting nor the ledger's hourly
 * due-rows job, which all come here).
 */
export function makeTrendsService(deps: {
  sql: SqlClient;
  services: Pick<Services, 'mail'> & {
    members: Pick<MembersService, 'load' | 'isTerminated'>;
    identity: Pick<IdentityService, 'languageOfMember'>;
    messages: Pick<Translator, 't'>;
    brands: Pick<BrandsService, 'byId'>;
  };
  /** Where the brand sites are (SITE_ADDRESS): the mail links to the member's. */
  config: Pick<ServerConfig, 'port' | 'siteAddress'>;
}): TrendsService {
  const { sql, services, config } = deps;
  const observeBalance: TrendsService['observeBalance'] = async (memberId, reading, brand = null) => {
    const below = reading.balanceCents < LOW_BALANCE_THRESHOLD_CENTS;
    // Only a reading under the threshold can cross: its mail is written before the transaction (the member, their
    // language and brand are read on the pool) and queued inside it, so the state that says "notified" commits with
    // its mail or not at all (a failed queue leaves the crossing for the next reading).
    const mail = below ? await lowBalanceMailFor(memberId, reading, brand) : null;
    const crossed = await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', ['trends.lowbalance', memberId]);
      const prev = await tx.query<{ below: boolean }>('SELECT below FROM trends_low_balance WHERE member_id = $1', [memberId]);
      const wasBelow = prev[0]?.below ?? false;
      const crossing = below && !wasBelow;
      // A terminated member is sent no mail (it asks them to add funds for bills that are no longer paid, and may link
      // to a site their login no longer opens): the reading is recorded all the same, under the threshold or not, so a
      // reactivated member is mailed at their next crossing, not for a balance read while terminated. Read in this
      // transaction, after the lock, so a termination that committed before it is seen.
      const quiet = crossing && mail !== null && (await services.members.isTerminated(memberId, tx));
      const notify = crossing && mail !== null && !quiet;
      await tx.query(
        `INSERT INTO trends_low_balance (member_id, below, balance_cents, account_type, notified_at, updated_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN now() END, now())
         ON CONFLICT (member_id) DO UPDATE SET below = EXCLUDED.below, balance_cents = EXCLUDED.balance_cents,
           account_type = EXCLUDED.account_type, updated_at = now(),
           notified_at = CASE WHEN $5 THEN now() ELSE trends_low_balance.notified_at END`,
        [memberId, below, Math.round(reading.balanceCents), reading.accountType, notify],
      );
      if (notify && mail) await services.mail.send(mail, { tx });
      return notify;
    });
    return { sent: crossed, below };
  };
  /** The mail of a crossing for the member, or null when they have no e-mail address. */
  const lowBalanceMailFor = async (memberId: number, reading: BalanceReading, brand: BrandManifest | null) => {
    const member = await services.members.load(memberId);
    if (!member?.email) return null;
    // Written in the member's language (the one they last signed in with): the reading may come from staff or a job.
    const language = await services.identity.languageOfMember(memberId);
    const t = (message: Message) => services.messages.t(message, language);
    // Signed by, and linking to, the member's own brand: the reading may come from the staff site, or from a job with no
    // site at all; the site it came from is used only for a member whose brand this server does not serve.
    const signedBy = services.brands.byId(member.brand) ?? brand;
    const site = signedBy ? brandSiteAddress(config, signedBy.marker) : null;
    return lowBalanceMail({ brand: signedBy, to: member.email, firstName: member.firstName, lastName: member.lastName, reading, site, t, language });
  };
  return {
    observeBalance,
    async checkBalance(memberId: number, source: BalanceSource, brand: BrandManifest | null = null) {
      const reading = await source.read(memberId);
      return reading ? observeBalance(memberId, reading, brand) : null;
    },
  };
}
