import type { BrandManifest } from '@portal/core';

/**
 * The brands this server serves, by id. A member's record names the brand they registered on (`members.brand`), so
 * what is written outside a request (a webhook's receipt, an e-mail from a job) is signed by the member's brand, not by
 * the portal's generic sender.
 */
export interface BrandsService {
  /** The brand with this id; null for none, or an id this server does not serve. */
  byId(id: string | null | undefined): BrandManifest | null;
}

export function brandsService(brands: readonly BrandManifest[]): BrandsService {
  const byId = new Map<string, BrandManifest>(brands.map((b) => [b.id, b]));
  return { byId: (id) => (id ? (byId.get(id) ?? null) : null) };
}
