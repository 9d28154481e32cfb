import { hasAnyRole, Roles } from '@portal/core';
import { type ApiCallError, layoutCss, showToast, useApi, useKeepFocusInGroup, useRoles } from '@portal/web';
import { Button, ConfirmDialog, LoadFailed, Message, NativeSelectField, StaleNotice, saveBlob, TableScroll, Toolbar, useUnsavedChanges } from '@portal/web/kit';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Fragment, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LedgerApi, type LedgerMember, type LedgerSearchInput, type LedgerTransaction, type ReportIssue } from '../../contract';
import {
  checkBalance,
  checkLedgerEdit,
  checkLedgerEntry,
  DEFAULT_PAGE_SIZE,
  DefaultRange,
  PAGE_SIZES,
  SENT_INLINE_MS,
  signOf,
  TRANSACTION_TYPE_IDS,
} from '../../rules';
import { DateRangeFields } from '../components/DateRangeFields';
import {
  conflictOf,
  correctionOf,
  createBody,
  type Draft,
  draftOf,
  type EditField,
  hasTypedDraft,
  invalidFields,
  keyReusedOf,
  newDraft,
  pendingGuard,
  refusalOf,
  terminationRefusalOf,
  updateBody,
  withTyped,
} from '../components/drafts';
import { FederalPayerDialogs } from '../components/FederalPayerDialogs';
import { type FocusRequest, focusId, focusLost, NEW_ROW, onEditClosed, onEditOpened, onRowDeleted, onSaveRefused, pickFocus } from '../components/focus';
import { day, localToday, money, ruleText } from '../components/format';
import { EMPTY_HEADER, type HeaderCopy, headerRead, headerRefused, headerTyped, headerUnsaved, storedHeader } from '../components/header';
import * as css from '../components/ledger.css';
import { balanceLine, balanceOpen, listCount, listStatusRow } from '../components/loadState';
import { downloadReport, sendRefusalOf } from '../components/report';

type SortColumn = 'DateCreated' | 'Code' | 'Company' | 'Description' | 'TransactionTypeID' | 'Amount';
const SORTABLE: SortColumn[] = ['DateCreated', 'Code', 'Company', 'Description', 'TransactionTypeID', 'Amount'];

const NEW = NEW_ROW;
/** The current balance's query, read again after every change to the rows. */
const BALANCE_KEY = ['ledger', 'balance'] as const;

/** The toolbar colour of this page follows the role: green CareAssist, purple CareGuard, blue otherwise. */
function bandColour(roles: string[]): string {
  if (hasAnyRole(roles, [Roles.CareAssist])) return layoutCss.toolbarColour.assist;
  if (hasAnyRole(roles, [Roles.CareGuard])) return layoutCss.toolbarColour.guard;
  return layoutCss.toolbarColour.standard;
}

