/**
 * Valid samples of a contract's zod schema, made by walking the schema's own definition, and one-field mutants of them
 * (tests/contract-fuzz.int.test.ts). Pure: no server, no database.
 *
 * The contracts are zod 4 (classic and mini): a schema's definition is `_zod.def` (`type`: 'string', 'object', 'pipe' ...)
 * and what its checks say is gathered in `_zod.bag` (a string's minimum and maximum length, its patterns and format; a
 * number's bounds and format: 'safeint' for `.int()`). Refinements (`refine`, `superRefine`) say nothing a walker can
 * read: each schema gets a short list of candidate values, and the first one the schema itself accepts (`safeParse`) is
 * its sample; an object whose own refinement refuses a combination tries the next candidate of each field the refusal
 * names. No library makes samples of zod 4 schemas here (zod-fast-check and @anatine/zod-mock read zod 3's `_def`).
 */

/** A zod 4 schema as this walker sees it (classic or mini: both have `safeParse`). */
export interface ZodLike {
  _zod: {
    def: ZodDef;
    /** 'optional' or 'defaulted' when an object may lack the key. */
    optin?: string;
  };
  safeParse(value: unknown): SafeParse;
}
export type SafeParse = { success: true; data: unknown } | { success: false; error: { issues: readonly Issue[] } };
export interface Issue {
  path: readonly PropertyKey[];
  message: string;
}
interface ZodDef {
  type: string;
  [key: string]: unknown;
}
/** What a schema's checks say of its length, bounds and format. */
interface Bag {
  minimum?: number;
  maximum?: number;
  format?: string;
  patterns: RegExp[];
  prefix?: string;
  suffix?: string;
  int: boolean;
}
interface CheckDef {
  check?: string;
  minimum?: number;
  maximum?: number;
  length?: number;
  value?: number;
  inclusive?: boolean;
  format?: string;
  pattern?: RegExp;
  prefix?: string;
  suffix?: string;
}

/**
 * The bounds and formats a schema's checks declare (`.min()`, `.max()`, `.length()`, `.int()`, `.regex()`, `.email()`
 * ...): each check's own definition, in `_zod.def.checks` (a format schema such as `z.email()` is its own check).
 */
export function bagOf(s: ZodLike): Bag {
  const d = def(s) as ZodDef & CheckDef;
  const checks = [d, ...((d.checks as { _zod: { def: CheckDef } }[] | undefined) ?? []).map((c) => c._zod.def)];
  const bag: Bag = { patterns: [], int: false };
  const lower = (n: number) => (bag.minimum = bag.minimum === undefined ? n : Math.max(bag.minimum, n));
  const upper = (n: number) => (bag.maximum = bag.maximum === undefined ? n : Math.min(bag.maximum, n));
  for (const c of checks) {
    switch (c.check) {
      case 'min_length':
      case 'min_size':
        lower(c.minimum ?? 0);
        break;
      case 'max_length':
      case 'max_size':
        upper(c.maximum ?? Number.POSITIVE_INFINITY);
        break;
      case 'length_equals':
      case 'size_equals':
        lower(c.length ?? 0);
        upper(c.length ?? 0);
        break;
      case 'greater_than':
        lower((c.value ?? 0) + (c.inclusive ? 0 : 1));
        break;
      case 'less_than':
        upper((c.value ?? 0) - (c.inclusive ? 0 : 1));
        break;
      case 'number_format':
        if (c.format?.includes('int')) bag.int = true;
        break;
      case 'string_format':
        if (c.format === 'starts_with') bag.prefix = c.prefix;
        else if (c.format === 'ends_with') bag.suffix = c.suffix;
        else if (c.format && c.format !== 'regex') bag.format ??= c.format;
        if (c.pattern) bag.patterns.push(c.pattern);
        break;
    }
  }
  return bag;
}

/** A contract's schema (the core `$ZodType`, which declares no `safeParse`) as the walker sees it. */
export const asZod = (schema: unknown): ZodLike => schema as ZodLike;

const def = (s: ZodLike) => s._zod.def;
const child = (s: ZodLike, key: string) => def(s)[key] as ZodLike;
const accepts = (s: ZodLike, value: unknown) => s.safeParse(value).success;
/** Through JSON and back, as a body travels: a sample must survive it. */
export const viaJson = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
/** A value no query string can carry (an object, null). */
export const UNSENDABLE = Symbol('unsendable');
type Encode = (value: unknown) => unknown;
/**
 * One query value as the server's parser hands it over: text; a key given twice or more is a list of texts, once is one
 * text; null, undefined and objects cannot be sent.
 */
