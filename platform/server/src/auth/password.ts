import { type ScryptOptions, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { hash as argon2Hash, verify as argon2Verify } from '@node-rs/argon2';
import { BUSY_MESSAGE } from '../db/database';
import { ApiError } from '../http/errors';

/**
 * How passwords are stored: Argon2id with 19 MiB of memory, 2 passes and 1 lane, OWASP's Password Storage Cheat
 * Sheet's first recommendation. It costs about half the CPU of the scrypt (N=2^15, r=8, p=1) this replaced, which was
 * also a quarter of OWASP's scrypt minimum. The hash is a PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`),
 * so the cost travels with each hash; the library's default algorithm is Argon2id with a 16-byte random salt.
 */
export const PASSWORD_COST = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
export type PasswordCost = { memoryCost: number; timeCost: number; parallelism: number };

const ARGON2ID = '$argon2id$';
const current = (cost: PasswordCost) => `${ARGON2ID}v=19$m=${cost.memoryCost},t=${cost.timeCost},p=${cost.parallelism}$`;

/**
 * How many hashes one process computes at once: one core's worth fewer than the machine has, shared among the API
 * processes on it (WORKERS=N: the primary tells each worker N in API_PROCESSES), at least one. The rest wait their turn,
 * first come first served. Run side by side on libuv's four threads, every check in a burst would share the cores with
 * the others and with the event loops, and all of them would finish as late as the last; one at a time, the first
 * finishes after one hash's time. Per process without the sharing, WORKERS=auto on 8 cores would hash 32 at once.
 */
export const hashSlots = (cores: number, processes: number): number => Math.max(1, Math.floor((cores - 1) / Math.max(1, processes)));
export const HASH_SLOTS = hashSlots(availableParallelism(), Number(process.env.API_PROCESSES) || 1);
let hashing = 0;
const waiting: (() => void)[] = [];
export async function inHashSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (hashing >= HASH_SLOTS) await new Promise<void>((resolve) => waiting.push(resolve));
  else hashing++;
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else hashing--;
  }
}

/** Passwords are compared after Unicode NFKC normalisation, so one typed on another keyboard still matches. */
const normal = (password: string) => password.normalize('NFKC');

const hashNow = (password: string, cost: PasswordCost) => inHashSlot(() => argon2Hash(normal(password), { ...cost, outputLen: 32 }));

export interface PasswordHashOptions {
  /**
   * The caller already holds a place from enterPasswordCheck (the sign-in's own rehash): the hash does not take a
   * second place, and is never refused as busy.
   */
  admitted?: boolean;
}

/**
 * A new hash. Outside sign-in each one takes a place among at most MAX_OTHER_PASSWORD_HASHES (running and waiting);
 * when they are all taken it fails at once with a 503 ApiError (the service is busy) instead of queueing behind them.
 */
export async function hashPassword(password: string, cost: PasswordCost = PASSWORD_COST, options: PasswordHashOptions = {}): Promise<string> {
  if (options.admitted) return hashNow(password, cost);
  const leave = otherHashes.enter(MAX_OTHER_PASSWORD_HASHES);
  if (!leave) throw new ApiError(503, BUSY_MESSAGE);
  try {
    return await hashNow(password, cost);
  } finally {
    leave();
  }
}

/**
 * Whether a stored hash should be replaced by one at today's cost once its password is known (at sign-in): the older
 * scrypt hashes, and Argon2id hashes at other parameters.
 */
export const needsRehash = (stored: string) => !stored.startsWith(current(PASSWORD_COST));

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (stored.startsWith(ARGON2ID)) {
    try {
      return await inHashSlot(() => argon2Verify(stored, normal(password)));
    } catch {
      return false; // a malformed stored hash matches no password
    }
  }
  if (stored.startsWith('scrypt$')) return verifyScrypt(password, stored);
  return false;
}

const scrypt = (password: string, salt: Buffer, keylen: number, opts: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCb(password, salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))));

/** Hashes written before Argon2id: `scrypt$N$r$p$salt$key` (base64url). They are upgraded at the next sign-in. */
async function verifyScrypt(password: string, stored: string): Promise<boolean> {
  const [, n, rr, pp, salt, hash] = stored.split('$');
  if (!n || !rr || !pp || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await inHashSlot(() =>
    scrypt(normal(password), Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(rr),
      p: Number(pp),
      maxmem: 64 * 1024 * 1024,
    }),
  );
  return timingSafeEqual(key, expected);
}

/** Spent on unknown user names so an answer's timing does not reveal whether the name exists. */
let dummyHash: Promise<string> | null = null;
export async function burnPasswordCheck(password: string): Promise<void> {
  // Only sign-in burns a check, from inside its own place: the dummy hash is not refused as busy (a refusal kept here
  // would fail every later unknown name).
  dummyHash ??= hashNow('not-a-real-password-1', PASSWORD_COST);
  await verifyPassword(password, await dummyHash);
}

/**
 * Admission to password checks in this process. Argon2id runs on libuv's four threads at tens of milliseconds of CPU
 * a check; past a few dozen waiting, each new sign-in only waits longer (and its caller gives up), while the abandoned
 * checks still burn the CPU every other request needs. So a process checks at most this many passwords at a time
 * (running and queued); the next sign-in is told at once that the service is busy (503, Retry-After), and does not
 * count as a failed attempt.
 */
export const MAX_PASSWORD_CHECKS = 32;

/**
 * Hashes outside sign-in (registration, resets, password and security-question changes, users created by staff) that
 * a process runs or queues at a time: half the sign-in admission. They have their own places, so they never make a
 * sign-in busy, and a sign-in waits behind at most MAX_PASSWORD_CHECKS + MAX_OTHER_PASSWORD_HASHES hashes, however
 * many such requests arrive; the next one is answered 503 at once (hashPassword). Checks of a known password outside
 * sign-in (verifyPassword: a password or e-mail change) are not counted here: their routes limit them per user.
 */
export const MAX_OTHER_PASSWORD_HASHES = MAX_PASSWORD_CHECKS / 2;

/** A count of places: `enter` takes one while fewer than `limit` are taken, else gives null; call the result to leave. */
function places() {
  let taken = 0;
  return {
    enter(limit: number): (() => void) | null {
      if (taken >= limit) return null;
      taken++;
      let left = false;
      return () => {
        if (left) return;
        left = true;
        taken--;
      };
    },
    taken: () => taken,
  };
}
const checks = places();
const otherHashes = places();

/** A place among the password checks, or null when they are all taken; call the result to leave. */
export function enterPasswordCheck(limit = MAX_PASSWORD_CHECKS): (() => void) | null {
  return checks.enter(limit);
}

/** Password checks running or waiting in this process (tests, metrics). */
export const passwordChecksInFlight = () => checks.taken();

/** Hashes outside sign-in running or waiting in this process (tests, metrics). */
export const otherPasswordHashesInFlight = () => otherHashes.taken();
