import { type DialogSlotProps, useApi, useBrand, useSiteConfig } from '@portal/web';
import { Form, TextField } from '@portal/web/kit';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { AccountApi } from '../../contract';
import * as css from '../shared/account.css';
import { supportEmail } from '../shared/logic';
import { forgotSchema } from '../shared/schemas';
import { AccountModal, Message } from '../shared/ui';

type State = 'idle' | 'sending' | 'sent' | 'error';

/** The forgot-password dialog: POST reset/sendemail; a HasError answer is a failure (spec 01 section 8). */
export default function ForgotPasswordDialog({ isOpen, onOpenChange }: DialogSlotProps) {
  const { t } = useTranslation('account');
  const api = useApi();
  const brand = useBrand();
  const config = useSiteConfig();
  const [state, setState] = useState<State>('idle');

  const send = async ({ UserName }: { UserName: string }) => {
    if (state === 'sending') return;
    setState('sending');
    try {
      // The client rejects a HasError envelope, so only a real success lands here.
      await api.post(AccountApi.resetSendEmail, { UserName }, { notify: false });
      setState('sent');
    } catch {
      setState('error');
    }
  };

  return (
    <AccountModal isOpen={isOpen} onOpenChange={onOpenChange} title={t('forgot.title')}>
      {(close) => (
        <Form schema={forgotSchema} defaultValues={{ UserName: '' }} onSubmit={send} aria-label={t('forgot.title')}>
          <p className={css.muted}>{t('forgot.intro')}</p>
          <TextField name="UserName" label={t('fields.userName')} autoComplete="username" isRequired />
          {state === 'sent' && <Message kind="success">{t('forgot.sent', { email: supportEmail(config.data, brand) })}</Message>}
          {state === 'error' && <Message kind="error">{t('forgot.error')}</Message>}
          <div className={css.actions}>
            <Button className={css.secondary} onPress={close}>
              {t('common.close')}
            </Button>
            <Button type="submit" className={css.primary} isDisabled={state === 'sending'}>
              {state === 'sending' ? t('forgot.submitting') : t('forgot.submit')}
            </Button>
          </div>
        </Form>
      )}
    </AccountModal>
  );
}
