import { describe, expect, it } from 'vitest';
import { focusIsLost, shouldFocusHeading } from './pageFocus';

const node = (name: string, children: string[] = []) => ({
  name,
  contains: (other: unknown) => (other as { name: string }).name === name || children.includes((other as { name: string }).name),
});

describe("a new page's focus", () => {
  const main = node('main', ['field', 'notice']);
  it("goes to the page's heading when focus is on the body or in the toolbar (the followed link)", () => {
    expect(shouldFocusHeading(node('body'), main)).toBe(true);
    expect(shouldFocusHeading(node('nav-link'), main)).toBe(true);
    expect(shouldFocusHeading(null, main)).toBe(true);
  });
  it('stays where the page put it inside itself', () => {
    expect(shouldFocusHeading(node('field'), main)).toBe(false);
    expect(shouldFocusHeading(node('notice'), main)).toBe(false);
  });
});

describe('focusIsLost: whether the shell may move focus after the control that had it went away', () => {
  it('is lost on the body or nowhere, not on any other element', () => {
    const body = { tag: 'body' };
    expect(focusIsLost(body, body)).toBe(true);
    expect(focusIsLost(null, body)).toBe(true);
    expect(focusIsLost({ tag: 'input' }, body)).toBe(false);
  });
});
