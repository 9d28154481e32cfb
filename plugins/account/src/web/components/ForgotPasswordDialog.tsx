import { useApi, useBrand, useSiteConfig } from '@portal/web';
import { Button, ButtonGroup, Dialog, type DialogProps, Form, Message, TextField } from '@portal/web/kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountApi } from '../../contract';
import * as css from './account.css';
import { forgotFailureText, supportEmail } from './logic';
import { forgotSchema } from './schemas';

type State = 'idle' | 'sending' | 'sent' | 'error';

/** The forgot-password dialog: POST reset/sendemail; a HasError answer is a failure (spec 01 section 8). */
export default function ForgotPasswordDialog({ isOpen, onOpenChange }: Pick<DialogProps, 'isOpen' | 'onOpenChange'>) {
  const { t } = useTranslation('account');
  const api = useApi();
  const brand = useBrand();
  const config = useSiteConfig();
  const [state, setState] = useState<State>('idle');
  // The server's refusal to show instead of the spec's error text (too many mails asked for: wait, not a wrong address).
  const [refusal, setRefusal] = useState<string | null>(null);

  const send = async ({ UserName }: { UserName: string }) => {
    if (state === 'sending') return;
    setState('sending');
    setRefusal(null);
    try {
      // The client rejects a HasError envelope, so only a real success lands here.
      await api.call(AccountApi.resetSendEmail, { body: { UserName } }, { notify: false });
      setState('sent');
    } catch (e) {
      setRefusal(forgotFailureText(e));
      setState('error');
    }
  };

  return (
    // The dialog's own × button closes it; the form needs no Close of its own.
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t('forgot.title')}>
      <Form leaveGuard={false} schema={forgotSchema} defaultValues={{ UserName: '' }} onSubmit={send} aria-label={t('forgot.title')}>
        <p className={css.muted}>{t('forgot.intro')}</p>
        <TextField name="UserName" label={t('fields.userName')} autoComplete="username" isRequired />
        {state === 'sent' && <Message kind="success">{t('forgot.sent', { email: supportEmail(config.data, brand) })}</Message>}
        {state === 'error' && <Message kind="error">{refusal ?? t('forgot.error')}</Message>}
        <ButtonGroup>
          <Button type="submit" variant="primary" isPending={state === 'sending'} pendingLabel={t('forgot.submitting')}>
            {t('forgot.submit')}
          </Button>
        </ButtonGroup>
      </Form>
    </Dialog>
  );
}