/** The member ledger (spec 02 sections 2, 4, 5, 8, 9): add, edit inline, delete, the initial balance and the federal payer. */
export default function LedgerPage() {
  const api = useApi();
  // Next on the last page (Previous on the first) disables the button pressed: focus stays in the pager.
  const pagerRef = useKeepFocusInGroup<HTMLDivElement>();
  const roles = useRoles();
  const queryClient = useQueryClient();
  const { t } = useTranslation('ledger');
  const today = localToday();
  const [range, setRange] = useState(() => DefaultRange.ledger(today));
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [pageIndex, setPageIndex] = useState(0);
  const [sort, setSort] = useState<{ column: SortColumn; order: 'asc' | 'desc' }>({ column: 'DateCreated', order: 'asc' });
  const [reportMode, setReportMode] = useState(false);
  const [issues, setIssues] = useState<ReportIssue[]>([]);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});

  /** The rows whose Save is pending: their Save is disabled, and a second press starts nothing (money moves once). */
  const [saving, setSaving] = useState<ReadonlySet<string>>(() => new Set());
  const [onePerRow] = useState(() => pendingGuard(setSaving));
  /** In report mode saves and deletes change the rows shown in place instead of refreshing the list. */
  const [local, setLocal] = useState<{ changed: Record<number, LedgerTransaction>; deleted: number[] }>({ changed: {}, deleted: [] });
  const [deleting, setDeleting] = useState<LedgerTransaction | null>(null);
  const [payerOpen, setPayerOpen] = useState(false);
  const [sentInline, setSentInline] = useState<string | null>(null);
  const [balanceText, setBalanceText] = useState('');
  // The refused balance's words stay at the field (the toast goes after 2 s) until the text is changed.
  const [balanceRefusal, setBalanceRefusal] = useState<string | null>(null);
  /**
   * The report header as typed, with the HeaderVersion it was loaded at (the send takes it back, so a header changed
   * meanwhile is a 409) and whether a send was refused so. Only Reload and a successful send replace it.
   */
  const [headerCopy, setHeaderCopy] = useState<HeaderCopy | null>(null);
  const header = headerCopy?.header ?? EMPTY_HEADER;
  // A row typed in and not saved, an initial balance typed and not saved, or a report header typed and not sent:
  // leaving the page asks first (asked at the move, from the page's state as it is then).
  const typedNow = useRef({ drafts, balanceText, headerCopy });
  typedNow.current = { drafts, balanceText, headerCopy };
  const typedUnsaved = useCallback(() => {
    const now = typedNow.current;
    return hasTypedDraft(now.drafts) || now.balanceText.trim() !== '' || headerUnsaved(now.headerCopy);
  }, []);
  useUnsavedChanges(typedUnsaved);
  const sentTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ids = { balance: useId(), balanceError: useId(), focus: useId() };
  useEffect(
    () => () => {
      if (sentTimer.current) clearTimeout(sentTimer.current);
    },
    [],
  );
  // When a row swaps for its edit inputs or back, the control pressed goes away: focus moves on where the change put
  // it (the edit's first input, the row's Edit, Add, the refused input), once the page has drawn that change.
  const [focusNext, setFocusNext] = useState<FocusRequest | null>(null);
  // In a frame: a confirm dialog that closed (Delete) first has to go, and its own return of focus (to the Delete of
  // the row deleted) then finds nothing to do.
  useEffect(() => {
    if (!focusNext) return;
    const frame = requestAnimationFrame(() => {
      setFocusNext(null);
      if (focusNext.onlyIfLost && !focusLost(document.activeElement, document.body)) return;
      pickFocus(focusNext, ids.focus, (id) => document.getElementById(id))?.focus();
    });
    return () => cancelAnimationFrame(frame);
  }, [focusNext, ids.focus]);
  const fieldId = (key: string, field: EditField) => focusId(ids.focus, { row: key, field });

  const member = useQuery({ queryKey: ['ledger', 'member'], queryFn: () => api.call(LedgerApi.loadMember, undefined, { notify: false }), retry: false });
  // The first read gives the page its copy of the header; a later one (the list refreshed, a reconnect) leaves the
  // typed values and their version alone.
  useEffect(() => {
    const read = member.data;
    if (read) setHeaderCopy((copy) => headerRead(copy, read));
  }, [member.data]);
  /** Takes the header as last read (when that read succeeded), with its HeaderVersion, over the page's copy. */
  const adoptStoredHeader = () => {
    const read = queryClient.getQueryState<LedgerMember>(['ledger', 'member']);
    if (read?.status === 'success' && read.data) setHeaderCopy(storedHeader(read.data));
  };
  /** Reads the member again and takes the header as stored now. */
  const takeStoredHeader = async () => {
    await queryClient.invalidateQueries({ queryKey: ['ledger', 'member'] });
    adoptStoredHeader();
  };
  /** The stale notice's Reload: the stored header replaces the typed one, shown in the info dialog to check and send. */
  const reloadHeader = async () => {
    await takeStoredHeader();
    setPayerOpen(true);
  };
  const balance = useQuery({
    queryKey: BALANCE_KEY,
    queryFn: () => api.call(LedgerApi.loadBalance, undefined, { notify: false }),
    enabled: member.isSuccess,
  });

  const query = useMemo(() => ({ From: range.From, To: range.To, EmptyFields: reportMode, View: 'ledger' as const }), [range.From, range.To, reportMode]);
  const body: LedgerSearchInput = { PageSize: pageSize, PageIndex: pageIndex, SortColumn: sort.column, SortOrder: sort.order, Query: query };
  const list = useQuery({
    queryKey: ['ledger', 'search', body],
    queryFn: () => api.call(LedgerApi.search, { body }, { skipLoadingBar: true, notify: false }),
    placeholderData: keepPreviousData,
    enabled: member.isSuccess,
  });
  const rows = (list.data?.Items ?? []).filter((r) => !local.deleted.includes(r.TransactionID)).map((r) => local.changed[r.TransactionID] ?? r);
  const pages = Math.max(1, Math.ceil((list.data?.ItemCount ?? 0) / pageSize));
  const balanceShown = balanceLine(balance);
  const canSetBalance = balanceOpen(balance);
  const itemCount = listCount(list);
  const caption =
    itemCount === null
      ? t('captionUnknown', { from: day(range.From), to: day(range.To) })
      : t('caption', { count: itemCount, from: day(range.From), to: day(range.To) });
  const statusRow = listStatusRow(list, rows.length, !!drafts[NEW]);

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['ledger'] });
  };
  const headerQuery = () => ({
    ...query,
    HICN: header.HICN.trim() || undefined,
    DateOfInjury: header.DateOfInjury || undefined,
    DateOfSettlement: header.DateOfSettlement || undefined,
  });

  const setDraft = (key: string, patch: Partial<Draft>) => setDrafts((d) => ({ ...d, [key]: { ...(d[key] as Draft), ...patch } }));
  /** Typed values: a refusal marked on an input goes once that input changes. */
  const typed = (key: string, patch: Partial<Pick<Draft, EditField>>) => setDrafts((d) => ({ ...d, [key]: withTyped(d[key] as Draft, patch) }));
  const changeDate = (key: string, value: string) => {
    // Spec 02 section 5: a future date warns and the date resets to today.
    if (value > localToday()) {
      showToast({ kind: 'warning', message: t('rules.futureDate') });
      typed(key, { DateCreated: localToday() });
    } else typed(key, { DateCreated: value });
  };
  const drop = (key: string) =>
    setDrafts((d) => {
      const { [key]: _dropped, ...rest } = d;
      return rest;
    });
  /** Cancel: the row shows what it had, and focus goes back to its Edit (a new row's: to Add). */
  const cancel = (key: string) => {
    drop(key);
    setFocusNext(onEditClosed(key));
  };
  // A new row gets its idempotency key with its draft: a repeated Save of it is the same create. Add is disabled while
  // it is open, so focus goes to the new row's first input.
  const add = () => {
    setDrafts((d) => ({ ...d, [NEW]: newDraft(localToday()) }));
    setFocusNext(onEditOpened(NEW));
  };
  const edit = (key: string, row: LedgerTransaction) => {
    setDrafts((d) => ({ ...d, [key]: draftOf(row) }));
    setFocusNext(onEditOpened(key));
  };

  /** One call per row at a time: a double press on Save neither adds the row twice nor meets a false 409 on an edit. */
  const save = (key: string, row: LedgerTransaction | null) =>
    onePerRow(key, async () => {
      const draft = drafts[key];
      if (!draft) return;
      const today = localToday();
      // Spec 02 section 5: adding checks all five rules; an edit repeats only the amount and future-date checks.
      const checked = row ? checkLedgerEdit(draft, today) : checkLedgerEntry(draft, today);
      if (!checked.ok) {
        // Said in place too: the input the rule is about is marked invalid, described by the rule's text, and focused.
        showToast({ kind: 'warning', message: ruleText(t, checked.message) });
        const refused = refusalOf(checked.message);
        if (refused) setDraft(key, { Refused: refused });
        setFocusNext(onSaveRefused(key, { field: refused?.field ?? null }));
        return;
      }
      try {
        // An edit sends the Version its row had when the edit began (kept in the draft), not the one a reload of the
        // list shows now: someone else's change meanwhile is a 409, never overwritten. A new row's empty date is sent
        // as the member's own today, so the server never picks the day.
        const saved = row
          ? await api.call(LedgerApi.update, { body: updateBody(draft, row.TransactionID) })
          : await api.call(LedgerApi.create, { body: createBody(draft, today) });
        drop(key);
        // Focus goes back to the row's Edit at once; a new row's, once the list shows the row it became (else Add).
        // Should the list read again take the row off the page, focus goes to Add.
        if (row) setFocusNext(onEditClosed(key));
        // Report mode (spec 02 section 2): the list is not read again, the row shows as saved in place; the current
        // balance is read again all the same (it is not the list).
        if (reportMode && row) setLocal((l) => ({ ...l, changed: { ...l.changed, [row.TransactionID]: saved } }));
        if (!reportMode) await refresh();
        else await queryClient.invalidateQueries({ queryKey: BALANCE_KEY });
        setFocusNext(row ? { ...onEditClosed(key), onlyIfLost: true } : onEditClosed(key, saved.TransactionID));
      } catch (e) {
        // The client showed the server's message. A new row that had been added before (its first Save's answer was
        // lost) with the values first sent, changed since: the member's values stay, as an edit of that row, on the
        // row the list now shows; saving it corrects the row, never adds a second one.
        const earlier = row ? null : keyReusedOf(e);
        if (earlier !== null) {
          const made = String(earlier.TransactionID);
          setDrafts((d) => {
            const { [key]: _new, ...rest } = d;
            return { ...rest, [made]: correctionOf(draft, earlier) };
          });
          if (!reportMode) await refresh();
          else await queryClient.invalidateQueries({ queryKey: BALANCE_KEY });
          setFocusNext(onEditOpened(made));
          return;
        }
        // A date after the end of a terminated membership is said in place as
        // the rule checks' refusals are: the date input marked with the server's message, focused, until it changes.
        const ended = terminationRefusalOf(e);
        if (ended !== null) {
          setDraft(key, { Refused: ended });
          setFocusNext(onSaveRefused(key, { field: ended.field }));
          return;
        }
        // An edit refused because the row changed (or went) meanwhile keeps it on the row, with the typed values,
        // until the member reloads the row: focus goes to its Reload.
        const conflict = row ? conflictOf(e) : null;
        if (conflict !== null) {
          setDraft(key, { Conflict: conflict });
          setFocusNext(onSaveRefused(key, 'conflict'));
        }
      }
    });

  /** Drops a refused edit (its typed values) and shows the row as it is now: the list read again. */
  const reloadRow = async (key: string, row: LedgerTransaction) => {
    cancel(key);
    setLocal((l) => {
      const { [row.TransactionID]: _stale, ...changed } = l.changed;
      return { ...l, changed };
    });
    await queryClient.invalidateQueries({ queryKey: ['ledger', 'search'] });
    await queryClient.invalidateQueries({ queryKey: BALANCE_KEY });
    // A row deleted meanwhile is gone once the list is read again: its Edit went with it.
    setFocusNext({ ...onEditClosed(key), onlyIfLost: true });
  };

  const remove = async () => {
    if (!deleting) return;
    const row = deleting;
    const shown = rows.map((r) => String(r.TransactionID));
    await api.call(LedgerApi.delete, { body: { TransactionID: row.TransactionID, Version: row.Version } });
    if (reportMode) {
      setLocal((l) => ({ ...l, deleted: [...l.deleted, row.TransactionID] }));
      await queryClient.invalidateQueries({ queryKey: BALANCE_KEY });
    } else await refresh();
    setFocusNext(onRowDeleted(shown, String(row.TransactionID)));
  };

  const saveBalance = async () => {
    const r = checkBalance(balanceText);
    if (!r.ok) {
      const text = ruleText(t, r.message);
      showToast({ kind: 'warning', message: text });
      setBalanceRefusal(text);
      return;
    }
    setBalanceRefusal(null);
    try {
      await api.call(LedgerApi.balance, { body: { Amount: balanceText } });
      setBalanceText('');
      await refresh();
    } catch {
      // shown by the client
    }
  };

  /** Spec 02 section 9: 'Report generated' once the file is saved; a failure is the client's toast of the server's message. */
  const download = (format: 'pdf' | 'xlsx') =>
    downloadReport(
      () => api.call(LedgerApi.report, { body: { Query: headerQuery(), Format: format } }),
      saveBlob,
      () => showToast({ kind: 'success', message: t('payer.reportGenerated') }),
    );

  const checkAll = async () => {
    try {
      const found = await api.call(LedgerApi.reportCheck, { body: { Query: headerQuery() } });
      showToast({ kind: 'success', message: t('payer.checked') });
      setIssues(found);
      if (found.length === 0) {
        // Nothing missing: the report is generated directly (download says 'Report generated').
        setReportMode(false);
        await download('pdf');
      } else {
        setLocal({ changed: {}, deleted: [] });
        setPageIndex(0);
        setReportMode(true);
      }
    } catch {
      // shown by the client
    }
  };
  const leaveReportMode = async () => {
    setReportMode(false);
    setIssues([]);
    setLocal({ changed: {}, deleted: [] });
    await refresh();
  };

  const send = async () => {
    try {
      const outcome = await api.call(LedgerApi.reportSend, { body: { Query: headerQuery(), HeaderVersion: headerCopy?.version } }, { notify: false });
      const text = outcome.AlreadySent ? t('payer.alreadySent') : t('payer.sent');
      showToast({ kind: outcome.AlreadySent ? 'info' : 'success', message: text });
      setSentInline(text);
      if (sentTimer.current) clearTimeout(sentTimer.current);
      sentTimer.current = setTimeout(() => setSentInline(null), SENT_INLINE_MS);
      await refresh();
      // The member was read again: the header sent is the one stored now (its version raised when the send changed it).
      // A period already sent saved nothing: the page's copy stays as typed.
      if (!outcome.AlreadySent) adoptStoredHeader();
    } catch (e) {
      // Incomplete records, another send of them waiting for the payer, or a header someone changed since it was
      // loaded: the refusal's data says so (its text is in the user's language); anything else failed to send.
      const refusal = sendRefusalOf(e);
      // The typed header and the version it was loaded at stay (a send again is refused again): the page says the stored
      // header changed in its stale notice, which takes focus and holds the Reload that takes it (no toast to say it twice).
      if (refusal === 'headerChanged') setHeaderCopy(headerRefused);
      else showToast({ kind: 'warning', message: t(`payer.${refusal}`) });
    }
  };

  const sortBy = (column: SortColumn) => {
    setSort((s) => ({ column, order: s.column === column && s.order === 'asc' ? 'desc' : 'asc' }));
    setPageIndex(0);
  };
  const ariaSort = (column: SortColumn) => (sort.column === column ? (sort.order === 'asc' ? 'ascending' : 'descending') : undefined);
  const typeName = (id: number) => t(`types.${id}`);
  const memberName = member.data ? `${member.data.FirstName} ${member.data.LastName}` : '';
  const headerIssue = issues.find((i) => i.TransactionID === null);
  const issueFields = (id: number) => issues.find((i) => i.TransactionID === id)?.Fields ?? [];

  const editRow = (key: string, row: LedgerTransaction | null) => {
    const d = drafts[key] as Draft;
    const label = (field: string) => t('edit.label', { field: t(`fields.${field}`) });
    const conflictId = `ledger-conflict-${key}`;
    const refused = d.Conflict !== undefined && row !== null;
    // The inputs the rule check refused or the report check found empty are marked invalid and described by the text
    // under the row that says why.
    const invalid = invalidFields(d, row ? issueFields(row.TransactionID) : []);
    const refusedId = `${ids.focus}-${key}-refused`;
    const missingId = `${ids.focus}-${key}-missing`;
    const check = (field: EditField) => {
      const reasons = [invalid.refused === field ? refusedId : null, invalid.missing.includes(field) ? missingId : null].filter(Boolean);
      return {
        id: fieldId(key, field),
        'aria-label': label(field),
        'aria-invalid': reasons.length > 0 ? true : undefined,
        'aria-describedby': reasons.length > 0 ? reasons.join(' ') : undefined,
      };
    };
    return (
      <Fragment key={key}>
        <tr data-testid="ledger-edit-row" aria-describedby={refused ? conflictId : undefined}>
          <td className={css.cell}>
            <input
              type="date"
              className={css.input}
              {...check('DateCreated')}
              max={today}
              value={d.DateCreated}
              onChange={(e) => changeDate(key, e.target.value)}
            />
          </td>
          <td className={css.cell}>
            <input className={css.input} {...check('Code')} maxLength={40} value={d.Code} onChange={(e) => typed(key, { Code: e.target.value })} />
          </td>
          <td className={css.cell}>
            <input className={css.input} {...check('Company')} maxLength={200} value={d.Company} onChange={(e) => typed(key, { Company: e.target.value })} />
          </td>
          <td className={css.cell}>
            <input
              className={css.input}
              {...check('Description')}
              maxLength={500}
              value={d.Description}
              onChange={(e) => typed(key, { Description: e.target.value })}
            />
          </td>
          <td className={css.cell}>
            <select
              className={css.input}
              {...check('TransactionTypeID')}
              value={d.TransactionTypeID}
              onChange={(e) => typed(key, { TransactionTypeID: e.target.value })}
            >
              <option value="">{t('edit.chooseType')}</option>
              {TRANSACTION_TYPE_IDS.map((id) => (
                <option key={id} value={id}>
                  {typeName(id)}
                </option>
              ))}
            </select>
          </td>
          <td className={css.numeric}>
            <input
              className={css.input}
              {...check('Amount')}
              inputMode="decimal"
              maxLength={20}
              value={d.Amount}
              onChange={(e) => typed(key, { Amount: e.target.value })}
            />
          </td>
          <td className={css.numeric}>{row ? money(row.Balance) : ''}</td>
          <td className={css.cell}>
            <div className={css.actions}>
              {/* Pending keeps the pressed Save focused (a disabled button drops focus) and ignores presses meanwhile. */}
              <Button size="small" variant="primary" onPress={() => save(key, row)} isPending={saving.has(key)} isDisabled={refused}>
                {t('save')}
              </Button>
              <Button size="small" onPress={() => cancel(key)}>
                {t('cancel')}
              </Button>
            </div>
          </td>
        </tr>
        {(invalid.refused !== null || invalid.missing.length > 0) && (
          <tr data-testid="ledger-invalid-row">
            <td className={css.cell} colSpan={8}>
              {invalid.refused !== null && d.Refused && (
                <p id={refusedId} className={css.invalidText}>
                  {d.Refused.text !== undefined ? d.Refused.text : ruleText(t, d.Refused.message)}
                </p>
              )}
              {invalid.missing.length > 0 && (
                <p id={missingId} className={css.invalidText}>
                  {t('report.rowMissing', { fields: invalid.missing.map((f) => t(`fields.${f}`)).join(', ') })}
                </p>
              )}
            </td>
          </tr>
        )}
        {d.SavedBefore && !refused && (
          <tr data-testid="ledger-saved-before-row">
            <td className={css.cell} colSpan={8}>
              <Message kind="info">{t('savedBefore')}</Message>
            </td>
          </tr>
        )}
        {refused && row && (
          <tr data-testid="ledger-conflict-row">
            <td className={css.cell} colSpan={8}>
              <Message kind="error" id={conflictId}>
                {d.Conflict || t('conflict.fallback')} {t('conflict.kept')}{' '}
                <Button id={focusId(ids.focus, { row: key, control: 'reload' })} size="small" onPress={() => reloadRow(key, row)}>
                  {t('conflict.reload')}
                </Button>
              </Message>
            </td>
          </tr>
        )}
      </Fragment>
    );
  };

  if (member.isError)
    return (
      <div className={layoutCss.card}>
        <Message kind="info">{(member.error as ApiCallError).message}</Message>
      </div>
    );
  return (
    <div className={layoutCss.card}>
      <div className={`${css.band} ${bandColour(roles)}`}>
        <strong>{memberName}</strong>
        {member.data ? ` · ${t('memberNumber', { number: member.data.MemberNumber })}` : ''}
      </div>
      <div className={css.header}>
        <div className={css.field}>
          <label htmlFor={ids.balance}>{t('balance.initial')}</label>
          <input
            id={ids.balance}
            className={css.input}
            inputMode="decimal"
            maxLength={20}
            disabled={!canSetBalance}
            value={balance.data && balance.data.Amount !== null ? money(balance.data.Amount) : balanceText}
            onChange={(e) => {
              setBalanceText(e.target.value);
              setBalanceRefusal(null);
            }}
            aria-invalid={balanceRefusal !== null || undefined}
            aria-describedby={balanceRefusal !== null ? ids.balanceError : undefined}
          />
          {balanceRefusal !== null && (
            <p id={ids.balanceError} className={css.invalidText}>
              {balanceRefusal}
            </p>
          )}
        </div>
        <Button onPress={saveBalance} isDisabled={!canSetBalance}>
          {t('balance.save')}
        </Button>
        {balanceShown.kind === 'failed' ? (
          <LoadFailed message={t('balance.error')} onRetry={() => void balance.refetch()} data-testid="ledger-balance-error" />
        ) : (
          <p className={css.big} data-testid="ledger-balance">
            {balanceShown.kind === 'loading'
              ? t('loading')
              : t('balance.current', { amount: balanceShown.kind === 'amount' ? money(balanceShown.amount) : t('balance.none') })}
          </p>
        )}
      </div>
      <div className={css.header}>
        <DateRangeFields
          range={range}
          max={today}
          onChange={(next) => {
            setRange(next);
            setPageIndex(0);
          }}
        />
        <NativeSelectField
          label={t('filter.pageSize')}
          value={pageSize}
          options={PAGE_SIZES.map((n) => ({ value: n, label: t('bills', { count: n }) }))}
          onChange={(next) => {
            setPageSize(next);
            setPageIndex(0);
          }}
        />
      </div>
      <Toolbar aria-label={t('actions')}>
        <Button id={focusId(ids.focus, 'add')} variant="primary" onPress={add} isDisabled={!!drafts[NEW]}>
          {t('add')}
        </Button>
        <Button onPress={checkAll}>{t('payer.check')}</Button>
        <Button onPress={() => setPayerOpen(true)}>{t('payer.open')}</Button>
        <Button onPress={() => download('pdf')}>{t('report.pdf')}</Button>
        <Button onPress={() => download('xlsx')}>{t('report.xlsx')}</Button>
        {reportMode && <Button onPress={leaveReportMode}>{t('report.leave')}</Button>}
      </Toolbar>
      {headerCopy?.stale && <StaleNotice message={t('payer.headerChanged')} onReload={reloadHeader} />}
      {sentInline && (
        <Message kind="success" id="ledger-sent">
          {sentInline}
        </Message>
      )}
      {reportMode && (
        <Message kind="info">
          {t('report.mode')}
          {headerIssue ? ` ${t('report.headerMissing', { fields: headerIssue.Fields.map((f) => t(`fields.${f}`)).join(', ') })}` : ''}
        </Message>
      )}
      {list.isError && (
        <LoadFailed message={(list.error as ApiCallError).message || t('listError')} onRetry={() => void list.refetch()} data-testid="ledger-list-error" />
      )}
      <TableScroll className={css.tableWrap} label={caption}>
        <table className={css.table} data-testid="ledger-table">
          <caption className={css.muted}>{caption}</caption>
          <thead>
            <tr>
              {SORTABLE.map((c) => (
                <th key={c} scope="col" className={c === 'Amount' ? css.numeric : css.cell} aria-sort={ariaSort(c)}>
                  <button type="button" className={css.sortButton} onClick={() => sortBy(c)}>
                    {t(`fields.${c}`)}
                    {sort.column === c ? (sort.order === 'asc' ? ' ▲' : ' ▼') : ''}
                  </button>
                </th>
              ))}
              <th scope="col" className={css.numeric}>
                {t('fields.Balance')}
              </th>
              <th scope="col" className={css.cell}>
                {t('fields.Actions')}
              </th>
            </tr>
          </thead>
          <tbody>
            {drafts[NEW] && editRow(NEW, null)}
            {rows.map((r) => {
              const key = String(r.TransactionID);
              if (drafts[key]) return editRow(key, r);
              const missing = issueFields(r.TransactionID);
              const locked = r.Source === 'card' || r.Source === 'bank' || (r.ReportedDate !== null && !member.data?.isSuperUser);
              return (
                <tr key={key} data-testid="ledger-row">
                  <td className={css.cell}>{day(r.DateCreated)}</td>
                  <td className={css.cell}>{r.Code ?? ''}</td>
                  <td className={css.cell}>{r.Company ?? ''}</td>
                  <td className={css.cell}>{r.Description ?? ''}</td>
                  <td className={css.cell}>{typeName(r.TransactionTypeID)}</td>
                  <td className={css.numeric}>{money(signOf(r.TransactionTypeID) * r.Amount)}</td>
                  <td className={css.numeric}>{money(r.Balance)}</td>
                  <td className={css.cell}>
                    <div className={css.actions}>
                      {missing.length > 0 && (
                        <span className={css.muted}>{t('report.rowMissing', { fields: missing.map((f) => t(`fields.${f}`)).join(', ') })}</span>
                      )}
                      {locked ? (
                        <span className={css.muted}>
                          {r.Source === 'card' ? t('row.card') : r.Source === 'bank' ? t('row.bank') : t('row.reported', { date: day(r.ReportedDate) })}
                        </span>
                      ) : (
                        <>
                          <Button
                            id={focusId(ids.focus, { row: key, control: 'edit' })}
                            size="small"
                            onPress={() => edit(key, r)}
                            aria-label={t('row.edit', { date: day(r.DateCreated), company: r.Company ?? '' })}
                          >
                            {t('edit.button')}
                          </Button>
                          <Button
                            id={focusId(ids.focus, { row: key, control: 'delete' })}
                            size="small"
                            variant="danger"
                            onPress={() => setDeleting(r)}
                            aria-label={t('row.delete', { date: day(r.DateCreated), company: r.Company ?? '' })}
                          >
                            {t('delete')}
                          </Button>
                        </>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
            {(statusRow === 'loading' || statusRow === 'empty') && (
              <tr>
                <td className={css.cell} colSpan={8}>
                  {statusRow === 'loading' ? t('loading') : t('empty')}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </TableScroll>
      <div ref={pagerRef} className={css.pager}>
        <Button size="small" isDisabled={pageIndex === 0} onPress={() => setPageIndex((p) => Math.max(0, p - 1))}>
          {t('pager.previous')}
        </Button>
        <span>{t('pager.page', { page: pageIndex + 1, pages })}</span>
        <Button size="small" isDisabled={pageIndex + 1 >= pages} onPress={() => setPageIndex((p) => p + 1)}>
          {t('pager.next')}
        </Button>
      </div>
      <ConfirmDialog
        isOpen={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('deleteTitle')}
        message={deleting ? t('deleteConfirm', { date: day(deleting.DateCreated), amount: money(deleting.Amount) }) : ''}
        confirmLabel={t('delete')}
        cancelLabel={t('cancel')}
        destructive
        onConfirm={remove}
      />
      <FederalPayerDialogs
        isOpen={payerOpen}
        onClose={() => setPayerOpen(false)}
        period={range}
        header={header}
        onHeaderChange={(typedHeader) => setHeaderCopy((copy) => headerTyped(copy, typedHeader))}
        notice={headerCopy?.stale ? <StaleNotice message={t('payer.headerChanged')} onReload={takeStoredHeader} /> : null}
        onSend={send}
      />
    </div>
  );
}
