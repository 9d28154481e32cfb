import { describe, expect, it } from 'vitest';
import { resetPasswordVideo } from './videos';

const files = {
  '../videos/reset-password.card.en.webm': '/assets/card-en.webm',
  '../videos/reset-password.card.en.vtt': '/assets/card-en.vtt',
  '../videos/reset-password.card.es.webm': '/assets/card-es.webm',
  '../videos/reset-password.card.es.vtt': '/assets/card-es.vtt',
  '../videos/reset-password.quote.en.webm': '/assets/quote-en.webm',
};

describe('resetPasswordVideo', () => {
  it("picks the brand's recording in the user's language, with its captions", () => {
    expect(resetPasswordVideo('card', 'es', files)).toEqual({ video: '/assets/card-es.webm', captions: '/assets/card-es.vtt', language: 'es' });
  });
  it('falls back to English for a language with no recording', () => {
    expect(resetPasswordVideo('card', 'fr', files)).toEqual({ video: '/assets/card-en.webm', captions: '/assets/card-en.vtt', language: 'en' });
  });
  it('offers no video without captions, nor for a brand with no recording', () => {
    expect(resetPasswordVideo('quote', 'en', files)).toBeNull();
    expect(resetPasswordVideo('staff', 'en', files)).toBeNull();
  });
  it('finds a recording of every brand in both languages among the committed videos', () => {
    // Every brand's files, as no single brand's build has them (a build holds its own brand's alone).
    const committed = import.meta.glob<string>('../videos/reset-password.*.{webm,vtt}', { query: '?url&no-inline', import: 'default', eager: true });
    for (const brand of ['finance', 'assist', 'card', 'quote', 'staff'])
      for (const language of ['en', 'es']) expect(resetPasswordVideo(brand, language, committed)?.language, `${brand} ${language}`).toBe(language);
  });
});
