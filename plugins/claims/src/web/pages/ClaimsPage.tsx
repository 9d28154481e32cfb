import { formatMaskedDate, hasAnyRole, LookupCategory, parseMaskedDate } from '@portal/core';
import { layoutCss, SeenVersions, saveConflict, useApi, useRoles } from '@portal/web';
import { Form, lookupOptions, MaskedDateField, SelectField, TextField } from '@portal/web/kit';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { TextField as AriaTextField, Button, Input, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { ClaimsAccess } from '../../access';
import { type Claim, type ClaimSearchInput, ClaimsApi } from '../../contract';
import { BillsGrid } from '../components/BillsGrid';
import * as css from '../components/claims.css';
import { monthsAgo } from '../components/format';
import { useClaimLookups } from '../components/useClaimLookups';
import { NEW_BILL_ID } from './ClaimDetailPage';

// Masked text dates (MM/DD/YYYY): lighter than the calendar picker on the members' landing page.
const maskedDate = z.string().refine((v) => v.trim() === '' || parseMaskedDate(v) !== null, 'validation.dateInvalid');
const filterSchema = z.object({
  ReceivedDateFrom: maskedDate,
  ReceivedDateTo: maskedDate,
  ClaimStatusID: z.number().nullable(),
  BillTypeID: z.number().nullable(),
  ClaimNumber: z.string(),
  Payment: z.enum(['any', 'paid', 'unpaid']),
});
type FilterValues = z.infer<typeof filterSchema>;

const toMasked = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return formatMaskedDate({ year: y ?? 0, month: m ?? 0, day: d ?? 0 });
};
const toIso = (masked: string): string | null => {
  const day = parseMaskedDate(masked);
  return day ? `${day.year}-${String(day.month).padStart(2, '0')}-${String(day.day).padStart(2, '0')}` : null;
};

/** Defaults of spec 02 section 9: bills received in the last 6 months. */
const defaults = (): FilterValues => ({
  ReceivedDateFrom: toMasked(monthsAgo(6)),
  ReceivedDateTo: '',
  ClaimStatusID: null,
  BillTypeID: null,
  ClaimNumber: '',
  Payment: 'any',
});

function toSearch(v: FilterValues): ClaimSearchInput {
  return {
    ReceivedDateFrom: toIso(v.ReceivedDateFrom),
    ReceivedDateTo: toIso(v.ReceivedDateTo),
    ClaimStatusID: v.ClaimStatusID,
    BillTypeID: v.BillTypeID,
    ClaimNumber: v.ClaimNumber || null,
    IsPaid: v.Payment === 'any' ? null : v.Payment === 'paid',
  };
}

type LookupState = { kind: 'idle' } | { kind: 'loading' } | { kind: 'loaded' } | { kind: 'error'; message: string };

/** Claim-id lookup: idle, loading, loaded (spec 02 section 2); under 2 characters is refused. */
function ClaimIdLookup() {
  const api = useApi();
  const navigate = useNavigate();
  const { t } = useTranslation('claims');
  const [value, setValue] = useState('');
  const [state, setState] = useState<LookupState>({ kind: 'idle' });
  const find = async () => {
    if (value.trim().length < 2 || !/^\d+$/.test(value.trim())) {
      setState({ kind: 'error', message: t('lookup.invalid') });
      return;
    }
    setState({ kind: 'loading' });
    try {
      const claim = await api.call(ClaimsApi.getById, { params: { id: value.trim() } }, { notify: false });
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
  const [filters, setFilters] = useState<FilterValues>(defaults);
  const [selected, setSelected] = useState<string[]>([]);
  // The Version of every bill the list has shown, on every page: the selection may span pages.
  const seen = useRef(new SeenVersions<Claim>((c) => c.ClaimID)).current;
  const onPage = useCallback((rows: readonly Claim[]) => seen.see(rows), [seen]);
  const canChangeStatus = hasAnyRole(roles, ClaimsAccess.changeStatus);
  const search = useMemo(() => toSearch(filters), [filters]);
  const statusOptions = lookupOptions(statuses, LookupCategory.ClaimStatus, label).filter((o) => o.value !== 29 && o.value !== 30);
  const billTypeOptions = lookupOptions(billTypes, LookupCategory.BillEntryType, label);

  return (
    <div className={css.stack}>
      <section className={layoutCss.card} aria-label={t('filters.title')}>
        <Form schema={filterSchema} defaultValues={defaults()} onSubmit={(v) => setFilters(v)} aria-label={t('filters.title')}>
          {(form) => (
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
              <div className={css.row}>
                <Button type="submit" className={css.primary}>
                  {t('filters.apply')}
                </Button>
                <Button
                  className={css.button}
                  onPress={() => {
                    form.reset(defaults());
                    setFilters(defaults());
                  }}
                >
                  {t('filters.reset')}
                </Button>
              </div>
            </div>
          )}
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
