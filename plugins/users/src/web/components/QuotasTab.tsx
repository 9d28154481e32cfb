import { useApi, useSwapFocus } from '@portal/web';
import { Button, Message, TableScroll, Toolbar, visuallyHidden } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Input, Label, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { type Quota, type User, UsersApi } from '../../contract';
import { MAX_CASES } from '../../rules';
import { type DraftRow, firstInvalidField, invalidFields, problemCount, type QuotaField, quotaErrorId, quotaProblem } from './quota-input';
import { StaleWarning } from './StaleWarning';
import { isStaleSave, type TabDraftHandle } from './tabDrafts';
import { localeOf, refusalNote, useChangeRefusals } from './useCaller';
import * as css from './users.css';

const rowsOf = (quotas: readonly Quota[]): DraftRow[] =>
  quotas.map((q) => ({ MonthNumber: q.MonthNumber, min: q.MinimumCases?.toString() ?? '', max: q.MaximumCases?.toString() ?? '' }));

/**
 * Monthly quotas: twelve months of a minimum and maximum number of cases; view, then edit with cancel restoring.
 * The edit lives on the user page (`draft`), so switching tabs keeps it; it saves against the Version it was opened with.
 * Save with problems sends nothing: an alert says how many months cannot be saved, each invalid input is marked
 * (aria-invalid) and described by its month's error, and focus moves to the first of them.
 */
