import { describe, expect, it } from 'vitest';
import { memberChoice } from './memberChoice';

describe("the act-for box's text", () => {
  it('reads digits as a member ID and a number starting with a letter as a member number', () => {
    expect(memberChoice('14')).toEqual({ kind: 'id', id: 14 });
    expect(memberChoice('D30661806')).toEqual({ kind: 'number', number: 'D30661806' });
    expect(memberChoice('d30661806')).toEqual({ kind: 'number', number: 'd30661806' });
  });

  it('refuses what is neither: nothing, zero, signs, spaces inside, too long', () => {
    for (const typed of ['', '0', '-3', '1.5', 'D3 066', '$14', `D${'1'.repeat(30)}`, '1234567890']) expect(memberChoice(typed), typed).toBeNull();
  });
});
