import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { ComboBox, Header, Input, Label, ListBox, ListBoxItem, ListBoxSection, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useApi } from '../context';
import { useDebouncedValue } from '../kit/grid/useDebouncedValue';
import { visuallyHidden } from '../kit/visuallyHidden.css';
import { Extensions, type SearchResult } from '../plugin';
import { loadContribution, useContributions } from './extensions';
import * as css from './GlobalSearch.css';

/** Grid search debounce of spec 01 section 9. */
export const GLOBAL_SEARCH_DEBOUNCE_MS = 400;
/** Fewer characters than this search nothing (the search calls refuse them). */
export const GLOBAL_SEARCH_MIN = 2;

interface Group {
  id: string;
  label: string;
  namespace: string;
  items: SearchResult[];
  failed: boolean;
}

/**
 * The toolbar's search box: queries every search provider the user may use (Extensions.searchProviders), debounced,
 * without the loading bar; the results are grouped by provider in a react-aria combobox (arrow keys, Enter, Escape),
 * and choosing one opens its detail. Renders nothing when no provider is available to the user.
 */
const useProviders = () => useContributions(Extensions.searchProviders);

export function GlobalSearch() {
  const providers = useProviders();
  if (providers.length === 0) return null;
  return <SearchBox providers={providers} />;
}

function SearchBox({ providers }: { providers: ReturnType<typeof useProviders> }) {
  const { t, i18n } = useTranslation();
  const api = useApi();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), GLOBAL_SEARCH_DEBOUNCE_MS);
  const ready = q.length >= GLOBAL_SEARCH_MIN;
  const results = useQuery({
    queryKey: ['kernel', 'globalSearch', q, i18n.language, providers.map((p) => p.id)],
    enabled: ready,
    staleTime: 30_000,
    queryFn: ({ signal }) =>
      Promise.all(
        providers.map(async (c): Promise<Group> => {
          const provider = await loadContribution(c);
          // The provider's words are in its plugin's namespace: loaded before it translates with them.
          await i18n.loadNamespaces(c.pluginId).catch(() => {});
          try {
            return {
              id: c.id,
              label: provider.label,
              namespace: c.pluginId,
              items: await provider.search(api, q, signal, i18n.getFixedT(null, c.pluginId)),
              failed: false,
            };
          } catch {
            // One provider failing leaves the others' results in place.
            return { id: c.id, label: provider.label, namespace: c.pluginId, items: [], failed: true };
          }
        }),
      ),
  });
  const groups = useMemo(() => (ready && text.trim().length >= GLOBAL_SEARCH_MIN ? (results.data ?? []) : []), [ready, text, results.data]);
  const byKey = useMemo(() => new Map(groups.flatMap((g) => g.items.map((r) => [`${g.id}:${r.id}`, r] as const))), [groups]);
  const shown = groups.filter((g) => g.items.length > 0);
  const status = !ready
    ? t('search.hint', { count: GLOBAL_SEARCH_MIN })
    : results.isFetching
      ? t('search.searching')
      : groups.some((g) => g.failed) && shown.length === 0
        ? t('search.failed')
        : t('search.empty');
  // What the search found, said once it is in (react-aria reads a list's count out only on Apple's screen readers): the
  // number of results, nothing found, or the failure; nothing while the user is still typing or it is under way.
  const found = shown.reduce((n, g) => n + g.items.length, 0);
  const announcement = !ready || text.trim().length < GLOBAL_SEARCH_MIN || results.isFetching ? '' : found > 0 ? t('search.results', { count: found }) : status;

  return (
    <ComboBox
      className={css.box}
      inputValue={text}
      onInputChange={setText}
      selectedKey={null}
      defaultFilter={() => true}
      menuTrigger="input"
      allowsEmptyCollection
      onSelectionChange={(key) => {
        const hit = key === null ? undefined : byKey.get(String(key) as `${string}:${string}`);
        if (!hit) return;
        navigate(hit.href);
        // After react-aria has written the chosen item's text into the box: start the next search empty.
        setTimeout(() => setText(''), 0);
      }}
      data-testid="global-search"
    >
      <Label className={visuallyHidden}>{t('search.label')}</Label>
      <Input className={css.input} placeholder={t('search.placeholder')} />

      <Popover className={css.popover} placement="bottom end">
        {/* In the list's box: while it is open, react-aria hides everything else from screen readers. It opens as the
            search starts, with nothing to say until the answer is in. */}
        <span role="status" className={visuallyHidden} data-testid="global-search-status">
          {announcement}
        </span>
        <ListBox className={css.listBox} renderEmptyState={() => <div className={css.status}>{status}</div>}>
          {shown.map((g) => (
            <ListBoxSection key={g.id} id={g.id}>
              <Header className={css.header}>{t(g.label, { ns: g.namespace })}</Header>
              {g.items.map((r) => (
                <ListBoxItem key={`${g.id}:${r.id}`} id={`${g.id}:${r.id}`} textValue={r.title} className={css.item}>
                  <span>{r.title}</span>
                  {r.detail ? <span className={css.detail}>{r.detail}</span> : null}
                </ListBoxItem>
              ))}
            </ListBoxSection>
          ))}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
