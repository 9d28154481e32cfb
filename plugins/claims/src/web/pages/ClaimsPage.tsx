import { hasAnyRole, LookupCategory } from '@portal/core';
import { layoutCss, SeenVersions, saveConflict, useApi, useRoles } from '@portal/web';
import { Form, lookupOptions, MaskedDateField, SelectField, TextField, useKitForm, useUrlFilters } from '@portal/web/kit';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { TextField as AriaTextField, Button, Input, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { ClaimsAccess } from '../../access';
import { type Claim, ClaimsApi, claimIdLookup } from '../../contract';
import { BillsGrid } from '../components/BillsGrid';
import { billFilterDefaults, billFilterParams, billFilterSchema, billFiltersFromParams, billSearch } from '../components/billFilters';
import * as css from '../components/claims.css';
import { useClaimLookups } from '../components/useClaimLookups';
import { NEW_BILL_ID } from './ClaimDetailPage';

type LookupState = { kind: 'idle' } | { kind: 'loading' } | { kind: 'loaded' } | { kind: 'error'; message: string };

/** Claim-id lookup: idle, loading, loaded (spec 02 section 2); under 2 characters is refused. */
function ClaimIdLookup() {
  const api = useApi();
  const navigate = useNavigate();
  const { t } = useTranslation('claims');
  const [value, setValue] = useState('');
  const [state, setState] = useState<LookupState>({ kind: 'idle' });
  const find = async () => {
    const id = claimIdLookup(value);
    if (id === null) {
      setState({ kind: 'error', message: t('lookup.invalid') });
      return;
    }
    setState({ kind: 'loading' });
    try {
      const claim = await api.call(ClaimsApi.getById, { params: { id } }, { notify: false });
      setState({ kind: 'loaded' });
      navigate(`/claims/${claim.ClaimID}`);
    } catch {
      setState({ kind: 'error', message: t('lookup.notFound') });
    }
  };
  return (
    <form
      className={css.row}
      onSubmit={(e) => {
        e.preventDefault();
        void find();
      }}
    >
      <AriaTextField value={value} onChange={setValue} className={css.stack} style={{ gap: 4 }}>
        <Label>{t('lookup.label')}</Label>
        <Input className={css.button} inputMode="numeric" />
      </AriaTextField>
      <Button type="submit" className={css.button} isDisabled={state.kind === 'loading'}>
        {state.kind === 'loading' ? t('lookup.loading') : t('lookup.submit')}
      </Button>
      {state.kind === 'error' && (
        <p role="alert" className={css.message}>
          {state.message}
        </p>
      )}
    </form>
  );
}

/**
 * The bulk status change of the selected bills: each names the Version the list showed (`seen`), so a bill someone
 * changed meanwhile refuses the whole change (409) instead of being moved from a status the user never saw.
 */
function StatusChange({ ids, seen, onDone }: { ids: string[]; seen: SeenVersions<Claim>; onDone: () => void }) {
  const api = useApi();
  const { t } = useTranslation('claims');
  const { statuses, label } = useClaimLookups();
  const [target, setTarget] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const apply = async () => {
    if (target === null || ids.length === 0) return;
    setBusy(true);
    try {
      const changed = await api.call(ClaimsApi.changeStatusAM, { body: { Ids: seen.refs(ids), NewClaimStatusID: target } });
      // The changed bills as they now are (one Version on): a selection kept for another change names those.
      seen.see(changed.Items);
      onDone();
    } catch (e) {
      // The API client showed the server's message. A bill changed meanwhile (409): the list fetches the bills again, so
      // the user sees their current status (and its Version) before choosing again.
      if (saveConflict(e)) onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={css.row}>
      <span aria-live="polite">{t('status.selected', { count: ids.length })}</span>
      <Select
        selectedKey={target}
        onSelectionChange={(k) => setTarget(k === null ? null : Number(k))}
        aria-label={t('status.target')}
        placeholder={t('status.target')}
      >
        <Button className={css.button}>
          <SelectValue />
        </Button>
        <Popover>
          <ListBox className={css.statusList}>
            {statuses.map((s) => (
              <ListBoxItem key={s.Key} id={s.Key} textValue={label(s)} className={css.statusOption}>
                {label(s)}
              </ListBoxItem>
            ))}
          </ListBox>
        </Popover>
      </Select>
      <Button className={css.primary} isDisabled={busy || target === null || ids.length === 0} onPress={() => void apply()}>
        {t('status.apply')}
      </Button>
    </div>
  );
}

/** /claims (Bills): filters, sorting, paging; received in the last 6 months, ClaimID descending, 20 a page. */
export default function ClaimsPage() {
  const { t } = useTranslation('claims');
  const roles = useRoles();
  const queryClient = useQueryClient();
  const { statuses, billTypes, label } = useClaimLookups();
  // The filters live in the address (Back from a bill, a reload or a shared link show the same list); the form shows
  // them, and is put back to them when the address changes under it (Back, Forward, the menu's plain /claims).
  // The default From date is 6 months before the day the list was opened.
  const defaultParams = useMemo(() => billFilterDefaults(), []);
  const [params, setParams] = useUrlFilters(defaultParams);
  const filters = useMemo(() => billFiltersFromParams(params, defaultParams), [params, defaultParams]);
  const form = useKitForm(billFilterSchema, { defaultValues: filters });
  useEffect(() => {
    if (JSON.stringify(form.getValues()) !== JSON.stringify(filters)) form.reset(filters);
  }, [form, filters]);
  const [selected, setSelected] = useState<string[]>([]);
  // The Version of every bill the list has shown, on every page: the selection may span pages.
  const seen = useRef(new SeenVersions<Claim>((c) => c.ClaimID)).current;
  const onPage = useCallback((rows: readonly Claim[]) => seen.see(rows), [seen]);
  const canChangeStatus = hasAnyRole(roles, ClaimsAccess.changeStatus);
  const search = useMemo(() => billSearch(filters), [filters]);
  const statusOptions = lookupOptions(statuses, LookupCategory.ClaimStatus, label).filter((o) => o.value !== 29 && o.value !== 30);
  const billTypeOptions = lookupOptions(billTypes, LookupCategory.BillEntryType, label);

  return (
    <div className={css.stack}>
      <section className={layoutCss.card} aria-label={t('filters.title')}>
        <Form leaveGuard={false} form={form} onSubmit={(v) => setParams(billFilterParams(v))} aria-label={t('filters.title')}>
          <div className={css.filters}>
            <MaskedDateField name="ReceivedDateFrom" label={t('filters.receivedFrom')} />
            <MaskedDateField name="ReceivedDateTo" label={t('filters.receivedTo')} />
            <SelectField name="ClaimStatusID" label={t('filters.status')} options={statusOptions} placeholder={t('filters.any')} />
            <SelectField name="BillTypeID" label={t('filters.billType')} options={billTypeOptions} placeholder={t('filters.any')} />
            <TextField name="ClaimNumber" label={t('filters.claimNumber')} />
            <SelectField
              name="Payment"
              label={t('filters.payment')}
              options={[
                { value: 'any', label: t('filters.any') },
                { value: 'paid', label: t('filters.paid') },
                { value: 'unpaid', label: t('filters.unpaid') },
              ]}
            />
            <div className={css.filterActions}>
              <Button type="submit" className={css.primary}>
                {t('filters.apply')}
              </Button>
              <Button
                className={css.button}
                onPress={() => {
                  form.reset(billFiltersFromParams(defaultParams, defaultParams));
                  setParams(defaultParams);
                }}
              >
                {t('filters.reset')}
              </Button>
            </div>
          </div>
        </Form>
      </section>
      {hasAnyRole(roles, ClaimsAccess.createBill) && (
        <div className={css.row}>
          <Link className={css.primary} to={`/claims/${NEW_BILL_ID}`}>
            {t('list.newBill')}
          </Link>
        </div>
      )}
      <ClaimIdLookup />
      <BillsGrid
        label={t('grid.label')}
        endpoint={ClaimsApi.search}
        filters={search}
        defaultSort={{ column: 'ClaimID', order: 'desc' }}
        stateKey="bills"
        selectable={canChangeStatus}
        onSelectionChange={setSelected}
        onPage={onPage}
        actions={
          canChangeStatus ? (
            <StatusChange
              ids={selected}
              seen={seen}
              onDone={() => {
                void queryClient.invalidateQueries({ queryKey: ['claims'] });
              }}
            />
          ) : undefined
        }
      />
    </div>
  );
}
