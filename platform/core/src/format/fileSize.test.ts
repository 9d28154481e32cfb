import { describe, expect, it } from 'vitest';
import { fileSize } from './fileSize';

describe('a file’s size', () => {
  it('reads as bytes, whole KB, or MB with one decimal, grouped as the locale does', () => {
    expect(fileSize(512, 'en-US')).toEqual({ unit: 'B', value: '512' });
    expect(fileSize(20_480, 'en-US')).toEqual({ unit: 'KB', value: '20' });
    expect(fileSize(9 * 1024 * 1024, 'en-US')).toEqual({ unit: 'MB', value: '9.0' });
    expect(fileSize(1234.56 * 1024 * 1024, 'en-US')).toEqual({ unit: 'MB', value: '1,234.6' });
  });
});
