/**
 * The help videos (scripts/help-video records them): the reset-password journey on each brand's own site, in English
 * and Spanish, each with its captions. Built as files of their own (never inlined), so a page fetches a video only
 * when its dialog plays it; each brand's build holds its own recordings alone (%BRAND%: apps/web/build.ts).
 */
const files = import.meta.glob<string>('../videos/reset-password.%BRAND%.*.{webm,vtt}', { query: '?url&no-inline', import: 'default', eager: true });

export interface HelpVideo {
  video: string;
  captions: string;
  /** The language the video's pages and captions are in. */
  language: string;
}

/**
 * The reset-password video of this brand in the user's language, else in English; a site with no recording of its
 * own (none so far) gets none, and the dialog shows the written steps alone.
 */
export function resetPasswordVideo(brand: string, language: string, from: Record<string, string> = files): HelpVideo | null {
  for (const lang of [language, 'en']) {
    const video = from[`../videos/reset-password.${brand}.${lang}.webm`];
    const captions = from[`../videos/reset-password.${brand}.${lang}.vtt`];
    if (video && captions) return { video, captions, language: lang };
  }
  return null;
}
