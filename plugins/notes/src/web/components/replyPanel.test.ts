import { describe, expect, it } from 'vitest';
import { replyPanel } from './replyPanel';

describe('the reply form while the note is edited', () => {
  it('is hidden, not drawn anew: pressing Edit and closing the edit keep the reply typed so far', () => {
    expect(replyPanel(true, 0).hidden).toBe(true);
    expect(replyPanel(false, 0).hidden).toBe(false);
    expect(replyPanel(true, 0).formKey).toBe(replyPanel(false, 0).formKey);
  });

  it('starts empty again once a reply was sent, and only then', () => {
    expect(replyPanel(false, 1).formKey).not.toBe(replyPanel(false, 0).formKey);
    expect(replyPanel(false, 1).formKey).toBe(replyPanel(false, 1).formKey);
  });
});
