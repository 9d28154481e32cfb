import { failureWords, loadFailure, showToast, useApi } from '@portal/web';
import { Dialog, LoadFailed, Message } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type BankFormWire, BankingApi, type BankProvider, BankStatus, type LinkResult } from '../../contract';
import { BankForm, type FilledForm, oneForm } from './BankForm';

/** An MFA form with no value in any field is not posted (spec 01 section 8). */
export const isEmptyForm = (f: FilledForm) => f.Fields.every((x) => x.Value.trim() === '');

/**
 * Spec 02 section 4, bank add: the institution's login form, then SUCCESS (close, mark the bank added), FAILED (the
 * message plus the status as an error; the dialog stays) or any other result, a further multi-factor step that
 * replaces the form.
 */
export function AddBankDialog({ provider, onClose, onAdded }: { provider: BankProvider; onClose: () => void; onAdded: (p: BankProvider) => void }) {
  const { t } = useTranslation('banking');
  const api = useApi();
  const details = useQuery({
    queryKey: ['banking', 'provider', provider.ProviderId],
    queryFn: () => api.call(BankingApi.provider, { body: { ProviderId: provider.ProviderId }, query: { version: '1' } }, { notify: false }),
  });
  const [step, setStep] = useState<{ form: BankFormWire; providerAccountId: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const handle = (r: LinkResult) => {
    if (r.Status === BankStatus.Success) {
      showToast({ kind: 'success', message: t('add.added', { name: provider.Name }) });
      onAdded(provider);
      onClose();
      return;
    }
    if (r.Status === BankStatus.Failed) {
      const text = `${r.Message} (${r.Status})`;
      setFailure(text);
      showToast({ kind: 'error', message: text });
      return;
    }
    const next = oneForm(r.Form);
    setFailure(null);
    if (next && r.ProviderAccountId) setStep({ form: next, providerAccountId: r.ProviderAccountId });
  };

  const submit = async (filled: FilledForm) => {
    if (step && isEmptyForm(filled)) {
      showToast({ kind: 'error', message: t('messages.mfaEmpty') });
      return;
    }
    setBusy(true);
    try {
      const r = step
        ? await api.call(BankingApi.mfa, {
            query: { version: '1' },
            body: { ProviderId: provider.ProviderId, ProviderAccountId: step.providerAccountId, LoginForm: filled },
          })
        : await api.call(BankingApi.add, { query: { version: '1' }, body: { ProviderId: provider.ProviderId, ProviderAccountId: null, LoginForm: filled } });
      handle(r);
    } catch {
      // The client has shown the server's message (or 'Error while getting data from server').
    } finally {
      setBusy(false);
    }
  };

  const form = step?.form ?? oneForm(details.data?.Form);
  return (
    <Dialog isOpen onOpenChange={(open) => !open && onClose()} title={t('add.dialogTitle', { name: provider.Name })} isDismissable={false}>
      {(details.isPending || (details.isError && details.isFetching)) && <p aria-busy="true">{t('loading')}</p>}
      {details.isError &&
        !details.isFetching &&
        // A 404: the aggregator has no such bank (a retry would not find it either); else a failure a retry may cure.
        (loadFailure(details.error) === 'notFound' ? (
          <Message kind="error">{t('add.providerNotFound')}</Message>
        ) : (
          <LoadFailed message={failureWords(details.error, t('messages.serverError'))} onRetry={() => void details.refetch()} />
        ))}
      {failure && (
        <Message kind="error" data-testid="bank-add-failure">
          {failure}
        </Message>
      )}
      {form && (
        <BankForm
          key={step ? `mfa-${step.form.FormId}-${step.providerAccountId}` : 'login'}
          form={form}
          busy={busy}
          submitLabel={step ? t('add.continue') : t('add.submit')}
          onSubmit={(f) => void submit(f)}
        />
      )}
    </Dialog>
  );
}
