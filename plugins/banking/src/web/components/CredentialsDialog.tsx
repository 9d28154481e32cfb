import { showToast, useApi, useKernel } from '@portal/web';
import { Dialog, Message } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BankingApi, BankStatus, type LinkedBank } from '../../contract';
import { BankForm, type FilledForm, oneForm } from './BankForm';

/**
 * The credential-change dialog: the institution's login form again. SUCCESS closes it (the server's 'Account
 * credentials updated successfuly.'), takes the session's fresh tokens (the DeactivateBank marker is gone, without a
 * new sign-in) and reloads the banks; FAILED shows as danger and keeps the dialog.
 */
export function CredentialsDialog({ bank, onClose }: { bank: LinkedBank; onClose: () => void }) {
  const { t } = useTranslation('banking');
  const api = useApi();
  const { session } = useKernel();
  const queryClient = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const details = useQuery({
    queryKey: ['banking', 'provider', bank.ProviderId],
    queryFn: () => api.call(BankingApi.provider, { body: { ProviderId: bank.ProviderId }, query: { version: '1' } }),
  });
  const submit = async (filled: FilledForm) => {
    setBusy(true);
    try {
      const r = await api.call(BankingApi.change, { body: { ProviderId: bank.ProviderId, ProviderAccountId: bank.ProviderAccountId, LoginForm: filled } });
      if (r.Status === BankStatus.Success) {
        if (r.Token) session.saveTokens(r.Token);
        await queryClient.invalidateQueries({ queryKey: ['kernel'] });
        await queryClient.invalidateQueries({ queryKey: ['banking', 'accounts'] });
        onClose();
        return;
      }
      setFailure(`${r.Message} (${r.Status})`);
      showToast({ kind: 'error', message: r.Message });
    } catch {
      // The client has shown the server's message.
    } finally {
      setBusy(false);
    }
  };
  const form = oneForm(details.data?.Form);
  return (
    <Dialog isOpen onOpenChange={(open) => !open && onClose()} title={t('change.title', { name: bank.Name })} isDismissable={false}>
      {details.isPending && <p aria-busy="true">{t('loading')}</p>}
      {failure && (
        <Message kind="error" data-testid="bank-change-failure">
          {failure}
        </Message>
      )}
      {form && <BankForm form={form} busy={busy} submitLabel={t('change.submit')} onSubmit={(f) => void submit(f)} />}
    </Dialog>
  );
}
