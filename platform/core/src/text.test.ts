import { describe, expect, it } from 'vitest';
import { isSpecText, msg, schemaText, schemaTextOf, specText, Text } from './text';

describe('schemaText', () => {
  it('gives zod the English and remembers the template and values behind it', () => {
    const english = schemaText('must be at most {{max}} characters', { max: 40 });
    expect(english).toBe('must be at most 40 characters');
    const text = schemaTextOf(english);
    expect(text).toBeInstanceOf(Text);
    expect(text?.template).toBe('must be at most {{max}} characters');
    expect(text?.params).toEqual({ max: 40 });
  });

  it('knows nothing of a message it did not make', () => {
    expect(schemaTextOf('must be at most 41 characters')).toBeUndefined();
  });

  it('keeps a value that is itself a message', () => {
    const english = schemaText('is not a known {{what}}', { what: msg('contact kind') });
    expect(english).toBe('is not a known contact kind');
    expect(schemaTextOf(english)?.params.what).toBeInstanceOf(Text);
  });
});

describe('specText', () => {
  it('marks a spec sentence to be said without a field before it, and remembers its template as schemaText does', () => {
    const english = specText('Minimum {{min}} characters are required', { min: 3 });
    expect(english).toBe('Minimum 3 characters are required');
    expect(isSpecText(english)).toBe(true);
    expect(schemaTextOf(english)?.params).toEqual({ min: 3 });
  });

  it('leaves a schemaText message, and one it did not make, with their field', () => {
    expect(isSpecText(schemaText('must be at most {{max}} characters', { max: 7 }))).toBe(false);
    expect(isSpecText('Minimum 4 characters are required')).toBe(false);
  });
});
