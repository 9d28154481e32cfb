import { formatCurrency, formatIsoDayText } from '@portal/core';
import { displayStatus } from '@portal/plugin-claims/contract';
import { FIELD_SELECTOR, firstFieldIn, focusInOrLost, isFocusFree, useApi, useLookups } from '@portal/web';
import {
  Button,
  ConfirmDialog,
  DataGrid,
  DatePickerField,
  FilePickerField,
  Form,
  type GridColumn,
  lookupNames,
  Message,
  MoneyField,
  Panel,
  saveBlob,
  useLookupLabel,
} from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ReimbursementApi } from '../../contract';
import {
  checkDateAndAmount,
  checkFiles,
  ReimbursementMessages as M,
  MAX_FILES,
  REIMBURSEMENT_EXTENSIONS,
  REQUEST_PAGE_SIZE,
  REQUEST_PAGE_SIZES,
} from '../../rules';
import { duplicateOf, failureText } from '../components/outcome';
import * as css from '../components/reimbursement.css';
import { afterSend, fileIdentity, planSend, type SentRequest } from '../components/request';
import { groupRequests, type ReimbursementRequest } from '../components/requests';
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
/** The request form's id: focus looks in it, drawn anew after each request sent. */
const FORM_ID = 'reimbursement-request';
/** The form's fields as focus looks for its first: a date's segments besides the inputs and buttons. */
const FIRST_FIELD = `[role="spinbutton"], ${FIELD_SELECTOR}`;
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
  /** Files of the last request that could not be sent. */
  const [notSent, setNotSent] = useState(0);
  /**
   * The server's message once every file of the request was sent (the request submitted, with its files counted), and
   * whether it takes focus: the form it is shown in is drawn anew, empty, in place of the one the Send was pressed in.
   */
  const [submitted, setSubmitted] = useState<{ text: string; focus: boolean } | null>(null);
  /** Chosen files the server already took under this request (a Send after a partial failure does not send them again). */
  const [alreadySent, setAlreadySent] = useState(0);
  /** The request a Send left unfinished: its BatchId, sent files and files' keys, kept until the form resets (see planSend). */
  const request = useRef<SentRequest | null>(null);
  const [formKey, setFormKey] = useState(0);
  /** The form drawn anew with no message to say (nothing was left to send): focus goes to its first field. */
  const focusFirstField = useRef(false);
  useEffect(() => {
    if (!focusFirstField.current) return;
    focusFirstField.current = false;
    const form = document.getElementById(FORM_ID);
    if (!isFocusFree(document.activeElement, document.body, null) || !form) return;
    firstFieldIn(form, FIRST_FIELD)?.focus();
  }, [formKey]);
  /** The request looks like one already sent (the server's 409): the question "Send anyway?" and its answer. */
  const [duplicate, setDuplicate] = useState<{ message: string; answer: (send: boolean) => void } | null>(null);
  /** The member chose not to send a request that looked like one already sent. */
  const [declined, setDeclined] = useState(false);
  const list = useQuery({ queryKey: ['reimbursement', 'list'], queryFn: () => api.call(ReimbursementApi.list, undefined, { notify: false }) });
  const requests = useMemo(() => groupRequests(list.data ?? []), [list.data]);
  const statuses = useLookups('Claim Status');
  const lookupLabel = useLookupLabel();
  const statusNames = useMemo(() => lookupNames(statuses, lookupLabel), [statuses, lookupLabel]);
  /** Resolves true when the member says to send it anyway, false when they do not. */
  const askDuplicate = (message: string) => new Promise<boolean>((resolve) => setDuplicate({ message, answer: resolve }));

  const update = (key: string, change: Partial<QueuedFile>) => setQueue((q) => q.map((f) => (f.key === key ? { ...f, ...change } : f)));

  const resetForm = () => {
    request.current = null;
    setAlreadySent(0);
    setFormKey((k) => k + 1);
  };

  async function submit(v: Values) {
    setNotSent(0);
    setSubmitted(null);
    setDeclined(false);
    const fields = { serviceDate: v.ServiceDate ?? '', amount: v.Amount };
    // A Send after some files failed sends only those, under the same BatchId, each with the IdempotencyKey it had: the
    // sent ones are on the request's bill, and one whose answer was lost on the network is answered, not stored again.
    const plan = planSend(request.current, fields, v.Files, () => crypto.randomUUID());
    const batch = plan.batchId;
    setAlreadySent(plan.alreadySent.length);
    if (plan.toSend.length === 0) {
      focusFirstField.current = focusInOrLost(document.getElementById(FORM_ID));
      resetForm();
      return;
    }
    setBusy(true);
    const items = plan.toSend.map((file, i) => ({ file, key: `${i}-${file.name}` }));
    setQueue([
      ...plan.alreadySent.map((file, i) => ({
        key: `sent-${i}-${file.name}`,
        name: file.name,
        size: file.size,
        sent: file.size,
        state: 'alreadySent' as const,
      })),
      ...items.map(({ file, key }) => ({ key, name: file.name, size: file.size, sent: 0, state: 'waiting' as const })),
    ]);
    const sentNow: File[] = [];
    let failed = 0;
    let said: string | null = null;
    /** The member said to send this request although it looks like one already sent. */
    let allowDuplicate = false;
    let stopped = false;
    for (const { file, key } of items) {
      if (stopped) {
        update(key, { state: 'failed', error: t('duplicate.notSent') });
        continue;
      }
      try {
        update(key, { state: 'uploading' });
        const uploadId = await uploadFile(api, file, (sent) => update(key, { sent }));
        update(key, { state: 'checking', sent: file.size });
        const ext = file.name.slice(file.name.lastIndexOf('.') + 1).toLowerCase();
        const create = () =>
          api.call(
            ReimbursementApi.create,
            {
              body: {
                type: file.type,
                name: file.name,
                ext,
                UploadId: uploadId,
                BatchId: batch,
                IdempotencyKey: plan.keys[fileIdentity(file)],
                reimbursement: { type: file.type, FileName: file.name, Extension: ext, ServiceDate: v.ServiceDate ?? '', Amount: v.Amount },
                ...(allowDuplicate ? { AllowDuplicate: true } : {}),
              },
            },
            // The server's MsgText is the success message (the request submitted, with its files counted so far): the
            // page says the last one once every file went, in place. A refusal shows beside its file.
            { notify: false, onMessage: (m) => (said = m) },
          );
        try {
          await create();
        } catch (e) {
          // The first file of a request that looks like one already sent: nothing was stored and the upload is kept, so
          // the member is asked, and the same create goes again with AllowDuplicate (the rest of the request with it).
          if (!duplicateOf(e)) throw e;
          if (!(await askDuplicate(failureText(e, t('rules.unexpected'))))) {
            stopped = true;
            await api.call(ReimbursementApi.uploadCancel, { params: { id: uploadId } }, { notify: false }).catch(() => undefined);
            await forgetUpload(file);
            update(key, { state: 'failed', error: t('duplicate.notSent') });
            continue;
          }
          allowDuplicate = true;
          await create();
        }
        await forgetUpload(file);
        sentNow.push(file);
        update(key, { state: 'done' });
      } catch (e) {
        failed++;
        // The server words its refusals in the user's language; anything else is the spec's unexpected error.
        update(key, { state: 'failed', error: failureText(e, t('rules.unexpected')) });
      }
    }
    setBusy(false);
    request.current = afterSend(plan, fields, sentNow);
    await queryClient.invalidateQueries({ queryKey: ['reimbursement', 'list'] });
    if (stopped) setDeclined(true);
    else if (failed === 0) {
      const focus = focusInOrLost(document.getElementById(FORM_ID));
      if (said) setSubmitted({ text: said, focus });
      else focusFirstField.current = focus;
      resetForm();
    } else setNotSent(failed);
    // Files that failed or were declined (said above): rejected, the kit Form counts the request as unsaved (leaving asks).
    if (stopped || failed > 0) throw new Error(stopped ? 'request declined as a duplicate' : `${failed} file(s) not sent`);
  }

  const download = async (id: number) => {
    const file = await api.call(ReimbursementApi.download, { params: { id } });
    saveBlob(file.blob, file.fileName);
  };
  const statusText = (r: ReimbursementRequest) =>
    r.ClaimStatusID === null ? '' : (statusNames.get(displayStatus(r.ClaimStatusID)) ?? r.ClaimStatus ?? String(r.ClaimStatusID));
  const requestLabel = (r: ReimbursementRequest) => t('list.request', { date: formatIsoDayText(r.ServiceDate), amount: formatCurrency(r.Amount) });

  // One row per request (its files under it, each downloadable in the row's details), with its bill's status and payment.
  const columns: GridColumn<ReimbursementRequest>[] = [
    { id: 'ServiceDate', header: t('columns.serviceDate'), accessor: (r) => r.ServiceDate, cell: (r) => formatIsoDayText(r.ServiceDate) },
    { id: 'Amount', header: t('columns.amount'), accessor: (r) => r.Amount, cell: (r) => formatCurrency(r.Amount), align: 'end' },
    {
      id: 'Files',
      header: t('columns.files'),
      accessor: (r) => r.Files.map((f) => f.Name).join(', '),
      cell: (r) => (
        <ul className={css.fileList}>
          {r.Files.map((f) => (
            <li key={f.Id} className={css.fileName}>
              {f.Name}
            </li>
          ))}
        </ul>
      ),
    },
    { id: 'ClaimNumber', header: t('columns.claim'), accessor: (r) => r.ClaimNumber ?? '' },
    { id: 'Status', header: t('columns.status'), accessor: statusText },
    {
      id: 'PaidAmount',
      header: t('columns.paid'),
      accessor: (r) => r.PaidAmount,
      cell: (r) => (r.PaidAmount === null ? '' : formatCurrency(r.PaidAmount)),
      align: 'end',
    },
    { id: 'PaidDate', header: t('columns.paidDate'), accessor: (r) => r.PaidDate ?? '', cell: (r) => formatIsoDayText(r.PaidDate) },
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
          id={FORM_ID}
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
          {alreadySent > 0 && <Message kind="info">{t('alreadySent', { count: alreadySent })}</Message>}
          {notSent > 0 && <Message kind="error">{t('someFailed', { count: notSent })}</Message>}
          {declined && <Message kind="info">{t('duplicate.declined')}</Message>}
          {submitted && (
            <Message kind="success" autoFocus={submitted.focus}>
              {submitted.text}
            </Message>
          )}
          <div>
            <Button type="submit" variant="primary" isPending={busy} pendingLabel={t('form.sending')}>
              {t('form.submit')}
            </Button>
          </div>
        </Form>
      </Panel>
      <DataGrid<ReimbursementRequest>
        label={t('list.title')}
        columns={columns}
        getRowId={(r) => r.BatchId}
        getRowLabel={requestLabel}
        renderExpanded={(r) => (
          <ul className={css.fileList} aria-label={t('list.files', { request: requestLabel(r) })}>
            {r.Files.map((f) => (
              <li key={f.Id} className={css.fileRow}>
                <span className={css.fileName}>{f.Name}</span>
                <Button size="small" aria-label={t('download', { name: f.Name })} onPress={() => download(f.Id)}>
                  {t('downloadShort')}
                </Button>
              </li>
            ))}
          </ul>
        )}
        data={requests}
        isLoading={list.isPending}
        isError={list.isError}
        onRetry={() => list.refetch()}
        sortable
        pageable
        pageSizes={REQUEST_PAGE_SIZES}
        defaultPageSize={REQUEST_PAGE_SIZE}
        stateKey="reimbursement.requests"
      />
      <ConfirmDialog
        isOpen={duplicate !== null}
        onOpenChange={(open) => {
          if (open) return;
          duplicate?.answer(false);
          setDuplicate(null);
        }}
        title={t('duplicate.title')}
        message={duplicate?.message ?? ''}
        confirmLabel={t('duplicate.confirm')}
        cancelLabel={t('duplicate.cancel')}
        onConfirm={() => duplicate?.answer(true)}
      />
    </div>
  );
}
