import { formatDateTime } from '@portal/core';
import { useApi } from '@portal/web';
import { Button, DataGrid, DatePickerField, Form, type GridColumn, type PageRequest } from '@portal/web/kit';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { z } from 'zod';
import { NEW_NOTE_PATH } from '../../access';
import { NOTE_DEFAULT_RANGE_YEARS, NOTE_PAGE_SIZE, NOTE_PAGE_SIZES, type Note, type NoteSearchResult, NotesApi } from '../../contract';
import * as css from '../components/notes.css';

const iso = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
/** The default range: the last 4 years up to today (spec 02 section 9). */
function defaultRange() {
  const to = new Date();
  const from = new Date(to);
  from.setFullYear(to.getFullYear() - NOTE_DEFAULT_RANGE_YEARS);
  return { DateFrom: iso(from), DateTo: iso(to) };
}
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
  const [range, setRange] = useState(defaultRange);
  const [unread, setUnread] = useState(0);
  const fetchPage = useCallback(
    async (req: PageRequest): Promise<NoteSearchResult> => {
      const result = await api.call(
        NotesApi.search,
        { body: { ...range, Query: req.search || null, PageIndex: req.pageIndex, PageSize: req.pageSize } },
        { skipLoadingBar: true },
      );
      setUnread(result.UnreadCount);
      void queryClient.invalidateQueries({ queryKey: ['notes', 'unread'] });
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
        cell: (n) => <time dateTime={n.CreatedDate}>{formatDateTime(n.CreatedDate)}</time>,
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
      <Form
        schema={rangeSchema}
        defaultValues={range}
        onSubmit={(v) => setRange({ DateFrom: v.DateFrom ?? '', DateTo: v.DateTo ?? '' })}
        aria-label={t('list.range')}
      >
        <div className={css.row}>
          <DatePickerField name="DateFrom" label={t('list.dateFrom')} />
          <DatePickerField name="DateTo" label={t('list.dateTo')} />
          <Button type="submit">{t('list.apply')}</Button>
        </div>
      </Form>
      <p role="status" className={css.muted}>
        {t('unread', { count: unread })}
      </p>
      <DataGrid<Note>
        label={t('list.label')}
        columns={columns}
        getRowId={(n) => String(n.NoteID)}
        getRowLabel={(n) => t('note.label', { author: n.CreatedBy, date: formatDateTime(n.CreatedDate) })}
        fetchPage={fetchPage}
        queryKey={['notes', 'list', range]}
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