export function queryValue(v: unknown): unknown {
  if (v === undefined) return undefined;
  if (v === null) return UNSENDABLE;
  if (Array.isArray(v)) {
    if (v.some((x) => typeof x === 'object' && x !== null) || v.length === 0) return UNSENDABLE;
    return v.length === 1 ? String(v[0]) : v.map(String);
  }
  return typeof v === 'object' ? UNSENDABLE : String(v);
}

/** A simple example of a regular expression: each class's first character, each quantifier's least count (at least one). */
export function sampleRegex(re: RegExp): string | null {
  const src = re.source;
  let i = 0;
  const fail = () => {
    throw new Error(`unsupported pattern ${src}`);
  };
  const escaped = (c: string): string => ({ d: '1', D: 'a', w: 'a', W: '-', s: ' ', S: 'a', b: '', B: '', n: '\n', t: '\t' })[c] ?? c;
  function charClass(): string {
    i++; // [
    const negated = src[i] === '^';
    if (negated) i++;
    const members: [string, string][] = [];
    while (i < src.length && src[i] !== ']') {
      let c = src[i++] as string;
      if (c === '\\') c = escaped(src[i++] ?? fail());
      if (src[i] === '-' && src[i + 1] !== ']' && src[i + 1] !== undefined) {
        i++;
        let end = src[i++] as string;
        if (end === '\\') end = escaped(src[i++] ?? fail());
        members.push([c, end]);
      } else members.push([c, c]);
    }
    i++; // ]
    const inClass = (c: string) => members.some(([a, b]) => c >= a && c <= b);
    if (!negated) return members[0]?.[0] ?? fail();
    return ['a', '1', 'x', 'Z', '-'].find((c) => !inClass(c)) ?? fail();
  }
  function atom(): string {
    const c = src[i] as string;
    if (c === '^' || c === '$') {
      i++;
      return '';
    }
    if (c === '(') {
      i++;
      let lookaround = false;
      if (src[i] === '?') {
        if (src[i + 1] === ':') i += 2;
        else if (src[i + 1] === '=' || src[i + 1] === '!') {
          lookaround = true;
          i += 2;
        } else if (src[i + 1] === '<' && src[i + 2] !== '=' && src[i + 2] !== '!') i = src.indexOf('>', i) + 1;
        else fail();
      }
      const inner = alternatives();
      if (src[i++] !== ')') fail();
      return lookaround ? '' : inner;
    }
    if (c === '[') return charClass();
    if (c === '\\') {
      i += 2;
      return escaped(src[i - 1] ?? fail());
    }
    i++;
    return c === '.' ? 'a' : c;
  }
  function count(): number {
    const c = src[i];
    let n = 1;
    if (c === '*' || c === '+' || c === '?') i++;
    else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(src.slice(i));
      if (!m) return 1;
      i += m[0].length;
      // {n} exactly n; {n,} and {n,m} at least one, within m.
      n = m[2] === undefined ? Number(m[1]) : Math.max(Number(m[1]), 1);
      if (m[3]) n = Math.min(n, Number(m[3]));
    } else return 1;
    if (src[i] === '?') i++; // lazy
    return n;
  }
  function sequence(): string {
    let out = '';
    while (i < src.length && src[i] !== '|' && src[i] !== ')') {
      const a = atom();
      out += a.repeat(count());
    }
    return out;
  }
  function alternatives(): string {
    const first = sequence();
    while (src[i] === '|') {
      i++;
      sequence();
    }
    return first;
  }
  try {
    const s = alternatives();
    return new RegExp(src, re.flags.replace(/[gy]/g, '')).test(s) ? s : null;
  } catch {
    return null;
  }
}

