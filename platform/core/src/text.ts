import type { Language } from './format/locale';

/** Values a message's placeholders take; a value that is itself a message is translated with it. */
export type TextParams = Readonly<Record<string, string | number | Text>>;

/**
 * A message for the user with values in it: `msg('Please try again in {{minutes}} minute(s).', { minutes })`. The
 * template is the English text (the spec's wording) and the key of its translations; the values are put in after
 * translating, so a translation can move them. `String(text)` is the English text.
 */
export class Text {
  constructor(
    readonly template: string,
    readonly params: TextParams = {},
  ) {}

  toString(): string {
    return interpolate(this.template, this.params);
  }
}

export const msg = (template: string, params: TextParams = {}) => new Text(template, params);

/** What the server says to a user: a fixed English text, or a template with values. Translated on its way out. */
export type Message = string | Text;

/** A plugin's translations of its messages: English text (a template's, with its `{{name}}` placeholders) to the language's. */
export type Catalogue = Readonly<Record<string, string>>;

/** The languages besides English a plugin translates its messages into (English is the messages themselves). */
export type Catalogues = Readonly<Record<Exclude<Language, 'en'>, Catalogue>>;

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

/** The template with its values in; a placeholder without a value stays as written, so a mistake shows. */
export function interpolate(template: string, params: TextParams): string {
  return template.includes('{{') ? template.replace(PLACEHOLDER, (all, name: string) => (name in params ? String(params[name]) : all)) : template;
}

/** The placeholders of a template, in order of first appearance. */
export function placeholders(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] as string))];
}

const schemaTexts = new Map<string, Text>();
/** Enough for every contract's messages; a schema built per request cannot grow it without bound. */
const MAX_SCHEMA_TEXTS = 10_000;

/**
 * A contract's validation message with values (zod takes a string): `.max(n, schemaText('must be at most {{max}}
 * characters', { max: n }))`. Returns the English and remembers its template, so the server words a refusal in the
 * user's language from the template's translation (`schemaTextOf`).
 */
export function schemaText(template: string, params: TextParams = {}): string {
  const text = new Text(template, params);
  const english = text.toString();
  if (schemaTexts.size < MAX_SCHEMA_TEXTS) schemaTexts.set(english, text);
  return english;
}

/** The template and values behind a validation message made by `schemaText`. */
export const schemaTextOf = (english: string): Text | undefined => schemaTexts.get(english);

const specTexts = new Set<string>();

/**
 * A contract's validation message that is one of the specification's own sentences ('Minimum 3 characters are
 * required', 'At list one coupon should be specified to perform action'): as `schemaText`, and the server says it word
 * for word, without the refused field's path before it (`isSpecText`), as the browser shows it.
 */
export function specText(template: string, params: TextParams = {}): string {
  const english = schemaText(template, params);
  if (specTexts.size < MAX_SCHEMA_TEXTS) specTexts.add(english);
  return english;
}

/** Whether a validation message was made by `specText`: a whole sentence the server gives without a field's path. */
export const isSpecText = (english: string): boolean => specTexts.has(english);
