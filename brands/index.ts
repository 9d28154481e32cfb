import { BRAND_IDS, type BrandManifest, parseBrand } from '@portal/core';
import assist from './assist/manifest';
import card from './card/manifest';
import finance from './finance/manifest';
import quote from './quote/manifest';
import staff from './staff/manifest';

/** The raw manifests, keyed by brand id. Validate with loadBrands before use. */
export const rawManifests: Record<(typeof BRAND_IDS)[number], BrandManifest> = { finance, assist, quote, card, staff };

/** Every manifest validated against the installed plugin ids; throws naming the brand and the field. */
export function loadBrands(knownPluginIds: readonly string[]): BrandManifest[] {
  return BRAND_IDS.map((id) => parseBrand(rawManifests[id], knownPluginIds, `brands/${id}/manifest.ts`));
}