/** Text a form or a search would send: tried in order, each cut or padded to the schema's length. */
const TEXT_POOL = [
  'Sample text',
  '1',
  '2024-01-15',
  '1980-01-15',
  '01/15/1980',
  '01/15/2024',
  '2030-06-15',
  '2024-01-15T10:00:00Z',
  '2024-01-15T10:00:00.000Z',
  'someone@example.com',
  '5125550101',
  '+15125550101',
  '123456789',
  '78701',
  '123456',
  'https://example.com/',
  'sample-key-0001',
  'document.pdf',
  'pdf',
  'Aa1!Aa1!Aa1!xyz',
  'asc',
  'true',
  '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  'aGVsbG8=',
  'TX',
  'abc',
];
const FORMAT_TEXT: Record<string, string> = {
  email: 'someone@example.com',
  uuid: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  guid: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
  url: 'https://example.com/',
  datetime: '2024-01-15T10:00:00Z',
  date: '2024-01-15',
  time: '10:00:00',
  e164: '+15125550101',
  base64: 'aGVsbG8=',
  ipv4: '192.0.2.1',
};
const NUMBER_POOL = [1, 2, 10, 0, 5, 12, 100, 1000, 2024, 1.5, 0.5, 25.5];

function fitLength(s: string, bag: Bag): string {
  let out = s;
  if (bag.maximum !== undefined && out.length > bag.maximum) out = out.slice(0, bag.maximum);
  if (bag.minimum !== undefined && out.length < bag.minimum) out = out + (out.at(-1) ?? 'a').repeat(bag.minimum - out.length);
  return out;
}

const MAX_DEPTH = 8;
const MAX_CANDIDATES = 40;

function unique(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const v of values) {
    const key = v === undefined ? 'undefined' : JSON.stringify(v);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(v);
    if (out.length >= MAX_CANDIDATES) break;
  }
  return out;
}

