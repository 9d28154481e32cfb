import { z } from 'zod';
import { Roles } from './roles';

export const BRAND_IDS = ['finance', 'assist', 'quote', 'card', 'staff'] as const;
export type BrandId = (typeof BRAND_IDS)[number];

export const PRINT_CARD_VARIANTS = ['finance', 'amethyst', 'careassist', 'none'] as const;

/** Steps of the registration wizard a brand may leave out (a brand that sells no membership skips both). */
export const WIZARD_SKIPPABLE_STEPS = ['subscription', 'card'] as const;
export type WizardSkippableStep = (typeof WIZARD_SKIPPABLE_STEPS)[number];

/** Build the manifest schema; plugin ids must be among the installed plugins. */
export function brandManifestSchema(knownPluginIds: readonly string[]) {
  const email = z.email();
  return z.object({
    id: z.enum(BRAND_IDS),
    displayName: z.string().min(1),
    /** The marker word in the page address that selects this brand (e.g. card in card.localhost). */
    marker: z.string().regex(/^[a-z][a-z0-9-]*$/),
    /** Theme id: a file themes/src/<theme>.css.ts supplying every token. */
    theme: z.string().regex(/^[a-z][a-z0-9-]*$/),
    plugins: z.array(z.string()).superRefine((ids, ctx) => {
      for (const [i, id] of ids.entries()) {
        if (!knownPluginIds.includes(id)) {
          ctx.addIssue({ code: 'custom', path: [i], message: `unknown plugin "${id}" (installed: ${knownPluginIds.join(', ')})` });
        }
      }
      if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', message: 'a plugin is listed twice' });
    }),
    registration: z.object({
      /** Role given to accounts registered on this site (spec 01 section 6); null gives no role. */
      role: z.enum([Roles.CareGuard, Roles.CareAssist, Roles.CareQuote, Roles.CareGuardFinance]).nullable(),
      /** 'dialog' opens the register dialog; 'external' sends the user to externalUrl. */
      mode: z.enum(['dialog', 'external']),
      externalUrl: z.url().nullable(),
      /** After registering: sign in at once (assist) or wait for the e-mailed link. */
      signInOnRegister: z.boolean(),
      /**
       * The registration wizard (plugin registration) every new member of this site goes through until the step
       * reaches 10, and the steps it leaves out. Absent: no wizard, a new account starts complete (step 10).
       */
      wizard: z.object({ skip: z.array(z.enum(WIZARD_SKIPPABLE_STEPS)) }).optional(),
    }),
    contacts: z.object({
      phone: z.string().min(1),
      fax: z.string().min(1),
      supportEmail: email,
      infoEmail: email,
    }),
    /**
     * i18n overrides, 'namespace:key' to the brand's text in every language the product speaks (an override in one
     * language alone would leave the others with the plugin's generic text).
     */
    copy: z.record(z.string().regex(/^[a-z][a-zA-Z0-9-]*:[\w.-]+$/), z.object({ en: z.string().min(1), es: z.string().min(1) }).strict()),
    printCard: z.enum(PRINT_CARD_VARIANTS),
    /** Route of the home page after sign-in. */
    home: z.string().startsWith('/'),
    /**
     * How long the card pages wait for a card saved at the gateway to show up (spec 01 section 9: 10000 ms by
     * default, overridable): from 1 to 120 seconds. Absent: the default.
     */
    cardSaveWaitMs: z.number().int().min(1_000).max(120_000).optional(),
  });
}
export type BrandManifest = z.infer<ReturnType<typeof brandManifestSchema>>;

/** Identity function that types a manifest; validation happens in parseBrand against the installed plugins. */
export function defineBrand(manifest: BrandManifest): BrandManifest {
  return manifest;
}

export class BrandManifestError extends Error {}

/** Validate one manifest; the error names the brand and every bad field. */
export function parseBrand(manifest: unknown, knownPluginIds: readonly string[], source = 'manifest'): BrandManifest {
  const result = brandManifestSchema(knownPluginIds).safeParse(manifest);
  if (result.success) return result.data;
  const id = typeof manifest === 'object' && manifest && 'id' in manifest ? String((manifest as { id: unknown }).id) : source;
  const lines = result.error.issues.map((i) => `  - ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
  throw new BrandManifestError(`Brand "${id}" (${source}) is invalid:\n${lines.join('\n')}`);
}

/** Pick the brand whose marker appears in the host name, or null (the brand index page). */
export function brandForHost<B extends Pick<BrandManifest, 'marker'>>(host: string | undefined, brands: readonly B[]): B | null {
  if (!host) return null;
  const name = host.replace(/:\d+$/, '').toLowerCase();
  const labels = name.split('.');
  return brands.find((b) => labels.includes(b.marker)) ?? null;
}
