import type { BrandManifest } from '@portal/core';
import type { RouteContext } from '@portal/server';
import { describe, expect, it, vi } from 'vitest';
import { loadCard, supportPhone } from './card';

/**
 * The card's refusals and its support line when there is no phone to give. Every brand's manifest requires one, so no
 * request to the running API gets here; the code is called with a context whose brands have a phone of blanks.
 */
const brand = (id: string, phone: string) => ({ id, displayName: `${id} program`, contacts: { phone } }) as unknown as BrandManifest;
const CARD = brand('card', '(800) 555-0170');
const ASSIST = brand('assist', '(800) 555-0150');
const BLANK = brand('blank', '   ');

function ctx(opts: { memberId: number | null; site: BrandManifest | null; memberBrand?: BrandManifest | null; terminated?: boolean; pbmVendor?: number }) {
  return {
    memberId: opts.memberId,
    brand: opts.site,
    req: { log: { error: vi.fn() } },
    services: {
      members: {
        load: async (memberId: number) => ({
          memberId,
          memberNumber: 'M-1',
          brand: opts.memberBrand?.id ?? 'gone',
          firstName: 'Ana',
          lastName: 'Prieto',
          pbmVendor: opts.pbmVendor ?? 1,
        }),
        isTerminated: async () => opts.terminated ?? false,
      },
      brands: { byId: (id: string) => (opts.memberBrand?.id === id ? opts.memberBrand : null) },
    },
  } as unknown as Pick<RouteContext, 'memberId' | 'services' | 'brand' | 'req'>;
}
/** What loadCard was refused with: the status and the English words. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: { status: number; message: string }) => ({ status: e.status, text: e.message }),
  );

describe('the support phone a brand gives', () => {
  it("is the manifest's phone, or null for no brand or a phone of blanks", () => {
    expect(supportPhone(CARD)).toBe('(800) 555-0170');
    expect(supportPhone(BLANK)).toBeNull();
    expect(supportPhone(null)).toBeNull();
  });
});

describe('a refusal with no phone to give leaves out the sentence giving it, never "call us at ."', () => {
  it('a login with no member record', async () => {
    expect(await refusal(loadCard(ctx({ memberId: null, site: CARD })))).toEqual({
      status: 400,
      text: 'Your account has no member record yet, so it has no card. Please call us at (800) 555-0170.',
    });
    for (const site of [BLANK, null])
      expect(await refusal(loadCard(ctx({ memberId: null, site })))).toEqual({
        status: 400,
        text: 'Your account has no member record yet, so it has no card.',
      });
  });

  it("an ended membership, with the member's brand's phone, not the site's", async () => {
    expect(await refusal(loadCard(ctx({ memberId: 7, site: CARD, memberBrand: ASSIST, terminated: true })))).toEqual({
      status: 409,
      text: 'Your membership has ended, so your prescription card can no longer be printed or downloaded. Questions? Call us at (800) 555-0150.',
    });
    expect(await refusal(loadCard(ctx({ memberId: 7, site: CARD, memberBrand: BLANK, terminated: true })))).toEqual({
      status: 409,
      text: 'Your membership has ended, so your prescription card can no longer be printed or downloaded.',
    });
  });

  it('a PBM vendor the configuration does not know', async () => {
    expect(await refusal(loadCard(ctx({ memberId: 7, site: CARD, memberBrand: BLANK, pbmVendor: 9 })))).toEqual({
      status: 409,
      text: 'Your prescription card cannot be shown because your pharmacy benefit manager is not set up with us.',
    });
  });

  it("a card gives the member's brand's support line, or none", async () => {
    expect((await loadCard(ctx({ memberId: 7, site: CARD, memberBrand: ASSIST }))).SupportPhone).toBe('(800) 555-0150');
    expect((await loadCard(ctx({ memberId: 7, site: CARD, memberBrand: BLANK }))).SupportPhone).toBe('');
    // A member of a brand this API does not serve: the site's.
    expect((await loadCard(ctx({ memberId: 7, site: CARD, memberBrand: null }))).SupportPhone).toBe('(800) 555-0170');
  });
});