/** Values worth trying for a schema, best first; not all of them valid (the caller tries each with safeParse). */
export function candidates(s: ZodLike, depth = 0, encode: Encode = viaJson): unknown[] {
  if (depth > MAX_DEPTH) return [];
  const d = def(s);
  const bag = bagOf(s);
  const next = (key: string) => candidates(child(s, key), depth + 1);
  switch (d.type) {
    case 'string': {
      const formatted = bag.format && FORMAT_TEXT[bag.format] ? [FORMAT_TEXT[bag.format]] : [];
      const fromPatterns = bag.patterns.map(sampleRegex).filter((x): x is string => x !== null);
      const affixed = (x: string) =>
        `${bag.prefix && !x.startsWith(bag.prefix) ? bag.prefix : ''}${x}${bag.suffix && !x.endsWith(bag.suffix) ? bag.suffix : ''}`;
      return unique([...formatted, ...TEXT_POOL, ...fromPatterns].map((x) => fitLength(affixed(x as string), bag)));
    }
    case 'number': {
      const lo = bag.minimum;
      const hi = bag.maximum;
      const bounds = [lo, hi, lo !== undefined && hi !== undefined ? Math.floor((lo + hi) / 2) : undefined].filter(
        (x): x is number => x !== undefined && Number.isFinite(x) && Math.abs(x) < 1e15,
      );
      return unique([...NUMBER_POOL, ...bounds]);
    }
    case 'boolean':
      return [true, false];
    case 'null':
      return [null];
    case 'undefined':
    case 'void':
      return [undefined];
    case 'any':
    case 'unknown':
    case 'custom':
    case 'transform':
      return ['Sample text', 1, true];
    case 'date':
      return ['2024-01-15', '2024-01-15T10:00:00Z'];
    case 'enum':
      return Object.values(d.entries as Record<string, unknown>);
    case 'literal':
      return [...(d.values as unknown[])];
    case 'nullable':
      return [...next('innerType'), null];
    case 'optional':
    case 'default':
    case 'prefault':
      return [...next('innerType'), undefined];
    case 'catch':
    case 'nonoptional':
    case 'readonly':
      return next('innerType');
    case 'lazy':
      return candidates((d.getter as () => ZodLike)(), depth + 1);
    case 'pipe': {
      // A preprocess (a transform first) takes what its target takes; a transform or pipe after a schema takes that schema's input.
      const from = child(s, 'in');
      if (def(from).type === 'transform') return next('out');
      return unique([...next('in'), ...next('out')]);
    }
    case 'union':
      return unique((d.options as ZodLike[]).flatMap((o) => candidates(o, depth + 1)));
    case 'intersection': {
      const left = next('left');
      const right = next('right');
      const merged = left.flatMap((l) => right.map((r) => (isPlain(l) && isPlain(r) ? { ...l, ...r } : l)));
      return unique(merged);
    }
    case 'array': {
      const element = child(s, 'element');
      const valid = candidates(element, depth + 1).filter((v) => accepts(element, v));
      const least = Math.max(bag.minimum ?? 1, 1);
      // The same item repeated, then different items (a list whose items must differ).
      const repeated = valid.slice(0, 3).map((v) => Array.from({ length: least }, () => v));
      const distinct = Array.from({ length: least }, (_, n) => valid[n === 0 ? 0 : Math.max(valid.length - n, 0)]);
      return unique([...repeated, distinct, []]);
    }
    case 'tuple': {
      const items = (d.items as ZodLike[]).map((item) => candidates(item, depth + 1).find((v) => accepts(item, v)));
      return [items];
    }
    case 'record': {
      const key = child(s, 'keyType');
      const value = child(s, 'valueType');
      const k = candidates(key, depth + 1).find((v) => typeof v === 'string' && accepts(key, v));
      const v = candidates(value, depth + 1).find((x) => accepts(value, x));
      return k === undefined ? [{}] : [{ [k as string]: v }, {}];
    }
    case 'object':
      return objectCandidates(s, depth, encode);
    default:
      return [];
  }
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The fields of an object schema. */
export const shapeOf = (s: ZodLike): Record<string, ZodLike> => def(s).shape as Record<string, ZodLike>;

/**
 * Values a field's name suggests, tried first, so a sample reads as a person would fill the form (a handler that gets
 * it then judges the one broken field, not a date that is 'Sample text').
 */
const NAME_HINTS: [RegExp, string][] = [
  [/date|day|dob|^(from|to)$/i, '2024-01-15'],
  [/e-?mail$/i, 'someone@example.com'],
  [/(phone|mobile|fax)$/i, '5125550101'],
  [/zip$/i, '78701'],
  [/url$/i, 'https://example.com/'],
  [/key$/i, 'sample-key-0001'],
  [/password$/i, 'Aa1!Aa1!Aa1!xyz'],
  [/state$/i, 'TX'],
];
const hinted = (name: string, values: unknown[]): unknown[] => {
  const hint = NAME_HINTS.find(([re]) => re.test(name))?.[1];
  return hint === undefined || !values.includes(hint) ? values : [hint, ...values.filter((v) => v !== hint)];
};

/**
 * An object with every field (and one with only the required ones): each field's first valid candidate; when the
 * object's own refinement refuses the combination, the fields it names (or, when it names none, each in turn) move to
 * their next valid candidate; an optional field may then be left out.
 */
function objectCandidates(s: ZodLike, depth: number, encode: Encode): unknown[] {
  const shape = shapeOf(s);
  const keys = Object.keys(shape);
  const ABSENT = Symbol('absent');
  const options: Record<string, unknown[]> = {};
  for (const k of keys) {
    const field = shape[k] as ZodLike;
    const valid = hinted(k, unique(candidates(field, depth + 1).map(encode))).filter((v) => v !== undefined && v !== UNSENDABLE && accepts(field, v));
    if (field._zod.optin !== undefined) valid.push(ABSENT);
    if (valid.length === 0) return [];
    options[k] = valid;
  }
  const build = (choice: Record<string, number>) => {
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const v = options[k]?.[choice[k] ?? 0];
      if (v !== ABSENT) out[k] = v;
    }
    return out;
  };
  const search = (start: Record<string, number>) => {
    const choice = { ...start };
    let turn = 0;
    for (let round = 0; round < 60; round++) {
      const value = build(choice);
      const r = s.safeParse(value);
      if (r.success) return value;
      const named = [...new Set(r.error.issues.map((issue) => String(issue.path[0])).filter((k) => k in options))];
      const toMove = named.length ? named : [keys[turn++ % Math.max(keys.length, 1)] as string];
      let moved = false;
      for (const k of toMove) {
        if ((choice[k] ?? 0) + 1 < (options[k]?.length ?? 0)) {
          choice[k] = (choice[k] ?? 0) + 1;
          moved = true;
        }
      }
      if (!moved && named.length) return null;
    }
    return null;
  };
  const full = search(Object.fromEntries(keys.map((k) => [k, 0])));
  const least = search(Object.fromEntries(keys.map((k) => [k, options[k]?.at(-1) === ABSENT ? (options[k]?.length ?? 1) - 1 : 0])));
  // Another object unlike the first in every field that has another value, for lists whose items must differ.
  const other = search(Object.fromEntries(keys.map((k) => [k, (options[k]?.length ?? 0) > 2 ? 1 : 0])));
  return [full, least, other].filter((v) => v !== null);
}

/**
 * The first candidate the schema accepts as it travels (a body through JSON, a query as text), or null. Each object's
 * fields are tried as they travel, one level down for a query (a query has no nested objects).
 */
