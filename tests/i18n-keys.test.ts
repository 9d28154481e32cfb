import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Every i18n namespace ships en.json and its Spanish twin es.json with the same keys and, per key, the same
 * {{placeholders}}: i18next falls back to nothing (fallbackLng false), so a missing Spanish key would show the key.
 */
const REPO = fileURLToPath(new URL('..', import.meta.url));
const SKIP = new Set(['node_modules', 'dist', '.git', '.data', 'bench-results', 'test-results', 'playwright-report']);

function findEnglishFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name)) found.push(...findEnglishFiles(join(dir, entry.name)));
    } else if (entry.name === 'en.json' && basename(dir) === 'i18n') {
      found.push(join(dir, entry.name));
    }
  }
  return found;
}

/** Leaf strings by dotted path; array items by index ('steps.0'). */
function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (value !== null && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

function placeholders(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...new Set([...text.matchAll(/\{\{\s*([^}]+?)\s*\}\}/g)].map((m) => m[1] as string))].sort();
}

const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const files = findEnglishFiles(REPO);

describe('i18n namespaces: en.json and es.json', () => {
  it('finds the kernel, kit and plugin namespaces', () => {
    const names = files.map((f) => relative(REPO, f));
    expect(names).toContain(join('platform', 'web', 'src', 'i18n', 'en.json'));
    expect(names).toContain(join('platform', 'web', 'src', 'kit', 'i18n', 'en.json'));
    expect(names.filter((n) => n.startsWith('plugins')).length).toBeGreaterThanOrEqual(4);
  });

  for (const en of files) {
    const name = relative(REPO, en);
    const es = join(en, '..', 'es.json');
    describe(name, () => {
      it('has an es.json twin with exactly the same keys', () => {
        expect(existsSync(es), `${relative(REPO, es)} is missing`).toBe(true);
        const enKeys = [...flatten(read(en)).keys()].sort();
        const esKeys = [...flatten(read(es)).keys()].sort();
        expect(enKeys.length).toBeGreaterThan(0);
        expect(
          esKeys.filter((k) => !enKeys.includes(k)),
          'keys only in es.json',
        ).toEqual([]);
        expect(
          enKeys.filter((k) => !esKeys.includes(k)),
          'keys missing from es.json',
        ).toEqual([]);
      });

      it('keeps the same {{placeholders}} in every Spanish string, and no string empty', () => {
        if (!existsSync(es)) return; // reported by the test above
        const esMap = flatten(read(es));
        const mismatched: string[] = [];
        for (const [key, text] of flatten(read(en))) {
          const other = esMap.get(key);
          if (other === undefined) continue; // reported by the test above
          if (typeof other !== typeof text || (typeof other === 'string' && other.trim() === '' && String(text).trim() !== ''))
            mismatched.push(`${key}: not translated`);
          else if (placeholders(text).join(',') !== placeholders(other).join(',')) mismatched.push(`${key}: ${placeholders(text)} vs ${placeholders(other)}`);
        }
        expect(mismatched).toEqual([]);
      });
    });
  }
});

describe('the checks themselves', () => {
  it('flatten and placeholders see nesting, arrays and every placeholder once', () => {
    expect([...flatten({ a: { b: 'x', c: ['y', 'z'] }, d: 'w' }).keys()]).toEqual(['a.b', 'a.c.0', 'a.c.1', 'd']);
    expect(placeholders('{{count}} of {{ total }}, {{count}}')).toEqual(['count', 'total']);
    expect(placeholders('no placeholders')).toEqual([]);
  });
});
