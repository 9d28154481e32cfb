import { describe, expect, it } from 'vitest';
import { afterEditCloses, firstField, focusFreshForm } from './formFocus';

describe('focus follows the bill form in and out, never left on the page’s body', () => {
  it('an opened form focuses its first field: the member’s id where it is asked for, else the claim number', () => {
    expect(firstField(true)).toBe('MemberID');
    expect(firstField(false)).toBe('ClaimNumber');
  });
  it('a closed edit (saved or cancelled) returns focus to Edit; to the bill’s details once it may no longer be edited', () => {
    expect(afterEditCloses(true)).toBe('edit');
    expect(afterEditCloses(false)).toBe('view');
  });
  it('a new bill’s form takes focus only when it is a fresh one after a bill was created in place', () => {
    expect(focusFreshForm(0)).toBe(false);
    expect(focusFreshForm(1)).toBe(true);
    expect(focusFreshForm(3)).toBe(true);
  });
});
