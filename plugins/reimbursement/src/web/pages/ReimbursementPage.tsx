import { formatCurrency, formatIsoDayText } from '@portal/core';
import { ApiCallError, useApi } from '@portal/web';
import { Button, DataGrid, DatePickerField, FilePickerField, Form, type GridColumn, Message, MoneyField, Panel, saveBlob } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { type Reimbursement, ReimbursementApi } from '../../contract';
import { checkDateAndAmount, checkFiles, ReimbursementMessages as M, MAX_FILES, REIMBURSEMENT_EXTENSIONS } from '../../rules';
import * as css from '../components/reimbursement.css';
import { type QueuedFile, UploadQueue } from '../components/UploadQueue';
import { forgetUpload, uploadFile } from '../components/uploader';

/** The spec's messages of the form's own checks as keys of this plugin's strings (the form shows them in the user's language). */
const KEYS: Record<string, string> = {
  [M.noFile]: 'reimbursement:rules.noFile',
  [M.dateAndAmount]: 'reimbursement:rules.dateAndAmount',
  [M.futureDate]: 'reimbursement:rules.futureDate',
  [M.extension]: 'reimbursement:rules.extension',
  [M.tooMany]: 'reimbursement:rules.tooMany',
  [M.tooLarge]: 'reimbursement:rules.tooLarge',
};
const keyOf = (message: string) => KEYS[message] ?? message;
const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

const schema = z.object({ ServiceDate: z.string().nullable(), Amount: z.string(), Files: z.array(z.custom<File>()) }).superRefine((v, ctx) => {
  const files = checkFiles(v.Files);
  if (files) ctx.addIssue({ code: 'custom', path: ['Files'], message: keyOf(files) });
  const rule = checkDateAndAmount(v.ServiceDate ?? '', v.Amount, localToday());
  if (rule) ctx.addIssue({ code: 'custom', path: [rule === M.futureDate || !v.ServiceDate ? 'ServiceDate' : 'Amount'], message: keyOf(rule) });
});
type Values = z.infer<typeof schema>;

/**
 * /reimbursement: a request (service date, amount and up to 10 receipts) whose files upload one after another with a
 * progress bar each, resumably; then the member's reimbursements with their files.
 */
export default function ReimbursementPage() {
  const { t } = useTranslation('reimbursement');
  const api = useApi();
  const queryClient = useQueryClient();
  const [queue, setQueue] = useState<QueuedFile[]>([]);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [formKey, setFormKey] = useState(0);
  const list = useQuery({ queryKey: ['reimbursement', 'list'], queryFn: () => api.call(ReimbursementApi.list) });

  const update = (key: string, change: Partial<QueuedFile>) => setQueue((q) => q.map((f) => (f.key === key ? { ...f, ...change } : f)));

  async function submit(v: Values) {
    setOutcome(null);
    setBusy(true);
    const batch = crypto.randomUUID();
    const items = v.Files.map((file, i) => ({ file, key: `${i}-${file.name}` }));
    setQueue(items.map(({ file, key }) => ({ key, name: file.name, size: file.size, sent: 0, state: 'waiting' })));
    let failed = 0;
    for (const { file, key } of items) {
      try {
        update(key, { state: 'uploading' });
        const uploadId = await uploadFile(api, file, (sent) => update(key, { sent }));
        update(key, { state: 'checking', sent: file.size });
        const ext = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
        await api.call(
          ReimbursementApi.create,
          {
            body: {
              type: file.type,
              name: file.name,
              ext,
              UploadId: uploadId,
              BatchId: batch,
              reimbursement: { type: file.type, FileName: file.name, Extension: ext, ServiceDate: v.ServiceDate ?? '', Amount: v.Amount },
            },
          },
          { notify: false },
        );
        forgetUpload(file);
        update(key, { state: 'done' });
      } catch (e) {
        failed++;
        // The server words its refusals in the user's language; anything else is the unexpected error.
        update(key, { state: 'failed', error: e instanceof ApiCallError && e.status < 500 ? e.message : t('rules.unexpected') });
      }
    }
    setBusy(false);
    await queryClient.invalidateQueries({ queryKey: ['reimbursement', 'list'] });
    if (failed === 0) {
      setOutcome({ kind: 'success', text: t('created', { count: items.length }) });
      setFormKey((k) => k + 1);
    } else setOutcome({ kind: 'error', text: t('someFailed', { count: failed }) });
  }

  const columns: GridColumn<Reimbursement>[] = [
    { id: 'ServiceDate', header: t('columns.serviceDate'), cell: (r) => formatIsoDayText(r.ServiceDate) },
    { id: 'Amount', header: t('columns.amount'), cell: (r) => formatCurrency(r.Amount), align: 'end' },
    { id: 'Name', header: t('columns.name'), cell: (r) => r.Name },
    { id: 'ClaimNumber', header: t('columns.claim'), cell: (r) => r.ClaimNumber ?? '' },
    {
      id: 'download',
      header: t('columns.file'),
      cell: (r) => (
        <Button
          size="small"
          aria-label={t('download', { name: r.Name })}
          onPress={async () => {
            const file = await api.call(ReimbursementApi.download, { params: { id: r.Id } });
            saveBlob(file.blob, file.fileName);
          }}
        >
          {t('downloadShort')}
        </Button>
      ),
    },
  ];

  return (
    <div className={css.page}>
      <Panel title={t('form.title')}>
        <p>{t('form.intro', { max: MAX_FILES })}</p>
        <Form
          key={formKey}
          schema={schema}
          defaultValues={{ ServiceDate: null, Amount: '', Files: [] }}
          onSubmit={(v) => submit(v as Values)}
          aria-label={t('form.title')}
        >
          <div className={css.fields}>
            <DatePickerField name="ServiceDate" label={t('form.serviceDate')} isRequired />
            <MoneyField name="Amount" label={t('form.amount')} isRequired />
          </div>
          <FilePickerField
            name="Files"
            label={t('form.files')}
            description={t('form.filesHelp', { max: MAX_FILES, types: REIMBURSEMENT_EXTENSIONS.join(', ') })}
            acceptedFileTypes={REIMBURSEMENT_EXTENSIONS.map((e) => `.${e}`)}
            allowsMultiple
          />
          <UploadQueue files={queue} />
          {outcome && <Message kind={outcome.kind}>{outcome.text}</Message>}
          <div>
            <Button type="submit" variant="primary" isPending={busy} pendingLabel={t('form.sending')}>
              {t('form.submit')}
            </Button>
          </div>
        </Form>
      </Panel>
      <DataGrid<Reimbursement>
        label={t('list.title')}
        columns={columns}
        getRowId={(r) => String(r.Id)}
        data={list.data ?? []}
        isLoading={list.isPending}
        isError={list.isError}
        onRetry={() => list.refetch()}
        sortable
        pageable
        defaultPageSize={20}
        stateKey="reimbursement.list"
      />
    </div>
  );
}
