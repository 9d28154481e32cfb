import type { BankInstitution } from '@portal/server';
import { describe, expect, it } from 'vitest';
import { popularProviders } from './core';

const institution = (id: number): BankInstitution => ({
  institutionId: id,
  name: `Bank ${id}`,
  url: `https://bank${id}.example.com`,
  favicon: '',
  logo: '',
  popular: true,
  form: null,
});

describe('site/popular', () => {
  it('lists eight popular banks whatever number the aggregator names, in its order, without login forms', () => {
    const listed = popularProviders(Array.from({ length: 12 }, (_, i) => institution(101 + i)));
    expect(listed.map((p) => p.ProviderId)).toEqual([101, 102, 103, 104, 105, 106, 107, 108]);
    expect(listed.every((p) => p.Form === null && p.ProviderAccountId === null)).toBe(true);
    expect(popularProviders([institution(1), institution(2)]).map((p) => p.ProviderId)).toEqual([1, 2]);
  });
});
