import { randomBytes, type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));

// scrypt is memory-hard: N=2^15, r=8 uses 32 MiB per hash.
const N = 32768;
const r = 8;
const p = 1;
const KEYLEN = 32;
const maxmem = 64 * 1024 * 1024;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEYLEN, { N, r, p, maxmem });
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !rr || !pp || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(rr),
    p: Number(pp),
    maxmem,
  });
  return timingSafeEqual(key, expected);
}

/** Spent on unknown user names so an answer's timing does not reveal whether the name exists. */
let dummyHash: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  dummyHash ??= hashPassword('not-a-real-password-1');
  await verifyPassword(password, await dummyHash);
}

/**
 * Admission to password checks in this process. scrypt runs on libuv's four threads at tens of milliseconds of CPU a
 * check; past a few dozen waiting, each new sign-in only waits longer (and its caller gives up), while the abandoned
 * checks still burn the CPU every other request needs. So a process checks at most this many passwords at a time
 * (running and queued); the next sign-in is told at once that the service is busy (503, Retry-After), and does not
 * count as a failed attempt.
 */
export const MAX_PASSWORD_CHECKS = 32;
let checking = 0;

/** A place among the password checks, or null when they are all taken; call the result to leave. */
export function enterPasswordCheck(limit = MAX_PASSWORD_CHECKS): (() => void) | null {
  if (checking >= limit) return null;
  checking++;
  let left = false;
  return () => {
    if (left) return;
    left = true;
    checking--;
  };
}

/** Password checks running or waiting in this process (tests, metrics). */
export const passwordChecksInFlight = () => checking;
