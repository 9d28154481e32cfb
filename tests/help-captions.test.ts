import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import en from '../plugins/help/src/web/i18n/en.json';
import es from '../plugins/help/src/web/i18n/es.json';

/** The help videos' captions (scripts/help-video writes them from the guide's steps) against the catalogues today. */
describe('the recorded captions', () => {
  const catalogues = { en, es };
  it.each(['finance', 'assist', 'card', 'quote', 'staff'].flatMap((brand) => (['en', 'es'] as const).map((language) => [brand, language] as const)))(
    '%s, %s: one cue per written step of the guide, in order, in the same words (record again after changing the steps)',
    (brand, language) => {
      const vtt = readFileSync(new URL(`../plugins/help/src/web/videos/reset-password.${brand}.${language}.vtt`, import.meta.url), 'utf8');
      const cues = vtt
        .split(/\n\n+/)
        .slice(1)
        .map((block) => block.split('\n').slice(2).join('\n').trim());
      expect(vtt.startsWith('WEBVTT\n')).toBe(true);
      expect(cues).toEqual(catalogues[language].dialogs['reset-password'].steps);
    },
  );
});
