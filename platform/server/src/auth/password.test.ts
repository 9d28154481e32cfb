import { randomBytes, scryptSync } from 'node:crypto';
import { deferred } from '@portal/testing/deferred';
import { describe, expect, it } from 'vitest';
import { BUSY_MESSAGE } from '../db/database';
import {
  burnPasswordCheck,
  enterPasswordCheck,
  HASH_SLOTS,
  hashPassword,
  hashSlots,
  inHashSlot,
  MAX_OTHER_PASSWORD_HASHES,
  MAX_PASSWORD_CHECKS,
  needsRehash,
  otherPasswordHashesInFlight,
  PASSWORD_COST,
  passwordChecksInFlight,
  verifyPassword,
} from './password';

/** A hash as the server wrote them before Argon2id (scrypt N=2^15, r=8, p=1). */
function legacyScrypt(password: string, N = 32768) {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$${N}$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

describe('password hashing', () => {
  it('stores Argon2id at 19 MiB, 2 passes, 1 lane as a PHC string with a fresh salt each time', async () => {
    const a = await hashPassword('Correct$Horse1');
    const b = await hashPassword('Correct$Horse1');
    expect(a).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    expect(a).not.toBe(b);
    expect(PASSWORD_COST).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
  });

  it('accepts the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('Correct$Horse1');
    expect(await verifyPassword('Correct$Horse1', stored)).toBe(true);
    expect(await verifyPassword('correct$Horse1', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('compares passwords after NFKC normalisation (a full-width digit matches the plain one)', async () => {
    const stored = await hashPassword('Pass$word1');
    expect(await verifyPassword('Pass$word１', stored)).toBe(true);
  });

  it('still accepts the older scrypt hashes, and refuses a wrong password against them', async () => {
    const stored = legacyScrypt('Old$Secret9');
    expect(await verifyPassword('Old$Secret9', stored)).toBe(true);
    expect(await verifyPassword('Old$Secret8', stored)).toBe(false);
  });

  it('matches no password against a malformed or unknown stored hash', async () => {
    for (const stored of ['', 'plain', 'scrypt$32768$8$1$', '$argon2id$v=19$m=19456,t=2,p=1$bad', '$bcrypt$10$abc']) {
      expect(await verifyPassword('anything', stored)).toBe(false);
    }
  });

  it('asks for a new hash for scrypt hashes and Argon2id hashes at other costs, not for today’s', async () => {
    expect(needsRehash(await hashPassword('Pass$word1'))).toBe(false);
    expect(needsRehash(legacyScrypt('Pass$word1', 1024))).toBe(true);
    const cheaper = await hashPassword('Pass$word1', { memoryCost: 4096, timeCost: 2, parallelism: 1 });
    expect(cheaper).toMatch(/^\$argon2id\$v=19\$m=4096,t=2,p=1\$/);
    expect(needsRehash(cheaper)).toBe(true);
    expect(await verifyPassword('Pass$word1', cheaper)).toBe(true);
  });

  it("shares the machine's cores but one among its API processes, each keeping at least one place", () => {
    expect(hashSlots(8, 1)).toBe(7);
    expect(hashSlots(8, 8)).toBe(1);
    expect(hashSlots(8, 3)).toBe(2);
    expect(hashSlots(2, 2)).toBe(1);
    expect(hashSlots(1, 1)).toBe(1);
  });

  it('computes at most HASH_SLOTS hashes at once; the others wait their turn, first come first served', async () => {
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const runs = Array.from({ length: HASH_SLOTS + 3 }, (_, i) =>
      inHashSlot(
        () =>
          new Promise<number>((resolve) => {
            started.push(i);
            finish[i] = () => resolve(i);
          }),
      ),
    );
    const settle = () => new Promise((r) => setTimeout(r, 0));
    await settle();
    expect(started).toEqual(Array.from({ length: HASH_SLOTS }, (_, i) => i));
    finish[1 % HASH_SLOTS]?.();
    await settle();
    expect(started).toEqual(Array.from({ length: HASH_SLOTS + 1 }, (_, i) => i));
    for (let i = 0; i < HASH_SLOTS + 3; i++) {
      finish[i]?.();
      await settle();
    }
    expect(started).toEqual(Array.from({ length: HASH_SLOTS + 3 }, (_, i) => i));
    expect(await Promise.all(runs)).toEqual(Array.from({ length: HASH_SLOTS + 3 }, (_, i) => i));
    // A failed hash gives its place back too.
    await expect(inHashSlot(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await inHashSlot(async () => 'next')).toBe('next');
  });

  describe('admission of hashes outside sign-in', () => {
    /** Takes every hash slot until the result is called, so the hashes asked for meanwhile wait in the queue. */
    function holdSlots() {
      const gate = deferred();
      const held = Array.from({ length: HASH_SLOTS }, () => inHashSlot(() => gate.promise));
      return async () => {
        gate.release();
        await Promise.all(held);
      };
    }
    const cheap = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

    it('refuses the next hash at once with a 503 busy ApiError while MAX_OTHER_PASSWORD_HASHES are running or waiting, then admits again', async () => {
      const release = await holdSlots();
      const queued = Array.from({ length: MAX_OTHER_PASSWORD_HASHES }, (_, i) => hashPassword(`Queued$pass${i}`, cheap));
      expect(otherPasswordHashesInFlight()).toBe(MAX_OTHER_PASSWORD_HASHES);
      await expect(hashPassword('One$more1', cheap)).rejects.toMatchObject({ status: 503, text: BUSY_MESSAGE });
      // The refusal took no place, and the sign-in admission is untouched: other work never makes a sign-in busy.
      expect(otherPasswordHashesInFlight()).toBe(MAX_OTHER_PASSWORD_HASHES);
      const signIns = Array.from({ length: MAX_PASSWORD_CHECKS }, () => enterPasswordCheck());
      expect(signIns.every((leave) => leave !== null)).toBe(true);
      for (const leave of signIns) leave?.();
      await release();
      expect(await Promise.all(queued)).toHaveLength(MAX_OTHER_PASSWORD_HASHES);
      expect(otherPasswordHashesInFlight()).toBe(0);
      expect(await hashPassword('One$more1', cheap)).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
      // A failed hash gives its place back too (argon2 refuses a memory cost below 8 KiB per lane).
      await expect(hashPassword('Bad$cost1', { memoryCost: 1, timeCost: 1, parallelism: 1 })).rejects.toThrow();
      expect(otherPasswordHashesInFlight()).toBe(0);
    });

    it("never refuses a sign-in's own hashes (its rehash, the unknown name's dummy check) when the other places are all taken", async () => {
      const release = await holdSlots();
      const queued = Array.from({ length: MAX_OTHER_PASSWORD_HASHES }, (_, i) => hashPassword(`Queued$pass${i}`, cheap));
      const leave = enterPasswordCheck();
      const rehash = hashPassword('Signed$in1', cheap, { admitted: true });
      const burn = burnPasswordCheck('Unknown$name1');
      expect(otherPasswordHashesInFlight()).toBe(MAX_OTHER_PASSWORD_HASHES);
      await release();
      expect(await rehash).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
      await expect(burn).resolves.toBeUndefined();
      leave?.();
      await Promise.all(queued);
      expect(passwordChecksInFlight()).toBe(0);
      expect(otherPasswordHashesInFlight()).toBe(0);
    });
  });
});
