import { parseAnswer } from './http';

/** One record of a report to the federal payer (a Medicare set-aside's spending), amounts in integer cents. */
export interface PayerRecord {
  date: string;
  code: string | null;
  company: string | null;
  description: string | null;
  /** 1 expense, 2 deposit, 3 interest. */
  type: number;
  amountCents: number;
}

/** A period's report of one member's set-aside. */
export interface PayerSubmission {
  /** The same key for the same member and period: the payer stores a submission once per key. */
  idempotencyKey: string;
  memberNumber: string;
  hicn: string;
  dateOfInjury: string;
  dateOfSettlement: string;
  periodFrom: string;
  periodTo: string;
  records: PayerRecord[];
}

export interface PayerAck {
  acknowledgementId: string;
  receivedAt: string;
  /** The payer had this key already and answered its first acknowledgement. */
  duplicate: boolean;
}

export class PayerError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** The federal payer's reporting endpoint. Implementation: the sandbox's (SANDBOX_URL), over HTTP. */
export interface FederalPayer {
  readonly kind: string;
  submit(submission: PayerSubmission): Promise<PayerAck>;
}

export class SandboxFederalPayer implements FederalPayer {
  readonly kind = 'sandbox';
  private readonly base: string;
  constructor(sandboxUrl: string) {
    this.base = sandboxUrl.replace(/\/$/, '');
  }
  async submit(submission: PayerSubmission): Promise<PayerAck> {
    const { idempotencyKey, ...body } = submission;
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.base}/payer/api/submissions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      // Within the same timeout: an answer that stalls or breaks off is no answer (status null: the outcome is unknown).
      text = await res.text();
    } catch (e) {
      throw new PayerError(`federal payer unreachable: ${(e as Error).message}`, null);
    }
    if (!res.ok) throw new PayerError(`federal payer refused the report: ${res.status} ${text.slice(0, 500)}`, res.status);
    const json = parseAnswer(text) as Partial<PayerAck> | null | undefined;
    if (typeof json?.acknowledgementId !== 'string' || typeof json.receivedAt !== 'string')
      throw new PayerError('federal payer answered without an acknowledgement', res.status);
    return { acknowledgementId: json.acknowledgementId, receivedAt: json.receivedAt, duplicate: json.duplicate === true };
  }
}

export function createFederalPayer(sandboxUrl: string): FederalPayer {
  return new SandboxFederalPayer(sandboxUrl);
}
