import type { BrandManifest } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { brandsService } from './brands';

describe('the brands service', () => {
  const card = { id: 'card', displayName: 'Card' } as BrandManifest;
  const finance = { id: 'finance', displayName: 'Finance' } as BrandManifest;
  const brands = brandsService([card, finance]);

  it("finds a member's brand by the id their record names", () => {
    expect(brands.byId('card')).toBe(card);
    expect(brands.byId('finance')).toBe(finance);
  });

  it('answers null for no id or an id this server does not serve', () => {
    expect(brands.byId(null)).toBeNull();
    expect(brands.byId(undefined)).toBeNull();
    expect(brands.byId('')).toBeNull();
    expect(brands.byId('quote')).toBeNull();
  });
});