export function validSample(schema: unknown, part: 'body' | 'query' = 'body'): { value: unknown } | null {
  const s = asZod(schema);
  const encode = part === 'query' ? queryValue : viaJson;
  for (const v of candidates(s, 0, encode)) {
    const sent = part === 'query' ? asQuery(v) : viaJson(v);
    if (sent !== null && accepts(s, sent)) return { value: sent };
  }
  return null;
}

/** The schema that says what kind of value a field is: through optional, nullable, default, a preprocess ... */
export function coreOf(s: ZodLike, depth = 0): ZodLike {
  const d = def(s);
  if (depth > MAX_DEPTH) return s;
  switch (d.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'catch':
    case 'nonoptional':
    case 'readonly':
      return coreOf(child(s, 'innerType'), depth + 1);
    case 'lazy':
      return coreOf((d.getter as () => ZodLike)(), depth + 1);
    case 'pipe': {
      const from = child(s, 'in');
      return coreOf(def(from).type === 'transform' ? child(s, 'out') : from, depth + 1);
    }
    default:
      return s;
  }
}

/** The kinds of value a field takes (a union's options each give theirs). */
export function kindsOf(s: ZodLike, depth = 0): Set<string> {
  const core = coreOf(s);
  const d = def(core);
  if (d.type === 'union' && depth < MAX_DEPTH) return new Set((d.options as ZodLike[]).flatMap((o) => [...kindsOf(o, depth + 1)]));
  return new Set([d.type === 'number' && bagOf(core).int ? 'int' : d.type]);
}

/** How a mutant breaks its field; each is a value no contract should take there, or the field left out. */
export type MutantKind = 'missing' | 'null' | 'wrong-type' | 'long-string' | 'huge-number' | 'fraction' | 'unknown-enum' | 'long-list' | 'unknown-key';

export interface Mutant {
  /** Where in the body or query: ['Bills', 0, 'Amount']. */
  path: (string | number)[];
  kind: MutantKind;
  /** The whole body (or query) with that one field broken. */
  value: unknown;
}

const LONG = 100_000;
const LONG_LIST = 10_001;
/** Names of fields that hold whole numbers (ids, counts, cents, indexes, versions, years ...): a fraction there is a gap. */
const WHOLE_NUMBER_NAME = /(id|ids|cents|count|index|size|version|year|month|day|days|number|no|num|quantity|qty|period|page|months|minutes|seconds|hours)$/i;

function setIn(root: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const p of path.slice(0, -1)) at = at[p] as Record<string | number, unknown>;
  const last = path.at(-1) as string | number;
  if (remove) delete at[last];
  else at[last] = value;
  return copy;
}

/** One field's mutants: `valid` is the field's value in the valid sample. */
function fieldMutants(name: string, field: ZodLike, valid: unknown, inList: boolean): { kind: MutantKind; value?: unknown; remove?: boolean }[] {
  const out: { kind: MutantKind; value?: unknown; remove?: boolean }[] = [];
  if (field._zod.optin === undefined && !inList) out.push({ kind: 'missing', remove: true });
  if (!accepts(field, null)) out.push({ kind: 'null', value: null });
  const kinds = kindsOf(field);
  const has = (...k: string[]) => k.some((x) => kinds.has(x));
  if (has('string', 'enum', 'literal', 'any', 'unknown', 'custom', 'transform')) out.push({ kind: 'wrong-type', value: { nested: 'object' } });
  else if (has('number', 'int', 'boolean')) out.push({ kind: 'wrong-type', value: 'not a number' });
  else if (has('object', 'record', 'array')) out.push({ kind: 'wrong-type', value: 'not an object' });
  if (has('string')) {
    const base = typeof valid === 'string' && valid.length > 0 ? valid : 'x';
    out.push({ kind: 'long-string', value: base + (base.at(-1) as string).repeat(LONG - base.length) });
  }
  if (has('number', 'int')) out.push({ kind: 'huge-number', value: 1e308 });
  if (has('int') || (has('number') && WHOLE_NUMBER_NAME.test(name))) out.push({ kind: 'fraction', value: 1.5 });
  if (has('enum', 'literal')) out.push({ kind: 'unknown-enum', value: 'NOT_A_VALUE' });
  if (has('array') && Array.isArray(valid) && valid.length > 0) out.push({ kind: 'long-list', value: Array.from({ length: LONG_LIST }, () => valid[0]) });
  return out;
}

