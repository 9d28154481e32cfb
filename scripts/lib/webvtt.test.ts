import { describe, expect, it } from 'vitest';
import { webVtt } from './webvtt';

describe('webVtt', () => {
  it('runs each caption until the next one starts and the last until the end of the video', () => {
    expect(
      webVtt(
        [
          { at: 0, text: 'One' },
          { at: 61.5, text: 'Two' },
        ],
        3725.25,
      ),
    ).toBe('WEBVTT\n\n1\n00:00:00.000 --> 00:01:01.500\nOne\n\n2\n00:01:01.500 --> 01:02:05.250\nTwo\n');
  });
});
