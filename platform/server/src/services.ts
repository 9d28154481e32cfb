import type { PdfService, SheetService } from './documents/services';
import type { FileStore } from './files/fileStore';
import type { Translator } from './i18n/translator';
import type { JobQueue } from './jobs/queue';
import type { AuditService } from './kernel-services/audit';
import type { BrandsService } from './kernel-services/brands';
import type { CreateKeysService } from './kernel-services/createKeys';
import type { IdentityService } from './kernel-services/identity';
import type { MembersService } from './kernel-services/members';
import type { ThrottleService } from './kernel-services/throttle';
import type { BankAggregator } from './providers/banks';
import type { MailTransport } from './providers/mail';
import type { FederalPayer } from './providers/payer';
import type { PaymentGateway } from './providers/payments';
import type { VirusScanner } from './providers/scanner';
import type { SmsTransport } from './providers/sms';

/** External services the kernel hands to plugins; each sits behind an interface with a sandbox implementation. */
export interface Services {
  /** Queued: send() returns once the message is stored; a 'mail.send' job delivers it. */
  mail: MailTransport;
  /** Text messages and carrier lookups (the sandbox SMS provider); send through a job, not inside a request. */
  sms: SmsTransport;
  /** Background jobs on the PostgreSQL-backed queue; plugins define theirs in `init`. */
  jobs: JobQueue;
  /** Uploaded and generated files: a folder under DATA_DIR or an S3 bucket (FILE_STORE). */
  files: FileStore;
  /** PDF documents with the brand's header and footer. */
  pdf: PdfService;
  /** Spreadsheet exports (.xlsx and CSV), streamed. */
  sheets: SheetService;
  /** The card gateway (customer and payment profiles, hosted card form, charges, subscriptions); the sandbox's over HTTP. */
  payments: PaymentGateway;
  /** The federal payer's reporting endpoint (set-aside reports); the sandbox's over HTTP. */
  payer: FederalPayer;
  /** The bank aggregator (institutions, links with multi-factor steps, accounts, refreshes, hosted linking page); the sandbox's over HTTP. */
  banks: BankAggregator;
  /** The virus-scan hook every upload passes before it is kept; the sandbox scanner over HTTP. */
  scanner: VirusScanner;
}

/**
 * Everything a plugin may use of the kernel: the external services plus narrow services over the kernel's
 * tables (users, roles, sessions, members, throttle events, creates' keys, audit log), which plugins never write directly.
 */
export interface KernelServices extends Services {
  /**
   * The kernel's and the plugins' message catalogues, for text written outside a request (an e-mail from a job):
   * `messages.t(msg(…), await identity.languageOfMember(id))`. In a handler use `ctx.t`.
   */
  messages: Translator;
  identity: IdentityService;
  members: MembersService;
  throttle: ThrottleService;
  /** Creates' idempotency keys: a create sent again with its key (its answer lost) adds its record once. */
  createKeys: CreateKeysService;
  audit: AuditService;
  /** The brands served, by id: what is written outside a request is signed by the member's brand (`members.brand`). */
  brands: BrandsService;
}
