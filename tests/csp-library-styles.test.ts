import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { CSP_DIRECTIVES, REACT_ARIA_PRESSABLE_STYLE, styleHashSource } from '@portal/server/kernel';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const fromWeb = createRequire(join(ROOT, 'platform', 'web', 'package.json'));
const packageDir = (name: string, from: NodeJS.Require) => dirname(from.resolve(`${name}/package.json`));

function filesUnder(dir: string, test: (file: string) => boolean): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path, test) : test(path) ? [path] : [];
  });
}

/** The text react-aria's usePress writes into its `<style>` element, read from the installed package's ES build. */
function pressableStyleOfInstalledReactAria(): string {
  const components = packageDir('react-aria-components', fromWeb);
  const dist = join(packageDir('react-aria', createRequire(join(components, 'package.json'))), 'dist');
  const sources = filesUnder(dist, (f) => f.endsWith('.mjs')).filter((f) => readFileSync(f, 'utf8').includes("'react-aria-pressable-style'"));
  expect(sources, 'react-aria modules that write the pressable style').toHaveLength(1);
  const code = readFileSync(sources[0] as string, 'utf8');
  const attribute = code.match(/PRESSABLE_ATTRIBUTE = '([^']+)'/)?.[1];
  const template = code.match(/style\.textContent = `([^`]*)`\.trim\(\)/)?.[1];
  if (!attribute || template === undefined) throw new Error(`react-aria's usePress no longer reads as expected: ${sources[0]}`);
  return template.replace(/\$\{[^}]*PRESSABLE_ATTRIBUTE\}/g, attribute).trim();
}

describe("the sites' policy and the libraries' inline styles", () => {
  it("allows react-aria's one fixed pressable rule by the hash of the exact text the installed react-aria writes", () => {
    expect(pressableStyleOfInstalledReactAria()).toBe(REACT_ARIA_PRESSABLE_STYLE);
    expect(CSP_DIRECTIVES['style-src']).toEqual(["'self'", styleHashSource(REACT_ARIA_PRESSABLE_STYLE)]);
    // The hash Chromium named when it refused the element (issue 23's e2e console), for the same text.
    expect(styleHashSource(REACT_ARIA_PRESSABLE_STYLE)).toBe("'sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o='");
  });
});
