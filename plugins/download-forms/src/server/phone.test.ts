import type { BrandManifest } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { LETTERS } from './letters';
import { callUs, NO_MEMBER_MESSAGE, NO_MEMBER_NO_PHONE_MESSAGE, supportPhone, TERMINATED_MESSAGE, TERMINATED_NO_PHONE_MESSAGE } from './phone';

/**
 * The refusals and the letters when there is no phone to give. Every brand's manifest requires one, so no request to the
 * running API gets here: a safeguard, tested on its own.
 */
const brand = (phone: string) => ({ contacts: { phone } }) as unknown as BrandManifest;

describe('the support phone a brand gives', () => {
  it("is the manifest's phone, or null for no brand or a phone of blanks", () => {
    expect(supportPhone(brand('(800) 555-0140'))).toBe('(800) 555-0140');
    expect(supportPhone(brand('  '))).toBeNull();
    expect(supportPhone(null)).toBeNull();
  });
});

describe('a refusal with no phone to give leaves out the sentence giving it, never "call us at ."', () => {
  it('gives the phone when there is one, else the message without it', () => {
    expect(String(callUs(NO_MEMBER_MESSAGE, NO_MEMBER_NO_PHONE_MESSAGE, '(800) 555-0140'))).toBe(
      'Your account has no member record yet, so it has no forms. Please call us at (800) 555-0140.',
    );
    expect(String(callUs(NO_MEMBER_MESSAGE, NO_MEMBER_NO_PHONE_MESSAGE, null))).toBe('Your account has no member record yet, so it has no forms.');
    expect(String(callUs(TERMINATED_MESSAGE, TERMINATED_NO_PHONE_MESSAGE, null))).toBe(
      'Your membership has ended, so these forms can no longer be downloaded.',
    );
  });
});

describe('a letter with no phone to give', () => {
  const data = { name: 'Rosa Delgado', memberNumber: 'M-1', addressLines: [], program: 'CareGuard Finance' };
  const texts = (phone: string | null, id: number) =>
    (LETTERS[id]?.body({ ...data, phone }, String) ?? []).flatMap((b) => (b.type === 'paragraph' ? [String(b.text)] : []));

  it('leaves out the line asking to call, in every letter; with a phone it closes with it', () => {
    for (const id of [1, 2, 3, 4, 5, 6]) {
      expect(texts('(800) 555-0140', id), String(id)).toContain('Questions? Call CareGuard Finance at (800) 555-0140.');
      expect(
        texts(null, id).filter((t) => t.startsWith('Questions?')),
        String(id),
      ).toEqual([]);
    }
  });
});
