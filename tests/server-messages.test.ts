import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadServerPlugins } from '@portal/app-server/plugins';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';
import { serverTranslator } from '@portal/server/kernel';
import { describe, expect, it } from 'vitest';

/**
 * Every message the server sends a user has a Spanish translation. The server's messages are English sentences in
 * its sources (errors, `withMessage`, texts in answers, `msg()` templates); this finds each such literal in the
 * kernel's and every plugin's server-side sources and requires it in the catalogues the server loads. A sentence
 * built by interpolation cannot be translated: it must be a `msg('… {{name}} …', { name })` template instead.
 *
 * What counts as a message: a string literal that starts with a capital letter, has a space and ends with `.`, `!`
 * or `?`. Programmers' texts are left out: `new Error(…)` and log calls on the same line, comments, and a literal
 * whose line (or the line above) says `english-only:` with the reason.
 */
const REPO = fileURLToPath(new URL('..', import.meta.url));

const LITERAL = /'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`/g;
const SENTENCE = /^[A-Z¿¡][\s\S]* [\s\S]*[.!?]$/;
const PROGRAMMERS = /new Error\(|new TypeError\(|\blog\.\w+\(|\blogger\.\w+\(|console\.\w+\(|\.log\.(?:warn|info|error|debug)\(|\bdescribe\(|\bit\(/;

export interface Found {
  text: string;
  file: string;
  line: number;
  /** Built with `${…}`: cannot be looked up in a catalogue. */
  interpolated: boolean;
}

/** The message literals of one source text. */
export function findMessages(source: string, file: string): Found[] {
  const lines = source.split('\n');
  const lineAt = (index: number) => source.slice(0, index).split('\n').length;
  const found: Found[] = [];
  for (const m of source.matchAll(LITERAL)) {
    const raw = m[1] ?? m[2] ?? m[3] ?? '';
    const line = lineAt(m.index);
    const here = lines[line - 1] ?? '';
    const trimmed = here.trimStart();
    if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) continue;
    const text = raw.replace(/\\(['"`\\])/g, '$1');
    const interpolated = m[3] !== undefined && text.includes('${');
    const sentence = interpolated ? SENTENCE.test(text.replace(/\$\{[^}]*\}/g, 'x')) : SENTENCE.test(text);
    if (!sentence) continue;
    if (PROGRAMMERS.test(here) || /english-only:/.test(here) || /english-only:/.test(lines[line - 2] ?? '')) continue;
    found.push({ text, file, line, interpolated });
  }
  return found;
}

// A contract's validation message: zod's message argument, an `error:` or `message:` text, a schemaText template.
const SCHEMA_MESSAGE =
  /\.(?:min|max|length|regex|refine|email|gte|lte|gt|lt|int|positive|nonnegative|nonempty|url|multipleOf|uuid)\((?:[^()'`]|\([^()]*\))*?(?:'((?:[^'\\\n]|\\.)+)'|`([^`]+)`)\s*\)|\b(?:error|message): (?:'((?:[^'\\\n]|\\.)+)'|`([^`]+)`)|\bschemaText\(\s*'((?:[^'\\\n]|\\.)+)'/g;

/** The validation messages of a source text's schemas (zod sends them to the user as they are written). */
export function findSchemaMessages(source: string, file: string): Found[] {
  const lines = source.split('\n');
  const found: Found[] = [];
  for (const m of source.matchAll(SCHEMA_MESSAGE)) {
    const line = source.slice(0, m.index).split('\n').length;
    const here = lines[line - 1] ?? '';
    if (/english-only:/.test(here) || /english-only:/.test(lines[line - 2] ?? '') || here.trimStart().startsWith('//') || here.trimStart().startsWith('*'))
      continue;
    const text = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '').replace(/\\(['"`\\])/g, '$1');
    if (!/[a-z]/i.test(text) || !text.includes(' ')) continue; // a name or a pattern, not words
    found.push({ text, file, line, interpolated: (m[2] ?? m[4]) !== undefined && text.includes('${') });
  }
  return found;
}

// A document's words (a PDF's title, headings, paragraphs and labels, a sheet's name and headers) and every msg() template.
const DOCUMENT_WORDS =
  /\b(?:title|label|header|sheetName|countLabel|text): (?:'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`)|\bmsg\(\s*(?:'((?:[^'\\\n]|\\.)*)'|"((?:[^"\\\n]|\\.)*)")/g;

/**
 * The words of a source text's generated documents and its msg() templates: the kernel writes them in the reader's
 * language, so each needs a translation. Words without a lowercase letter (BIN, PCN) are codes, the same in every
 * language.
 */
export function findDocumentWords(source: string, file: string): Found[] {
  const lines = source.split('\n');
  const found: Found[] = [];
  for (const m of source.matchAll(DOCUMENT_WORDS)) {
    const line = source.slice(0, m.index).split('\n').length;
    const here = lines[line - 1] ?? '';
    if (/english-only:/.test(here) || /english-only:/.test(lines[line - 2] ?? '') || here.trimStart().startsWith('//') || here.trimStart().startsWith('*'))
      continue;
    const text = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '').replace(/\\(['"`\\])/g, '$1');
    // Words to translate: left once placeholders and field paths (body.Attachments.{{index}}) are taken out.
    const words = text.replace(/\{\{\s*\w+\s*\}\}/g, '').replace(/\w+(?:\.\w*)+/g, '');
    if (!/[a-z]/.test(words)) continue;
    found.push({ text, file, line, interpolated: m[2] !== undefined && text.includes('${') });
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !/\.test\.ts$|\.d\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !f.includes(`${join('src', 'web')}`) && !f.includes('node_modules'));
}

/** A plugin's server side and the shared files beside it (contract, rules, service), not its web side. */
function pluginSources(id: string): string[] {
  const src = join(REPO, 'plugins', id, 'src');
  return sourceFiles(src).filter((f) => !relative(src, f).startsWith('web'));
}

describe('findSchemaMessages', () => {
  it("finds zod's message arguments, error and message texts and schemaText templates", () => {
    const found = findSchemaMessages(
      [
        "z.string().min(1, 'is required').max(max, schemaText('must be at most {{max}} characters', { max }))",
        "z.enum(A, { error: 'must be one of A' })",
        "ctx.addIssue({ code: 'custom', message: 'must not be before From' });",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test
        'z.number().max(9, `must be at most ${max}`)',
        "z.string().regex(/x/, 'Use the date form YYYY-MM-DD')",
      ].join('\n'),
      'x.ts',
    );
    expect(found.map((f) => [f.text, f.interpolated])).toEqual([
      ['is required', false],
      ['must be at most {{max}} characters', false],
      ['must be one of A', false],
      ['must not be before From', false],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal as found
      ['must be at most ${max}', true],
      ['Use the date form YYYY-MM-DD', false],
    ]);
  });
});

describe('findDocumentWords', () => {
  it("finds a document's titles, labels, headers, texts and sheet names, and every msg() template", () => {
    const found = findDocumentWords(
      [
        "render({ title: 'Monthly statement', blocks: [{ type: 'heading', text: 'Transactions' }] });",
        "rows: [{ label: 'Opening balance', value: money(x) }, { label: 'BIN', value: bin }],",
        "columns: [{ header: 'Amount', key: 'a' }, { header: '', key: 'b' }], sheetName: 'Ledger',",
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test
        "text: `Questions? Call ${phone}.`, other: msg('Page {{page}} of {{count}}', { page, count }),",
        "// english-only: a record\n{ label: 'Kept English', value: v }",
        "msg('{{all}}; {{item}}', { all, item }), msg('body.Attachments.{{index}}: {{reason}}', { index, reason }),",
      ].join('\n'),
      'x.ts',
    );
    expect(found.map((f) => [f.text, f.interpolated])).toEqual([
      ['Monthly statement', false],
      ['Transactions', false],
      ['Opening balance', false],
      ['Amount', false],
      ['Ledger', false],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal as found
      ['Questions? Call ${phone}.', true],
      ['Page {{page}} of {{count}}', false],
    ]);
  });
});

describe('findMessages', () => {
  it('finds sentences in every kind of quote, and names a built one', () => {
    const found = findMessages(
      [
        "throw badRequest('The bill was not found.');",
        'return withMessage(x, "Saved!");',
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test
        'const a = `Are you sure, ${name}?`;',
        'const t = `Plain template here.`;',
      ].join('\n'),
      'x.ts',
    );
    expect(found.map((f) => [f.text, f.line, f.interpolated])).toEqual([
      ['The bill was not found.', 1, false],
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the literal as found
      ['Are you sure, ${name}?', 3, true],
      ['Plain template here.', 4, false],
    ]);
  });

  it("leaves out programmers' texts, comments, words and identifiers", () => {
    const found = findMessages(
      [
        "throw new Error('The plugin is broken.');",
        "req.log.warn('The queue is slow.');",
        "// 'A comment sentence.'",
        '// english-only: sent to the payer, whose format is English',
        "const header = 'Sent to the payer.';",
        "const kind = 'Paid';",
        "const sql = 'SELECT a FROM b WHERE c = $1';",
        "const msg = 'Please try again in {{minutes}} minute(s).';",
      ].join('\n'),
      'x.ts',
    );
    expect(found.map((f) => f.text)).toEqual(['Please try again in {{minutes}} minute(s).']);
  });
});

describe('server messages have Spanish translations', async () => {
  const plugins = await loadServerPlugins(loadBrands(installedPluginIds()));
  const translator = serverTranslator(plugins);
  const sources = [
    { id: 'kernel', files: sourceFiles(join(REPO, 'platform', 'server', 'src')) },
    ...plugins.map((p) => ({ id: p.id, files: pluginSources(p.id) })),
  ];

  it('loads the kernel and the plugins with a server side, and finds the kernel messages', () => {
    expect(plugins.length).toBeGreaterThanOrEqual(15);
    const kernel = sources[0]?.files.flatMap((f) => findMessages(readFileSync(f, 'utf8'), f)) ?? [];
    expect(kernel.map((f) => f.text)).toContain('Please sign in to continue.');
    expect(translator.t('Please sign in to continue.', 'es')).toBe('Inicie sesión para continuar.');
  });

  for (const { id, files } of sources) {
    it(`${id}: every message is translated, and none is built by interpolation`, () => {
      const found = files.flatMap((f) => findMessages(readFileSync(f, 'utf8'), relative(REPO, f)));
      const built = found.filter((f) => f.interpolated).map((f) => `${f.file}:${f.line} ${f.text}`);
      expect(built, 'build these with msg() and {{placeholders}}').toEqual([]);
      const missing = [...new Set(found.filter((f) => !translator.has(f.text, 'es')).map((f) => `${f.file}:${f.line} ${f.text}`))];
      expect(missing, `add these to ${id === 'kernel' ? 'platform/server/src/i18n/es.json' : `plugins/${id}/src/server/i18n/es.json`}`).toEqual([]);
    });

    it(`${id}: every word of its generated documents and every msg() template is translated, and none is built by interpolation`, () => {
      const found = files.flatMap((f) => findDocumentWords(readFileSync(f, 'utf8'), relative(REPO, f)));
      const built = found.filter((f) => f.interpolated).map((f) => `${f.file}:${f.line} ${f.text}`);
      expect(built, "write these with msg('… {{name}} …', { name })").toEqual([]);
      const missing = [...new Set(found.filter((f) => !translator.has(f.text, 'es')).map((f) => `${f.file}:${f.line} ${f.text}`))];
      expect(missing, `add these to ${id === 'kernel' ? 'platform/server/src/i18n/es.json' : `plugins/${id}/src/server/i18n/es.json`}`).toEqual([]);
    });

    it(`${id}: every validation message of its schemas is translated, and none is built by interpolation`, () => {
      const found = files.flatMap((f) => findSchemaMessages(readFileSync(f, 'utf8'), relative(REPO, f)));
      const built = found.filter((f) => f.interpolated).map((f) => `${f.file}:${f.line} ${f.text}`);
      expect(built, "write these with schemaText('… {{name}} …', { name })").toEqual([]);
      const missing = [...new Set(found.filter((f) => !translator.has(f.text, 'es')).map((f) => `${f.file}:${f.line} ${f.text}`))];
      expect(missing, `add these to ${id === 'kernel' ? 'platform/server/src/i18n/es.json' : `plugins/${id}/src/server/i18n/es.json`}`).toEqual([]);
    });
  }
});

describe("the kit's validation messages on the server", () => {
  const kit = (language: string) =>
    (JSON.parse(readFileSync(join(REPO, 'platform', 'web', 'src', 'kit', 'i18n', `${language}.json`), 'utf8')) as { validation: Record<string, string> })
      .validation;
  const server = JSON.parse(readFileSync(join(REPO, 'platform', 'server', 'src', 'i18n', 'validation.en.json'), 'utf8')) as Record<string, string>;

  it("words each key as the kit's en.json does, and the kernel translates it as the kit's es.json does", async () => {
    const translator = serverTranslator([]);
    const en = kit('en');
    const es = kit('es');
    expect(Object.keys(server).sort()).toEqual(
      Object.keys(en)
        .map((k) => `validation.${k}`)
        .sort(),
    );
    for (const [key, text] of Object.entries(en)) {
      expect(server[`validation.${key}`]).toBe(text);
      expect(translator.t(text, 'es')).toBe(es[key]);
    }
  });
});