/** The object option of a union (a discriminated union of objects) that takes the value. */
function objectOption(s: ZodLike, value: unknown): ZodLike | null {
  const core = coreOf(s);
  if (def(core).type === 'object') return core;
  if (def(core).type !== 'union') return null;
  return (def(core).options as ZodLike[]).map((o) => coreOf(o)).find((o) => def(o).type === 'object' && accepts(o, value)) ?? null;
}

/**
 * Every one-field mutant of a valid sample: each field of the top-level object (of the option of a union that takes
 * the sample), each field one object level down, each list's first item (and its fields), a list far longer than any
 * form sends, and an unknown key in each object. A query's mutants are those a query string can carry, as the server
 * reads them (text).
 */
export function mutants(schema: unknown, sample: unknown, part: 'body' | 'query' = 'body'): Mutant[] {
  const out: Mutant[] = [];
  const add = (path: (string | number)[], kind: MutantKind, value: unknown) => {
    if (part === 'body') return out.push({ path, kind, value });
    if (kind === 'null') return;
    const sent = asQuery(value);
    if (sent !== null) out.push({ path, kind, value: sent });
  };
  const maxLevel = part === 'query' ? 1 : 2;
  const visit = (s: ZodLike, value: unknown, path: (string | number)[], name: string, level: number) => {
    if (path.length > 0)
      for (const m of fieldMutants(name, s, value, typeof path.at(-1) === 'number')) add(path, m.kind, setIn(sample, path, m.value, m.remove));
    const object = isPlain(value) ? objectOption(s, value) : null;
    if (object && level < maxLevel) {
      for (const [key, field] of Object.entries(shapeOf(object))) visit(field, (value as Record<string, unknown>)[key], [...path, key], key, level + 1);
      add([...path, UNKNOWN_KEY], 'unknown-key', setIn(sample, [...path, UNKNOWN_KEY], 'x'));
    }
    const list = coreOf(s);
    if (def(list).type === 'array' && Array.isArray(value) && value.length > 0 && level < maxLevel) {
      if (path.length === 0)
        add(
          path,
          'long-list',
          Array.from({ length: LONG_LIST }, () => value[0]),
        );
      visit(child(list, 'element'), value[0], [...path, 0], name, level);
    }
  };
  visit(asZod(schema), sample, [], '', 0);
  return out;
}

/** Whether one path leads to the other (an issue at a field, inside it, or at an object or list holding it). */
const related = (a: readonly PropertyKey[], b: readonly PropertyKey[]) => {
  const n = Math.min(a.length, b.length);
  return a.slice(0, n).every((p, i) => String(p) === String(b[i]));
};

/** The key no contract declares: an object that passes it on to the handler (loose, passthrough) is a gap. */
export const UNKNOWN_KEY = 'UnexpectedField';

/**
 * What the schema makes of a mutant: 'refused' (safeParse fails), 'taken' (a gap: the broken value reaches the handler),
 * or 'dropped': an unknown key that a stripping object leaves out (a strict one refuses it, a loose or passthrough one
 * hands it on: taken).
 */
export function verdict(schema: unknown, m: Mutant): 'refused' | 'taken' | 'dropped' {
  const r = asZod(schema).safeParse(m.value);
  // Refused for the broken field (an issue at it, inside it, or at what holds it), or only for another field's rule
  // (a password that must match its confirmation): then the field itself took the value.
  if (!r.success) return r.error.issues.some((i) => related(i.path, m.path)) ? 'refused' : 'taken';
  if (m.kind !== 'unknown-key') return 'taken';
  let at: unknown = r.data;
  for (const p of m.path.slice(0, -1)) at = isPlain(at) || Array.isArray(at) ? (at as Record<string | number, unknown>)[p] : undefined;
  return isPlain(at) && UNKNOWN_KEY in at ? 'taken' : 'dropped';
}

/** A query as it travels (queryValue for each key; a key without a value is left out), or null when it cannot be sent. */
export function asQuery(value: unknown): Record<string, unknown> | null {
  if (!isPlain(value)) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const q = queryValue(v);
    if (q === UNSENDABLE) return null;
    if (q !== undefined) out[k] = q;
  }
  return out;
}

/** A query's text as the server's parser reads it back into what asQuery gives. */
export function queryString(query: Record<string, unknown>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const x of Array.isArray(v) ? v : [v]) q.append(k, String(x));
  return q.toString();
}
