import { failureWords, layoutCss, showToast, useApi } from '@portal/web';
import { Button, LoadFailed, Message } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { BANK_CONSTANTS, BankingPaths } from '../../access';
import { BankingApi, type BankProvider } from '../../contract';
import { AddBankDialog } from '../components/AddBankDialog';
import * as css from '../components/bank.css';
import { HiddenLinkingFrame } from '../components/HiddenLinkingFrame';
import { markRecentAdd } from '../components/recentAdd';

/** /payment/bank/add: the eight popular banks, a search from 3 characters, and the add dialog. */
export default function AddBankPage() {
  const { t } = useTranslation('banking');
  const api = useApi();
  const [text, setText] = useState('');
  const [query, setQuery] = useState<string | null>(null);
  const [open, setOpen] = useState<BankProvider | null>(null);
  const [added, setAdded] = useState<number[]>([]);
  const popular = useQuery({ queryKey: ['banking', 'popular'], queryFn: () => api.call(BankingApi.popular, {}, { notify: false }) });
  const results = useQuery({
    queryKey: ['banking', 'search', query],
    // A search look-up skips the loading bar (spec 02 section 7).
    queryFn: () => api.call(BankingApi.search, { body: { Query: query ?? '' } }, { skipLoadingBar: true, notify: false }),
    enabled: query !== null,
  });

  const search = (e: FormEvent) => {
    e.preventDefault();
    const q = text.trim();
    if (q.length < BANK_CONSTANTS.searchMinLength) {
      showToast({ kind: 'warning', message: t('messages.minSearch') });
      return;
    }
    // The same search after a failure asks again: its query's key does not change, so setting it would not.
    if (q === query && results.isError) void results.refetch();
    else setQuery(q);
  };

  // A failed search asked again shows as loading until it answers (its status stays 'error' meanwhile).
  const searching = results.isPending || (results.isError && results.isFetching);

  const list = (items: readonly BankProvider[], testId: string) => (
    <ul className={css.list} data-testid={testId}>
      {items.map((p) => (
        <li key={p.ProviderId}>
          <Button onPress={() => setOpen(p)} aria-label={t('add.open', { name: p.Name })}>
            {p.Name}
          </Button>
          {added.includes(p.ProviderId) && <span className={css.badge}>{t('add.addedBadge')}</span>}
        </li>
      ))}
    </ul>
  );

  return (
    <div className={layoutCss.card}>
      <div className={css.stack}>
        <p>
          <Link to={BankingPaths.banks}>{t('add.back')}</Link>
        </p>
        <form className={css.row} onSubmit={search} aria-label={t('add.search')}>
          <label className={css.field}>
            {t('add.search')}
            <input className={css.input} type="search" value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <Button type="submit">{t('add.searchButton')}</Button>
        </form>
        {query !== null && (
          <section className={css.stack} aria-labelledby="bank-results">
            <h2 id="bank-results" className={css.heading}>
              {t('add.results')}
            </h2>
            {searching && <p aria-busy="true">{t('loading')}</p>}
            {results.isError && !searching && <Message kind="error">{failureWords(results.error, t('messages.serverError'))}</Message>}
            {results.data && results.data.length === 0 && <p>{t('add.noResults')}</p>}
            {results.data && list(results.data, 'bank-results')}
          </section>
        )}
        <section className={css.stack} aria-labelledby="bank-popular">
          <h2 id="bank-popular" className={css.heading}>
            {t('add.popular')}
          </h2>
          {(popular.isPending || (popular.isError && popular.isFetching)) && <p aria-busy="true">{t('loading')}</p>}
          {popular.isError && !popular.isFetching && <LoadFailed message={t('add.popularError')} onRetry={() => void popular.refetch()} />}
          {popular.data && popular.data.length === 0 && <p>{t('add.noPopular')}</p>}
          {popular.data && list(popular.data, 'bank-popular')}
        </section>
      </div>
      <HiddenLinkingFrame />
      {open && (
        <AddBankDialog
          provider={open}
          onClose={() => setOpen(null)}
          onAdded={(p) => {
            markRecentAdd();
            setAdded((a) => [...a, p.ProviderId]);
          }}
        />
      )}
    </div>
  );
}
