import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { CardProfile } from '../../contract';
import { CardTable } from './CardTable';

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));
vi.mock('@portal/web/kit', () => ({
  TableScroll: ({ children }: { children: unknown }) => <div>{children as string}</div>,
  visuallyHidden: 'visuallyHidden',
}));
// The styles are vanilla-extract's, compiled by the build: here each class is its own name.
vi.mock('./billing.css', () => Object.fromEntries(['table', 'cell', 'badge', 'row'].map((n) => [n, n])));

const card = (over: Partial<CardProfile>): CardProfile =>
  ({ ProfileId: 1, CardNumber: 'XXXX1111', CardType: 'Visa', Expiration: '12/2030', IsDefault: false, IsSubscription: false, ...over }) as CardProfile;

const table = (cards: CardProfile[], testIds = false) =>
  renderToStaticMarkup(<CardTable cards={cards} testIds={testIds} actions={(c) => <button type="button">{`act ${c.ProfileId}`}</button>} />);

describe("the cards table (the member's list and support's)", () => {
  it('heads each column for its cells (scope col) under a caption, on both screens', () => {
    const html = table([card({})]);
    expect(html.match(/<th /g)).toHaveLength(4);
    expect(html.match(/<th scope="col"/g)).toHaveLength(4);
    expect(html).toContain('<caption class="visuallyHidden">cards.heading</caption>');
  });

  it("keeps the Default and Subscription marks words of their own after the number, and each row's actions in its row", () => {
    const html = table([card({ IsDefault: true, IsSubscription: true }), card({ ProfileId: 2, CardNumber: 'XXXX0015' })]);
    const text = html.replace(/<[^>]+>/g, '|');
    expect(text).toContain('XXXX1111 |cards.default| |cards.subscription|');
    expect(html).toContain('act 1');
    expect(html).toContain('act 2');
    expect(html.indexOf('act 1')).toBeLessThan(html.indexOf('XXXX0015'));
  });

  it("names the list and its rows for the member's journeys only", () => {
    expect(table([card({})], true)).toContain('data-testid="card-list"');
    expect(table([card({})], true)).toContain('data-testid="card-row"');
    expect(table([card({})])).not.toContain('data-testid');
  });
});
