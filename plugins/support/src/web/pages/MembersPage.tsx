import { formatDateTime } from '@portal/core';
import { cameFromState, layoutCss, useApi } from '@portal/web';
import { DataGrid, type GridColumn, NativeSelectField, type PageRequest, useDebouncedValue, useUrlChoice, useUrlFilters } from '@portal/web/kit';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router-dom';
import { SUPPORT_STATUS_PARAM } from '../../access';
import { type MemberRow, SupportApi } from '../../contract';
import { MEMBER_FILTER_DEBOUNCE_MS, MEMBER_STATUSES, SUPPORT_DEFAULT_PAGE_SIZE, SUPPORT_PAGE_SIZES } from '../../rules';
import * as css from '../components/support.css';

type Status = (typeof MEMBER_STATUSES)[number];
const SORTS = ['FirstName', 'LastName', 'MemberNumber', 'Email'] as const;
type Sort = (typeof SORTS)[number];
/** The filter text in the address (/support-members?q=ann), beside the status. */
const FILTER_DEFAULTS = { q: '' };

/**
 * Support's members list, reached from /users (spec 02 section 9): statuses Members, Pending, Terminated and All;
 * sizes 10/20/30/50, 20 by default, FirstName ascending; the filter waits 1000 ms after the last key. A member opens
 * at /users/:id (their login), where the member tabs are.
 */
export default function MembersPage() {
  const api = useApi();
  const { t } = useTranslation('support');
  const filterId = useId();
  const [status, setStatus] = useUrlChoice<Status>(SUPPORT_STATUS_PARAM, MEMBER_STATUSES, 'Members');
  // The filter text lives in the address (Back from a member, a reload or a shared link keep it). What is typed goes
  // there once the typing stops (replacing the history entry, never one entry per key); the address changed under the
  // field (Back, the menu's link) is put back in it.
  const [address, setAddress] = useUrlFilters(FILTER_DEFAULTS);
  const filter = address.q.trim();
  const [text, setText] = useState(filter);
  const typed = useDebouncedValue(text.trim(), MEMBER_FILTER_DEBOUNCE_MS);
  const lastTyped = useRef(typed);
  useEffect(() => {
    if (typed === lastTyped.current) return;
    lastTyped.current = typed;
    setAddress({ q: typed });
  }, [typed, setAddress]);
  useEffect(() => {
    setText((current) => (current.trim() === filter ? current : filter));
  }, [filter]);

  const fetchPage = useCallback(
    (req: PageRequest) =>
      api.call(
        SupportApi.members,
        {
          body: {
            PageIndex: req.pageIndex,
            PageSize: req.pageSize as 20,
            SortColumn: ((SORTS as readonly string[]).includes(req.sortColumn ?? '') ? req.sortColumn : 'FirstName') as Sort,
            SortOrder: req.sortOrder === 'desc' ? 'DESC' : 'ASC',
            Query: { Status: status, SearchString: filter || undefined },
          },
        },
        // A failed page is said in the grid, in the server's words, with its Try again: no toast says it again.
        { skipLoadingBar: true, notify: false },
      ),
    [api, status, filter],
  );

  // A member's page offers the way back to this list as it is now (its query holds the filters, sort and page).
  const location = useLocation();
  const place = useMemo(() => ({ pathname: location.pathname, search: location.search }), [location.pathname, location.search]);
  const columns = useMemo<GridColumn<MemberRow>[]>(
    () => [
      {
        id: 'FirstName',
        header: t('members.FirstName'),
        accessor: (m) => m.FirstName,
        sortable: true,
        hideable: false,
        cell: (m) =>
          m.UserId ? (
            <Link className={css.link} to={`/users/${encodeURIComponent(m.UserId)}`} state={cameFromState(place, 'support:members.back')}>
              {m.FirstName}
            </Link>
          ) : (
            m.FirstName
          ),
      },
      { id: 'LastName', header: t('members.LastName'), accessor: (m) => m.LastName, sortable: true },
      { id: 'MemberNumber', header: t('members.MemberNumber'), accessor: (m) => m.MemberNumber, sortable: true },
      { id: 'Email', header: t('members.Email'), accessor: (m) => m.Email ?? '', sortable: true },
      { id: 'Brand', header: t('members.Brand'), accessor: (m) => m.Brand },
      {
        id: 'TerminationDate',
        header: t('members.TerminationDate'),
        accessor: (m) => m.TerminationDate ?? '',
        cell: (m) => (m.TerminationDate ? formatDateTime(m.TerminationDate) : ''),
      },
    ],
    [t, place],
  );

  return (
    <div className={`${layoutCss.card} ${css.stack}`}>
      <p>{t('members.intro')}</p>
      <div className={css.row}>
        <NativeSelectField
          label={t('members.statusLabel')}
          value={status}
          options={MEMBER_STATUSES.map((s) => ({ value: s, label: t(`members.${s}`) }))}
          onChange={setStatus}
        />
        <div className={css.field}>
          <label htmlFor={filterId}>{t('members.filter')}</label>
          <input id={filterId} className={css.input} type="search" value={text} maxLength={100} onChange={(e) => setText(e.target.value)} />
        </div>
      </div>
      <DataGrid<MemberRow>
        label={t('members.grid')}
        columns={columns}
        getRowId={(m) => String(m.MemberID)}
        getRowLabel={(m) => `${m.FirstName} ${m.LastName}`}
        fetchPage={fetchPage}
        queryKey={['support', 'members', status, filter]}
        sortable
        pageSizes={SUPPORT_PAGE_SIZES}
        defaultPageSize={SUPPORT_DEFAULT_PAGE_SIZE}
        defaultSort={{ column: 'FirstName', order: 'asc' }}
        stateKey="support-members"
      />
    </div>
  );
}