export function QuotasTab({ user, draft: store }: { user: User; draft: TabDraftHandle<'quotas'> }) {
  const userId = user.Id;
  const { t, i18n } = useTranslation('users');
  const api = useApi();
  const queryClient = useQueryClient();
  const refused = useChangeRefusals(user).quotas;
  const quotas = useQuery({ queryKey: ['users', userId, 'quotas'], queryFn: () => api.call(UsersApi.quotaGet, { params: { userId } }, { notify: false }) });
  const draft = store.draft?.value ?? null;
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  // The inputs by month and field, and the one to focus once a refused Save has rendered its errors.
  const inputs = useRef(new Map<string, HTMLInputElement>());
  const [focusTarget, setFocusTarget] = useState<{ MonthNumber: number; field: QuotaField } | null>(null);
  useEffect(() => {
    if (focusTarget) inputs.current.get(`${focusTarget.MonthNumber}-${focusTarget.field}`)?.focus();
  }, [focusTarget]);
  // Edit puts focus on the first input (January's minimum); a save that went through, or Cancel, back on Edit. A refused
  // save stays in the table (focus on its first invalid input, above). A tab opened again with its edit kept moves
  // nothing (only a wish made by pressing moves focus).
  const focus = useSwapFocus(draft ? 'form' : 'view', { ready: !quotas.isPending });

  if (quotas.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (quotas.isError) return <Message kind="error">{t('detail.loadError')}</Message>;
  const monthName = (m: number) =>
    new Intl.DateTimeFormat(localeOf(i18n.language), { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, m - 1, 1)));
  const show = (n: number | null) => (n === null ? t('none') : String(n));
  const edit = () => {
    setSubmitted(false);
    focus.want('form');
    store.start(rowsOf(quotas.data.Models), quotas.data.Version);
  };
  const save = async () => {
    if (!draft || !store.draft) return;
    setSubmitted(true);
    const invalid = firstInvalidField(draft);
    if (invalid) {
      // A new object each time: pressing Save again moves focus back to the first invalid input.
      setFocusTarget({ ...invalid });
      return;
    }
    const pressed = document.activeElement;
    setSaving(true);
    try {
      const models: Quota[] = draft.map((r) => ({
        MonthNumber: r.MonthNumber,
        MinimumCases: r.min.trim() ? Number(r.min) : null,
        MaximumCases: r.max.trim() ? Number(r.max) : null,
      }));
      const from = store.draft.version;
      const answer = await api.call(UsersApi.quotaSave, { body: { Id: userId, Version: from, Models: models } });
      await queryClient.invalidateQueries({ queryKey: ['users', userId] });
      focus.want('view', pressed);
      store.saved(from, answer.Version);
    } catch (e) {
      // Shown as a toast by the client; the draft stays to correct, and a stale one offers a reload.
      if (isStaleSave(e)) store.stale();
    } finally {
      setSaving(false);
    }
  };
  const reload = async () => {
    const fresh = await api.call(UsersApi.quotaGet, { params: { userId } });
    await queryClient.invalidateQueries({ queryKey: ['users', userId] });
    setSubmitted(false);
    store.start(rowsOf(fresh.Models), fresh.Version);
  };
  const cancel = () => {
    focus.want('view');
    store.drop();
  };
  const problems = draft && submitted ? problemCount(draft) : 0;
  const set = (month: number, key: QuotaField, value: string) => store.edit((d) => d.map((r) => (r.MonthNumber === month ? { ...r, [key]: value } : r)));

  return (
    <section className={css.stack} aria-label={t('tabs.quotas')}>
      {store.draft?.stale && <StaleWarning onReload={reload} />}
      {problems > 0 && (
        <Message kind="error" data-testid="quota-errors">
          {t('quotas.errors.summary', { count: problems })}
        </Message>
      )}
      <div ref={focus.fieldsRef} style={{ display: 'contents' }}>
        <TableScroll label={t('quotas.caption')}>
          <table className={css.table}>
            <caption className={css.muted}>{t('quotas.caption')}</caption>
            <thead>
              <tr>
                <th scope="col" className={css.cell}>
                  {t('quotas.month')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('quotas.minimum')}
                </th>
                <th scope="col" className={css.cell}>
                  {t('quotas.maximum')}
                </th>
              </tr>
            </thead>
            <tbody>
              {quotas.data.Models.map((q) => {
                const row = draft?.find((r) => r.MonthNumber === q.MonthNumber);
                const problem = row && submitted ? quotaProblem(row) : null;
                const invalid = row && problem ? invalidFields(row) : [];
                const errorId = quotaErrorId(q.MonthNumber);
                return (
                  <tr key={q.MonthNumber}>
                    <th scope="row" className={css.cell}>
                      {monthName(q.MonthNumber)}
                    </th>
                    {row ? (
                      (['min', 'max'] as const).map((key) => (
                        <td key={key} className={css.cell}>
                          <TextField
                            value={row[key]}
                            onChange={(v) => set(q.MonthNumber, key, v)}
                            inputMode="numeric"
                            isInvalid={invalid.includes(key)}
                            aria-describedby={invalid.includes(key) ? errorId : undefined}
                          >
                            <Label className={visuallyHidden}>
                              {t(key === 'min' ? 'quotas.minimumOf' : 'quotas.maximumOf', { month: monthName(q.MonthNumber) })}
                            </Label>
                            <Input
                              className={css.numberInput}
                              ref={(el) => {
                                const at = `${q.MonthNumber}-${key}`;
                                if (el) inputs.current.set(at, el);
                                else inputs.current.delete(at);
                              }}
                            />
                          </TextField>
                          {key === 'max' && problem && (
                            <span id={errorId} className={css.error}>
                              {t(problem, { max: MAX_CASES })}
                            </span>
                          )}
                        </td>
                      ))
                    ) : (
                      <>
                        <td className={css.cell}>{show(q.MinimumCases)}</td>
                        <td className={css.cell}>{show(q.MaximumCases)}</td>
                      </>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      </div>
      {draft ? (
        <Toolbar aria-label={t('quotas.actions')}>
          <Button variant="primary" onPress={save} isPending={saving}>
            {t('actions.save')}
          </Button>
          <Button onPress={cancel}>{t('actions.cancel')}</Button>
        </Toolbar>
      ) : refused === null ? (
        <Toolbar aria-label={t('quotas.actions')}>
          <Button ref={focus.editRef} onPress={edit}>
            {t('actions.edit')}
          </Button>
        </Toolbar>
      ) : (
        <p className={css.muted}>{refusalNote(t, refused, t('quotas.readOnly'))}</p>
      )}
    </section>
  );
}
