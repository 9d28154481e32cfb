import { describe, expect, it } from 'vitest';
import { pluginRandom, seedFromText } from './random';

describe('per-plugin seed streams', () => {
  it('gives each plugin the same stream on every run', () => {
    const a = pluginRandom('claims');
    const b = pluginRandom('claims');
    expect([a(), a(), a()]).toEqual([b(), b(), b()]);
  });
  it('gives different plugins different streams, so adding one leaves the others untouched', () => {
    expect(seedFromText('seed:claims')).not.toBe(seedFromText('seed:notes'));
    const claims = pluginRandom('claims');
    const notes = pluginRandom('notes');
    expect(claims()).not.toBe(notes());
  });
});
