import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The HKDF info of the key that seals job payloads: the key is HKDF-SHA256 of the token secret (TOKEN_SECRET) with this
 * info, so it is no other key the secret makes (access tokens, form tokens, code hashes).
 */
export const SEAL_KEY_INFO = 'job-queue';

/** What a sealed payload is stored as: `v1.` and the base64url of a 12-byte IV, the ciphertext and the 16-byte tag. */
export interface SealedPayload {
  sealed: string;
}

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A sealed payload that does not open: altered, moved to another job, or sealed under another secret. */
export class SealError extends Error {
  constructor() {
    super('the sealed job payload does not open');
    this.name = 'SealError';
  }
}

export interface PayloadSealer {
  /** Seals the payload for this job (its kind and id are bound in as associated data). */
  seal(name: string, id: string, payload: object): SealedPayload;
  /**
   * Opens what a job row holds. `unsealed`: a payload stored in clear (queued by a release from before payloads were
   * sealed). Throws SealError for a sealed payload that does not open as this job's.
   */
  open(name: string, id: string, data: unknown): { payload: object; unsealed: boolean };
}

/** Whether a stored payload is sealed (has the `sealed` field), as opposed to one queued in clear. */
export const isSealed = (data: unknown): boolean => data !== null && typeof data === 'object' && !Array.isArray(data) && 'sealed' in data;

/**
 * AES-256-GCM over the payload's JSON, under a key derived from the token secret (SEAL_KEY_INFO), with the job's kind
 * and id as associated data: a sealed payload copied into another job, of the same kind or another, does not open.
 */
export function payloadSealer(secret: string): PayloadSealer {
  if (!secret) throw new Error('sealing job payloads needs a secret');
  const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), SEAL_KEY_INFO, 32));
  const aad = (name: string, id: string) => Buffer.from(`${name}\u0000${id}`, 'utf8');
  return {
    seal(name, id, payload) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(name, id));
      const body = Buffer.concat([cipher.update(JSON.stringify(payload), 'utf8'), cipher.final()]);
      return { sealed: VERSION + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url') };
    },
    open(name, id, data) {
      if (!isSealed(data)) {
        if (data === null || typeof data !== 'object') throw new SealError();
        return { payload: data, unsealed: true };
      }
      const text = (data as { sealed: unknown }).sealed;
      if (typeof text !== 'string' || !text.startsWith(VERSION)) throw new SealError();
      const body = text.slice(VERSION.length);
      const raw = Buffer.from(body, 'base64url');
      // Node's decoder skips what is not base64url: only the exact encoding of the bytes is taken.
      if (raw.length < IV_BYTES + TAG_BYTES || raw.toString('base64url') !== body) throw new SealError();
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
        decipher.setAAD(aad(name, id));
        decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
        const json = Buffer.concat([decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)), decipher.final()]).toString('utf8');
        const payload: unknown = JSON.parse(json);
        if (payload === null || typeof payload !== 'object') throw new SealError();
        return { payload, unsealed: false };
      } catch {
        throw new SealError();
      }
    },
  };
}
