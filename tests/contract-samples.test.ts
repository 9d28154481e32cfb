import {
  createKeySchema,
  emailSchema,
  identitySchema,
  idSchema,
  isoDateSchema,
  languageChoiceSchema,
  memberNumberParamsSchema,
  pageIndexSchema,
  phoneSchema,
  tokenGrantSchema,
  zipSchema,
} from '@portal/core';
import { contactCreateSchema, contactDuplicateSchema, contactUpdateSchema } from '@portal/plugin-contacts/contract';
import { describe, expect, it } from 'vitest';
import { asQuery, asZod, bagOf, kindsOf, mutants, queryString, sampleRegex, UNKNOWN_KEY, validSample, verdict, type ZodLike } from './contract-samples';

const sampleOf = (schema: unknown, part: 'body' | 'query' = 'body') => {
  const s = validSample(schema, part);
  if (!s) throw new Error('no sample');
  return s.value;
};

describe('sampleRegex', () => {
  it.each([
    /^\d{5}(-\d{4})?$/,
    /^[A-Za-z0-9_.:-]{8,100}$/,
    /^[a-z][a-zA-Z0-9-]*:[\w.-]+$/,
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/,
    /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/,
    /^[^<>]+$/,
    /^(red|green)$/,
  ])('makes a string %s matches', (re) => {
    const s = sampleRegex(re);
    expect(s).not.toBeNull();
    expect(re.test(s as string)).toBe(true);
  });

  it('gives up (null) on what it cannot follow, never a string the pattern refuses', () => {
    expect(sampleRegex(/^(a)\1$/)).toBeNull();
  });
});

describe('bagOf', () => {
  it("reads the checks' bounds and formats (zod 4 keeps them in the definition's checks)", () => {
    const number = (asZod(memberNumberParamsSchema)._zod.def.shape as Record<string, ZodLike>).number as ZodLike;
    expect(bagOf(number)).toMatchObject({ minimum: 1, maximum: 30, int: false });
    expect(bagOf(asZod(createKeySchema)).patterns).toHaveLength(1);
    expect(bagOf(asZod(emailSchema))).toMatchObject({ patterns: [] });
    expect(kindsOf(asZod(pageIndexSchema))).toEqual(new Set(['int']));
    expect(kindsOf(asZod(idSchema))).toEqual(new Set(['number', 'string']));
  });
});

describe('validSample', () => {
  it.each([
    ['an id', idSchema],
    ['an e-mail', emailSchema],
    ['a ZIP', zipSchema],
    ['a day', isoDateSchema],
    ['a phone', phoneSchema],
    ['a create key', createKeySchema],
    ['a zod/mini enum', languageChoiceSchema],
    ['a zod/mini discriminated union', tokenGrantSchema],
    ['a zod/mini object with lists and nullables', identitySchema],
    ['a plugin contract', contactCreateSchema],
    ['a strict object', contactDuplicateSchema],
  ])('makes a sample %s takes', (_name, schema) => {
    expect(asZod(schema).safeParse(sampleOf(schema)).success).toBe(true);
  });

  it('makes a query sample of text, as a query string carries it', () => {
    const q = sampleOf(memberNumberParamsSchema, 'query') as Record<string, unknown>;
    expect(Object.values(q).every((v) => typeof v === 'string')).toBe(true);
    expect(asZod(memberNumberParamsSchema).safeParse(Object.fromEntries(new URLSearchParams(queryString(q)))).success).toBe(true);
  });

  it('prefers what a field name suggests (an e-mail for Email, a phone for Phone)', () => {
    const s = sampleOf(contactUpdateSchema) as Record<string, unknown>;
    expect(s.Email).toBe('someone@example.com');
    expect(s.Phone).toBe('5125550101');
  });
});

describe('mutants', () => {
  const sample = sampleOf(contactUpdateSchema) as Record<string, unknown>;
  const all = mutants(contactUpdateSchema, sample);

  it('breaks one field at a time, each kind where the field takes it', () => {
    const kinds = (field: string) => all.filter((m) => m.path.join('.') === field).map((m) => m.kind);
    expect(kinds('ContactID')).toEqual(['missing', 'null', 'wrong-type', 'long-string', 'huge-number', 'fraction']);
    expect(kinds('FirstName')).toEqual(['missing', 'null', 'wrong-type', 'long-string']);
    // Optional and nullable: neither left out nor null is wrong.
    expect(kinds('City')).toEqual(['wrong-type', 'long-string']);
    for (const m of all) {
      const changed = Object.keys({ ...sample, ...(m.value as object) }).filter(
        (k) => JSON.stringify((m.value as Record<string, unknown>)[k]) !== JSON.stringify(sample[k]),
      );
      expect(changed.length).toBeLessThanOrEqual(1);
    }
  });

  it('finds the contract refusing every one of them (the contacts contract has no gap)', () => {
    expect(all.filter((m) => verdict(contactUpdateSchema, m) === 'taken')).toEqual([]);
  });

  it('tells a dropped unknown key (a stripping object) from one handed on (a loose object) and one refused (strict)', () => {
    const unknown = all.find((m) => m.kind === 'unknown-key');
    expect(unknown?.path).toEqual([UNKNOWN_KEY]);
    if (!unknown) return;
    expect(verdict(contactUpdateSchema, unknown)).toBe('dropped');
    const strict = mutants(contactDuplicateSchema, sampleOf(contactDuplicateSchema)).find((m) => m.kind === 'unknown-key');
    if (strict) expect(verdict(contactDuplicateSchema, strict)).toBe('refused');
    // A schema that hands on whatever it gets, as a loose object or z.any() does.
    const loose: ZodLike = { _zod: asZod(contactUpdateSchema)._zod, safeParse: (value) => ({ success: true, data: value }) };
    expect(verdict(loose, unknown)).toBe('taken');
  });

  it('goes one level down, into an object and the first item of a list', () => {
    const s = sampleOf(identitySchema);
    const paths = mutants(identitySchema, s).map((m) => m.path.join('.'));
    expect(paths).toContain('Roles.0.Name');
    expect(paths).toContain('Roles.0');
    expect(mutants(identitySchema, s).find((m) => m.kind === 'long-list')?.path).toEqual(['Roles']);
  });

  it('mutates the option of a union that takes the sample', () => {
    const s = sampleOf(tokenGrantSchema) as Record<string, unknown>;
    const found = mutants(tokenGrantSchema, s);
    expect(found.map((m) => m.path[0])).toContain('grant_type');
    expect(found.every((m) => verdict(tokenGrantSchema, m) !== 'taken')).toBe(true);
  });

  it('keeps only what a query string can carry, as text', () => {
    const q = sampleOf(memberNumberParamsSchema, 'query');
    const found = mutants(memberNumberParamsSchema, q, 'query');
    expect(found.map((m) => m.kind)).not.toContain('null');
    expect(found.map((m) => m.kind)).not.toContain('wrong-type');
    for (const m of found) expect(asQuery(m.value)).toEqual(m.value);
  });
});
