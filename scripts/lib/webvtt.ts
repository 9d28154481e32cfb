/** One caption: its text from the moment `at` (seconds into the video) to the next caption or the end. */
export interface Cue {
  at: number;
  text: string;
}

const stamp = (seconds: number) => {
  const ms = Math.round(seconds * 1000);
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(ms % 1000).padStart(3, '0')}`;
};

/** The captions as WebVTT: each cue runs until the next one starts, the last until the end of the video. */
export function webVtt(cues: readonly Cue[], length: number): string {
  const blocks = cues.map((c, i) => `${i + 1}\n${stamp(c.at)} --> ${stamp(cues[i + 1]?.at ?? length)}\n${c.text}`);
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}
