import { formatDateTime, hasAnyRole, parseIsoDay } from '@portal/core';
import { useApi, useRoles } from '@portal/web';
import { Button, DataGrid, DatePickerField, Form, type GridColumn, type PageRequest, useKitForm, useUrlFilters } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { NEW_NOTE_PATH, NOTES_STAFF_ROLES } from '../../access';
import { NOTE_DEFAULT_RANGE_YEARS, NOTE_PAGE_SIZE, NOTE_PAGE_SIZES, type Note, type NoteSearchResult, NotesApi } from '../../contract';
import { isEdited } from '../components/noteEdited';
import { UNREAD_KEY, unreadQuery } from '../components/noteState';
import * as css from '../components/notes.css';

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
/** The default range as the address holds it (from, to): the last 4 years up to today (spec 02 section 9). */
function defaultRange() {
  const to = new Date();
  const from = new Date(to);
  from.setFullYear(to.getFullYear() - NOTE_DEFAULT_RANGE_YEARS);
  return { from: iso(from), to: iso(to) };
}
/** A day from the address: 'YYYY-MM-DD', '' (a date cleared on purpose), else the default. */
const dayOr = (value: string, fallback: string) => (value === '' || (/^\d{4}-\d{2}-\d{2}$/.test(value) && parseIsoDay(value)) ? value : fallback);
const rangeSchema = z
  .object({ DateFrom: z.string().nullable(), DateTo: z.string().nullable() })
  .refine((r) => !r.DateFrom || !r.DateTo || r.DateFrom <= r.DateTo, { path: ['DateTo'], message: 'notes:list.rangeOrder' });

const excerpt = (text: string) => (text.length > 90 ? `${text.slice(0, 89)}…` : text);

/** /notes: My Messages, newest first, 20 a page, the last 4 years unless another range is chosen. */
export default function NotesPage() {
  const { t } = useTranslation('notes');
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The range lives in the address (/notes?from=2024-01-01), as the grid's page and search do: Back from a message,
  // a reload or a shared link show the same list. The form shows it, and is put back to it when the address changes
  // under it (Back, the menu's plain /notes).
  const defaults = useMemo(defaultRange, []);
  const [address, setAddress] = useUrlFilters(defaults);
  const range = useMemo(() => ({ DateFrom: dayOr(address.from, defaults.from), DateTo: dayOr(address.to, defaults.to) }), [address, defaults]);
  const form = useKitForm(rangeSchema, { defaultValues: range });
  useEffect(() => {
    const shown = form.getValues();
    if ((shown.DateFrom ?? '') !== range.DateFrom || (shown.DateTo ?? '') !== range.DateTo) form.reset(range);
  }, [form, range]);
  // The status line's count is the badge's query: each page read sets it (the search answers it), and opening a note
  // makes it stale, so the line is right on a return to the list within the cache's 30 s as well.
  const staff = hasAnyRole(useRoles(), NOTES_STAFF_ROLES);
  const unread = useQuery(unreadQuery(api)).data?.Count;
  const fetchPage = useCallback(
    async (req: PageRequest): Promise<NoteSearchResult> => {
      const result = await api.call(
        NotesApi.search,
        { body: { ...range, Query: req.search || null, PageIndex: req.pageIndex, PageSize: req.pageSize } },
        // A failed page is said in the grid, in the server's words, with its Try again: no toast says it again.
        { skipLoadingBar: true, notify: false },
      );
      queryClient.setQueryData(UNREAD_KEY, { Count: result.UnreadCount });
      return result;
    },
    [api, range, queryClient],
  );
  const columns = useMemo<GridColumn<Note>[]>(
    () => [
      {
        id: 'CreatedDate',
        header: t('list.date'),
        accessor: (n) => n.CreatedDate,
        cell: (n) => (
          <>
            <time dateTime={n.CreatedDate}>{formatDateTime(n.CreatedDate)}</time>
            {isEdited(n) && <span className={css.muted}> {t('edited', { date: formatDateTime(n.UpdatedDate) })}</span>}
          </>
        ),
      },
      { id: 'CreatedBy', header: t('list.from'), accessor: (n) => `${n.CreatedBy} (${t(`kind.${n.CreatedByKind}`)})` },
      {
        id: 'NoteText',
        header: t('list.message'),
        accessor: (n) => n.NoteText,
        cell: (n) => (
          <Link to={`/notes/${n.NoteID}`} className={n.IsRead ? undefined : css.unread}>
            {excerpt(n.NoteText)}
            {n.IsRead ? null : ` (${t('list.unread')})`}
          </Link>
        ),
      },
      { id: 'Attachments', header: t('list.files'), accessor: (n) => n.Attachments.length, align: 'end' },
    ],
    [t],
  );
  return (
    <div className={css.stack}>
      <Form leaveGuard={false} form={form} onSubmit={(v) => setAddress({ from: v.DateFrom ?? '', to: v.DateTo ?? '' })} aria-label={t('list.range')}>
        <div className={css.row}>
          <DatePickerField name="DateFrom" label={t('list.dateFrom')} />
          <DatePickerField name="DateTo" label={t('list.dateTo')} />
          <Button type="submit">{t('list.apply')}</Button>
        </div>
      </Form>
      <p role="status" className={css.muted}>
        {unread === undefined ? null : t(staff ? 'unreadStaff' : 'unread', { count: unread })}
      </p>
      <DataGrid<Note>
        label={t('list.label')}
        columns={columns}
        getRowId={(n) => String(n.NoteID)}
        getRowLabel={(n) => t('note.label', { author: n.CreatedBy, date: formatDateTime(n.CreatedDate) })}
        fetchPage={fetchPage}
        queryKey={['notes', 'list', range]}
        stateKey="notes"
        searchable
        pageSizes={NOTE_PAGE_SIZES}
        defaultPageSize={NOTE_PAGE_SIZE}
        actions={
          <Button variant="primary" onPress={() => navigate(NEW_NOTE_PATH)}>
            {t('list.new')}
          </Button>
        }
      />
    </div>
  );
}
