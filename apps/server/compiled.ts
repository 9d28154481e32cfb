import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The compiled API's entry, written by `pnpm build` (apps/server/build.ts). */
export const COMPILED_API = join(dirname(fileURLToPath(import.meta.url)), 'dist', 'main.js');

/**
 * The node arguments that run the API as production does: the compiled entry, with stack traces mapped back to the
 * TypeScript sources. Throws, saying what to run, when the API has not been built.
 */
export function compiledApiArgs(): string[] {
  if (!existsSync(COMPILED_API)) throw new Error(`The compiled API (${COMPILED_API}) is missing: run pnpm build first.`);
  return ['--enable-source-maps', COMPILED_API];
}
