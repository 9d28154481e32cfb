import type { Migration } from '@portal/core';
import { priceLines } from './drugs';
import { searchText } from './search';

const lit = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The distinct three-character pieces of a text's words, as migration 0001 kept them (migration 0003 dropped them). */
export function trigramsOf(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const w of words) for (let i = 0; i + 3 <= w.length; i++) out.add(w.slice(i, i + 3));
  return [...out];
}

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
  {
    id: '0002_price_list_order',
    sql: `
-- Keys a search ranks and orders its lines by (see search.ts), derived from the description, which reads
-- '<drug> <strength> <form>[, bottle of <count>]' ('Metformin 500 mg tablet, bottle of 1000'). Generated, so they stay
-- right on any line added later. Byte order ("C") for the text keys: they are lower case, and a sort in it is cheaper.
ALTER TABLE price_list
  -- The drug, strength and form, lower case, '/', '(', ')' and ',' as spaces, one space between words and one at
  -- each end: a search word matches a whole word of it as LIKE '% word %'. The package size is not part of it.
  ADD COLUMN match_text text COLLATE "C" GENERATED ALWAYS AS (
    ' ' || btrim(regexp_replace(translate(regexp_replace(lower(description), ', [a-z ]*[0-9]+$', ''), '/(),', '    '), ' +', ' ', 'g')) || ' '
  ) STORED,
  -- The drug's name: the words before the first number standing alone or in per cent ('Vitamin D2 (Ergocalciferol)').
  ADD COLUMN drug_name text COLLATE "C" GENERATED ALWAYS AS (regexp_replace(lower(description), ' [0-9][0-9.]*[ %].*$', '')) STORED,
  -- The strength's first number (0.25 in '0.25 mg/0.5 mL', 2.5 in '2.5% cream'), so 500 mg comes before 1000 mg.
  ADD COLUMN strength_value numeric GENERATED ALWAYS AS (substring(description from ' ([0-9]+(?:[.][0-9]+)?)[ %]')::numeric) STORED,
  -- The package size ('bottle of 100' is 100); none for a form sold by the unit (a pen, a vial by the mL).
  ADD COLUMN pack_size integer GENERATED ALWAYS AS (substring(lower(description) from ', [a-z ]*([0-9]+)$')::integer) STORED;
`,
  },
  {
    // The lines' own trigram arrays (0001) were there because PGlite loaded no pg_trgm: it loads it now (kernel
    // migration 0011), so pg_trgm's index over search_text takes their place, and a search's LIKE uses it directly.
    id: '0003_price_list_trgm',
    sql: `
CREATE INDEX price_list_search_trgm_idx ON price_list USING gin (search_text gin_trgm_ops);
DROP INDEX price_list_trigrams_idx;
ALTER TABLE price_list DROP COLUMN trigrams;
`,
  },
];
