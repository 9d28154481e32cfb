import { VENDOR_SEARCH_MIN, type Vendor } from '../../contract';

/** What the payee search box does with each text typed: VendorSearch keeps one for its lifetime. */
export interface VendorSearcher {
  /** The field's new text: searched (or, while a search runs, once it returns); under 3 characters clears the offer. */
  input(text: string): void;
  /** A payee was chosen: the offer closes, and an answer still on its way is not shown. */
  picked(): void;
}

/**
 * The payee search's rules (spec 02 section 5): a search starts at VENDOR_SEARCH_MIN characters, and input while one
 * runs is not sent; the newest text is searched once it returns. Text under the minimum (a field cleared, or
 * shortened to "wa") clears the payees offered at once, so a payee found for an earlier text is never picked for an
 * empty field. An answer is shown only while the field still holds the text it was for.
 */
export function vendorSearcher(find: (text: string) => Promise<Vendor[]>, show: (payees: Vendor[]) => void): VendorSearcher {
  let running = false;
  /** The field's text; null once a payee is picked (nothing to show until the next input). */
  let latest: string | null = null;

  const run = async (text: string) => {
    running = true;
    let found: Vendor[] = [];
    try {
      found = await find(text.trim());
    } catch {
      found = [];
    }
    running = false;
    if (latest === text) show(found);
    else if (latest !== null) input(latest);
  };

  function input(text: string) {
    latest = text;
    if (text.trim().length < VENDOR_SEARCH_MIN) {
      show([]);
      return;
    }
    if (!running) void run(text);
  }

  return {
    input,
    picked() {
      latest = null;
      show([]);
    },
  };
}
