import { describe, expect, it } from 'vitest';
import type { Vendor } from '../../contract';
import { vendorSearcher } from './vendorSearch';

const payee = (PayeeID: number, PayeeName: string): Vendor => ({ PayeeID, PayeeName, Kind: 'Pharmacy', City: null, State: null });
const WALGREENS = payee(19, 'Walgreens Pharmacy #4127');

/** A searcher whose searches answer when the test says so; `shown` is the last list the field offers. */
function harness() {
  const asked: string[] = [];
  const answers: ((v: Vendor[]) => void)[] = [];
  let shown: Vendor[] = [];
  const s = vendorSearcher(
    (text) => {
      asked.push(text);
      return new Promise<Vendor[]>((resolve) => answers.push(resolve));
    },
    (v) => {
      shown = v;
    },
  );
  const answer = async (v: Vendor[]) => {
    answers.shift()?.(v);
    await new Promise((r) => setTimeout(r, 0));
  };
  return { s, asked, answer, shown: () => shown };
}

describe('the payee search box', () => {
  it('searches from 3 characters and offers what the search found', async () => {
    const h = harness();
    h.s.input('wa');
    expect(h.asked).toEqual([]);
    h.s.input('walg');
    expect(h.asked).toEqual(['walg']);
    await h.answer([WALGREENS]);
    expect(h.shown()).toEqual([WALGREENS]);
  });

  it('clears the payees offered when the text is cleared or shortened under 3 characters', async () => {
    const h = harness();
    h.s.input('walg');
    await h.answer([WALGREENS]);
    expect(h.shown()).toEqual([WALGREENS]);
    h.s.input('wa');
    expect(h.shown()).toEqual([]);
    h.s.input('walg');
    await h.answer([WALGREENS]);
    h.s.input('');
    expect(h.shown()).toEqual([]);
    expect(h.asked).toEqual(['walg', 'walg']);
  });

  it('does not show an answer that comes back after the text was cleared', async () => {
    const h = harness();
    h.s.input('walg');
    h.s.input('');
    expect(h.shown()).toEqual([]);
    await h.answer([WALGREENS]);
    expect(h.shown()).toEqual([]);
    expect(h.asked).toEqual(['walg']);
  });

  it('sends no input while a search runs, then searches the newest text once it returns', async () => {
    const h = harness();
    h.s.input('walg');
    h.s.input('walgr');
    h.s.input('walgre ');
    expect(h.asked).toEqual(['walg']);
    await h.answer([WALGREENS, payee(20, 'Walmart Pharmacy #10-2395')]);
    expect(h.asked).toEqual(['walg', 'walgre']);
    await h.answer([WALGREENS]);
    expect(h.shown()).toEqual([WALGREENS]);
  });

  it('closes the offer when a payee is picked, and an answer still on its way stays closed', async () => {
    const h = harness();
    h.s.input('walg');
    await h.answer([WALGREENS]);
    h.s.input('walgr');
    h.s.picked();
    expect(h.shown()).toEqual([]);
    await h.answer([WALGREENS]);
    expect(h.shown()).toEqual([]);
  });

  it('offers nothing when the search fails, and still searches the newest text', async () => {
    const shown: Vendor[][] = [];
    const asked: string[] = [];
    const s = vendorSearcher(
      (text) => {
        asked.push(text);
        return asked.length === 1 ? Promise.reject(new Error('offline')) : Promise.resolve([WALGREENS]);
      },
      (v) => shown.push(v),
    );
    s.input('walg');
    await new Promise((r) => setTimeout(r, 0));
    expect(shown).toEqual([[]]);
    s.input('walgr');
    await new Promise((r) => setTimeout(r, 0));
    expect(asked).toEqual(['walg', 'walgr']);
    expect(shown.at(-1)).toEqual([WALGREENS]);
  });
});
