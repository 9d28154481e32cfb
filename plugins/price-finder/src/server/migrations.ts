import type { Migration } from '@portal/core';
import { priceLines } from './drugs';
import { searchText, trigramsOf } from './search';

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

export const migrations: Migration[] = [
  {
    id: '0001_price_list',
    sql: `
-- The drug price list: one line per drug, strength, form and package; prices per unit in integer cents.
CREATE TABLE price_list (
  code text PRIMARY KEY,
  description text NOT NULL,
  our_cents integer NOT NULL CHECK (our_cents >= 0),
  awp_cents integer NOT NULL CHECK (awp_cents >= 0),
  search_text text NOT NULL,
  -- Every distinct three-character piece of search_text.
  trigrams text[] NOT NULL
);

INSERT INTO price_list (code, description, our_cents, awp_cents, search_text, trigrams) VALUES
${priceLines()
  .map((l) => {
    const text = searchText(l.description, l.code);
    return `(${lit(l.code)}, ${lit(l.description)}, ${l.ourCents}, ${l.awpCents}, ${lit(text)}, ARRAY[${trigramsOf([text]).map(lit).join(',')}])`;
  })
  .join(',\n')};

-- The trigram index: PGlite loads no pg_trgm, so it is a GIN index over each line's array of trigrams (a built-in
-- operator class). A search asks for the lines holding every trigram of its words (@>), then checks the words.
CREATE INDEX price_list_trigrams_idx ON price_list USING gin (trigrams);
`,
  },
];
