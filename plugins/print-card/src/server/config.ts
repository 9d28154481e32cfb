import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const vendorSchema = z.object({
  name: z.string().min(1),
  // english-only: the operator's configuration file, checked at start-up
  bin: z.string().regex(/^\d{6}$/, 'a BIN is six digits'),
  pcn: z.string().min(1),
  group: z.string().min(1),
  phone: z.string().min(1),
});

/**
 * The PBM Vendor lookup ids a member record can hold: the profile writes 1 Helios, 2 Express Scripts, 3 Caremark
 * (plugins/profile's PBM_VENDORS, 1-based). The configuration must name each, so no member's card falls back to
 * another vendor's BIN, PCN and group.
 */
export const PBM_VENDOR_IDS = [1, 2, 3] as const;

/** The print card's fixed data (spec 02 section 9): the file named by PRINT_CARD_CONFIG, else config/pbm-vendors.json. */
export const printCardConfigSchema = z
  .object({
    payerNumber: z.string().min(1),
    copay: z.string().min(1),
    /** The PBM Vendor lookup id used for a member without one. */
    defaultVendor: z.number().int(),
    /** Keyed by the PBM Vendor lookup id (1 Helios, 2 Express Scripts, 3 Caremark). */
    vendors: z.record(z.string().regex(/^\d+$/), vendorSchema),
  })
  // english-only: the operator's configuration file, checked at start-up
  .refine((c) => String(c.defaultVendor) in c.vendors, 'defaultVendor must be one of vendors')
  // english-only: the operator's configuration file, checked at start-up
  .refine((c) => PBM_VENDOR_IDS.every((id) => String(id) in c.vendors), `vendors must name every PBM Vendor id (${PBM_VENDOR_IDS.join(', ')})`);
export type PrintCardConfig = z.infer<typeof printCardConfigSchema>;

export const DEFAULT_CONFIG_FILE = fileURLToPath(new URL('../../config/pbm-vendors.json', import.meta.url));

/** Reads and checks a configuration file; a missing or malformed one stops the start with a message naming it. */
export function readPrintCardConfig(file: string): PrintCardConfig {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`print-card: cannot read the PBM vendor configuration ${file}: ${(err as Error).message}`);
  }
  const parsed = printCardConfigSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`print-card: ${file} is not a valid PBM vendor configuration: ${parsed.error.message}`);
  return parsed.data;
}

let cached: PrintCardConfig | null = null;

/** The configuration of this process, read once. */
export function printCardConfig(): PrintCardConfig {
  cached ??= readPrintCardConfig(process.env.PRINT_CARD_CONFIG || DEFAULT_CONFIG_FILE);
  return cached;
}
