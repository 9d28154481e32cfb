import type { SearchProvider } from '@portal/web';
import { ClaimsApi, GLOBAL_SEARCH_LIMIT } from '../../contract';
import { money } from './format';
import { shownPayee } from './payee';

/** The global search's bills (the finance role): at most 5, each opening the bill's detail. */
const claimsSearchProvider: SearchProvider = {
  label: 'claims:search.group',
  search: async (api, text, signal, t) => {
    const claims = await api.call(ClaimsApi.globalSearch, { query: { q: text, s: GLOBAL_SEARCH_LIMIT } }, { signal, skipLoadingBar: true, notify: false });
    return claims.map((c) => ({
      id: String(c.ClaimID),
      title: `${c.ClaimNumber} · ${shownPayee(t, c)}`,
      detail: `${money(c.BilledAmount)} · ${c.ReceivedDate}`,
      href: `/claims/${c.ClaimID}`,
    }));
  },
};
export default claimsSearchProvider;
