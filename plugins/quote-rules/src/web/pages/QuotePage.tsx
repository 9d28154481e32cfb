import { formatDateTime } from '@portal/core';
import { ApiCallError, layoutCss, loadFailure, newCreateKey, SubmissionKeys, useApi, useHeldRecord } from '@portal/web';
import { Button, CheckboxField, DatePickerField, Form, LoadFailed, Message, NumberField, SelectField, StaleNotice, useKitForm } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { type FieldPath, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { z } from 'zod';
import { type LifeCompany, QuoteApi, type SavedQuote } from '../../contract';
import { applyFieldRules, type DisableableField, evaluateQuote, QUOTE_TYPES } from '../../engine/index';
import { BenefitRow, WHOLE } from '../components/BenefitRow';
import { CompanyOutcomes } from '../components/CompanyOutcomes';
import * as css from '../components/quote.css';
import { quoteIdOf } from '../quoteId';
import { emptyBenefit, emptyValues, fromSaved, pickedIds, type QuoteFormValues, toBenefit, toCase, toQuote, toSaveBody, withCreateKey } from '../values';

/** Checked by the page itself (the engine reports everything else); the fields carry their own types. */
const formSchema = z.object({ Case: z.any(), Quote: z.any(), Picked: z.any() });
const FIELDS: DisableableField[] = ['COLA', 'TermType', 'TermYears', 'TermMonths', 'TermWeeks'];

export default function QuotePage() {
  const api = useApi();
  const { t } = useTranslation('quote');
  const routeId = quoteIdOf(useParams().id);
  // An address naming no quote is not asked for: the page says not found (below), with no form.
  const id = routeId === 'invalid' ? null : routeId;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const companies = useQuery({ queryKey: ['quote', 'companies'], queryFn: () => api.call(QuoteApi.companies, {}, { notify: false }) });
  const saved = useQuery({
    queryKey: ['quote', 'quote', id],
    queryFn: () => api.call(QuoteApi.get, { params: { id: id as number } }, { notify: false }),
    enabled: id !== null,
  });
  const form = useKitForm(formSchema, { defaultValues: emptyValues() });
  const [noCompany, setNoCompany] = useState(false);
  // The form keeps the saved quote it was opened from (values and Version): a refetch meanwhile (on reconnect, once the
  // cached copy is stale) does not put the stored values over the typed ones. Reload or a save replace it.
  const held = useHeldRecord(saved.data, id);
  const opened = held.record;

  useEffect(() => {
    if (opened) form.reset(fromSaved(opened));
  }, [opened, form]);

  // A company's rules changed since the quote was saved: the page checks it live, so it reads the current rules.
  const rulesChanged = opened?.RulesChanged ?? false;
  useEffect(() => {
    if (rulesChanged) void queryClient.invalidateQueries({ queryKey: ['quote', 'companies'] });
  }, [rulesChanged, queryClient]);

  const values = useWatch({ control: form.control }) as QuoteFormValues;
  const benefits = values.Quote?.Benefits ?? [];

  // The field rules, as the user types: a disabled field holds the value the rule forces.
  useEffect(() => {
    benefits.forEach((benefit, index) => {
      const ruled = applyFieldRules(toBenefit(benefit)).benefit;
      for (const field of FIELDS) {
        if ((benefit[field] ?? null) !== ruled[field]) form.setValue(`Quote.Benefits.${index}.${field}` as FieldPath<z.input<typeof formSchema>>, ruled[field]);
      }
    });
  }, [benefits, form]);

  const companyList: LifeCompany[] = companies.data ?? [];
  const order = companyList.map((c) => c.Id);
  const picked = pickedIds(values, order);
  const live = useMemo(() => {
    const chosen = companyList.filter((c) => picked.includes(c.Id)).map((c) => ({ id: c.Id, name: c.Name, rules: c.Rules }));
    return evaluateQuote(toCase(values), toQuote(values), chosen);
  }, [values, companyList, picked.join(',')]);

  // One IdempotencyKey per submission of a new quote: saving the same quote again after a failure (an answer lost) adds it once.
  const keys = useRef(new SubmissionKeys(() => newCreateKey('quote'))).current;
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof toSaveBody>) => api.call(QuoteApi.save, { body }, { notify: false }),
    onSuccess: (result: SavedQuote) => {
      keys.added();
      queryClient.setQueryData(['quote', 'quote', result.Id], result);
      void queryClient.invalidateQueries({ queryKey: ['quote', 'mine'] });
      // The server checked the quote against the rules as they are now: the live outcome is computed from the same
      // (a cached rule set read before a company's rules changed would swap the table back to the old result).
      void queryClient.invalidateQueries({ queryKey: ['quote', 'companies'] });
      // The saved quote (its new Version) is the one the form goes on from.
      held.release();
      form.reset(fromSaved(result));
      if (result.Id !== id) navigate(`/quotes/${result.Id}`, { replace: true });
    },
  });

  // The promise rejects when nothing was saved (no company picked, or the save failed): the form's leave guard then
  // still counts what was typed as unsaved.
  const onSubmit = (submitted: unknown): Promise<unknown> => {
    const formValues = submitted as QuoteFormValues;
    if (pickedIds(formValues, order).length === 0) {
      setNoCompany(true);
      return Promise.reject(new Error('no company picked'));
    }
    setNoCompany(false);
    // An overwrite sends the Version the form was opened at; the server refuses a stale one (409).
    return save.mutateAsync(withCreateKey(toSaveBody(formValues, id !== null && opened ? { Id: opened.Id, Version: opened.Version } : null, order), keys));
  };

  // The quote was saved by someone else (another tab) since it was read: the save was refused (409), nothing changed.
  const stale = save.error instanceof ApiCallError && save.error.status === 409;
  // Reads the quote as it is now saved: the form shows that version, and the next save goes from it.
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: ['quote', 'quote', id] });
    held.release();
    save.reset();
  };

  const addBenefit = () => form.setValue('Quote.Benefits', [...benefits, emptyBenefit()], { shouldDirty: true });
  const removeBenefit = (index: number) =>
    form.setValue(
      'Quote.Benefits',
      benefits.filter((_, i) => i !== index),
      { shouldDirty: true },
    );
  const annuitants = values.Case?.Annuitants ?? [];
  const addAnnuitant = () => form.setValue('Case.Annuitants', [...annuitants, { Age: null }], { shouldDirty: true });
  // The removed annuitant's button goes with it: the keyboard goes on from Add annuitant, not from the page's top.
  const addAnnuitantRef = useRef<HTMLButtonElement>(null);
  const removeAnnuitant = (index: number) => {
    form.setValue(
      'Case.Annuitants',
      annuitants.filter((_, i) => i !== index),
      { shouldDirty: true },
    );
    addAnnuitantRef.current?.focus();
  };

  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  const savedFailure = id !== null && saved.isError && !saved.isFetching ? loadFailure(saved.error) : null;
  // Not found (or not yours) would be so again: no Try again.
  if (routeId === 'invalid' || savedFailure === 'notFound') return <Message kind="error">{t('notFound')}</Message>;
  if (savedFailure === 'loadError') return <LoadFailed message={t('loadError')} onRetry={() => void saved.refetch()} data-testid="quote-load-error" />;
  // A saved quote's form opens with its values: typing into the empty form before they arrive would be overwritten.
  if (id !== null && (saved.isPending || saved.isError)) return <p aria-busy="true">{t('loading')}</p>;
  const companiesRetrying = companies.isError && companies.isFetching;
  const unchanged = opened && !form.formState.isDirty;
  // A saved outcome whose companies' rules changed since is out of date: the quote is shown checked against the current rules.
  const showSaved = unchanged && !opened.RulesChanged;
  const outcome = showSaved ? opened.Outcome.companies : live.companies;
  const changedNames = (opened?.ChangedCompanyIds ?? []).map((companyId) => companyList.find((c) => c.Id === companyId)?.Name ?? companyId);
  const caption = showSaved ? t('summary.savedCaption', { date: formatDateTime(opened.SavedDate) }) : t('summary.liveCaption');

  return (
    <div className={layoutCss.card}>
      <p>{t('intro')}</p>
      {(companies.isPending || companiesRetrying) && <p aria-busy="true">{t('loading')}</p>}
      {companies.isError && !companiesRetrying && <LoadFailed message={t('error')} onRetry={() => void companies.refetch()} data-testid="companies-error" />}
      <Form form={form} onSubmit={onSubmit} aria-label={t('formLabel')}>
        <section aria-labelledby="quote-case-title">
          <h2 id="quote-case-title">{t('case.title')}</h2>
          <div className={css.fieldRow}>
            {annuitants.map((_, index) => (
              <div key={index} className={css.annuitant}>
                <NumberField name={`Case.Annuitants.${index}.Age`} label={t('case.age', { n: index + 1 })} minValue={0} maxValue={130} formatOptions={WHOLE} />
                {annuitants.length > 1 && (
                  <Button variant="danger" onPress={() => removeAnnuitant(index)}>
                    {t('case.removeAnnuitant', { n: index + 1 })}
                  </Button>
                )}
              </div>
            ))}
            <DatePickerField name="Case.PurchaseDate" label={t('case.purchaseDate')} />
            <SelectField
              name="Quote.QuoteType"
              label={t('case.quoteType')}
              options={QUOTE_TYPES.map((type) => ({ value: type, label: t(`quoteType.${type}`) }))}
            />
            <NumberField name="Quote.FeeAmount" label={t('case.fee')} minValue={0} formatOptions={{ style: 'currency', currency: 'USD' }} />
            <CheckboxField name="Case.IsQualified" label={t('case.qualified')} />
          </div>
          <Button onPress={addAnnuitant} ref={addAnnuitantRef}>
            {t('case.addAnnuitant')}
          </Button>
        </section>
        <section aria-labelledby="quote-benefits-title">
          <h2 id="quote-benefits-title">{t('benefits.title')}</h2>
          {benefits.map((_, index) => {
            const row = live.benefits[index];
            return (
              <BenefitRow
                key={index}
                index={index}
                disabled={row?.disabled ?? {}}
                messages={row?.messages ?? []}
                canRemove={benefits.length > 1}
                onRemove={() => removeBenefit(index)}
              />
            );
          })}
          <Button onPress={addBenefit}>{t('benefits.add')}</Button>
        </section>
        <fieldset style={{ border: 0, padding: 0 }}>
          <legend>
            <h2 style={{ margin: 0 }}>{t('companies.title')}</h2>
          </legend>
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: '0.5rem 1.5rem' }}>
            {companyList.map((company) => (
              <CheckboxField key={company.Id} name={`Picked.${company.Id}`} label={company.Name} />
            ))}
          </div>
          {/* Said after a save with none picked, until one is. */}
          {noCompany && picked.length === 0 && <Message kind="error">{t('companies.required')}</Message>}
        </fieldset>
        <section aria-labelledby="quote-outcome-title">
          <h2 id="quote-outcome-title">{t('summary.title')}</h2>
          {unchanged && opened.RulesChanged && (
            <Message kind="warning" data-testid="rules-changed">
              {t('summary.rulesChanged', { names: changedNames.join(', '), date: formatDateTime(opened.SavedDate) })}
            </Message>
          )}
          {outcome.length === 0 ? <p>{t('summary.empty')}</p> : <CompanyOutcomes companies={outcome} caption={caption} />}
        </section>
        {save.isError &&
          (stale ? (
            <StaleNotice message={t('stale')} onReload={reload} />
          ) : (
            <Message kind="error">
              {t('saveFailed')} {save.error instanceof ApiCallError ? save.error.message : ''}
            </Message>
          ))}
        <Button type="submit" variant="primary" isPending={save.isPending} pendingLabel={t('saving')}>
          {t('save')}
        </Button>
        {unchanged && <p role="status">{t('savedAs', { id: opened.Id })}</p>}
      </Form>
    </div>
  );
}
