import type { PasswordRule } from '@portal/core';
import { queryKeys, useApi, useBrand } from '@portal/web';
import { Button, ButtonGroup, Dialog, type DialogProps, EmailField, Form, Message, PasswordField, TextField, useKitForm } from '@portal/web/kit';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { AccountApi } from '../../contract';
import * as css from './account.css';
import { registerFormBody, registrationReady } from './logic';
import { registerSchema } from './schemas';
import { usePasswordPolicy } from './ui';

type State = { kind: 'idle' } | { kind: 'submitting' } | { kind: 'error'; message: string } | { kind: 'done' };

/** The register dialog of the login screen (spec 01 sections 4, 5 and 8). */
export default function RegisterDialog({ isOpen, onOpenChange }: Pick<DialogProps, 'isOpen' | 'onOpenChange'>) {
  const { t } = useTranslation('account');
  const policy = usePasswordPolicy();
  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t('register.title')} isDismissable={false}>
      {(close) =>
        policy.data ? (
          <RegisterForm rules={policy.data} close={close} />
        ) : policy.isError ? (
          // Without the rules the checklist would be empty: the error in place of the form (as on the account page).
          <Message kind="error">{t('common.policyError')}</Message>
        ) : (
          <p aria-busy="true">{t('common.loading')}</p>
        )
      }
    </Dialog>
  );
}

function RegisterForm({ rules, close }: { rules: readonly PasswordRule[]; close: () => void }) {
  const { t } = useTranslation('account');
  const api = useApi();
  const brand = useBrand();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const schema = useMemo(() => registerSchema(rules), [rules]);
  const form = useKitForm(schema, { defaultValues: { UserName: '', Password: '', FirstName: '', LastName: '' } });
  const [state, setState] = useState<State>({ kind: 'idle' });

  const submit = async (values: { UserName: string; Password: string; FirstName: string; LastName: string }) => {
    if (!registrationReady(values) || state.kind === 'submitting') return; // not sent, silently, until all four are present
    const body = registerFormBody(values);
    setState({ kind: 'submitting' });
    try {
      await api.call(AccountApi.register, { body }, { notify: false });
    } catch (e) {
      setState({ kind: 'error', message: (e as Error).message });
      return;
    }
    if (!brand.registration.signInOnRegister) {
      setState({ kind: 'done' });
      return;
    }
    // Assist: the account is active at once; sign in and go home.
    try {
      await api.signIn(body.UserName, body.Password);
    } catch (e) {
      setState({ kind: 'error', message: (e as Error).message });
      return;
    }
    queryClient.removeQueries({ queryKey: queryKeys.identity });
    close();
    navigate('/', { replace: true });
  };

  // The form is gone: focus goes to the outcome, and the dialog's × button closes it.
  if (state.kind === 'done') {
    return (
      <Message kind="success" autoFocus>
        {t('register.checkEmail')}
      </Message>
    );
  }

  return (
    <Form form={form} onSubmit={submit} aria-label={t('register.title')}>
      <p className={css.muted}>{t('register.intro', { brand: brand.displayName })}</p>
      <EmailField name="UserName" label={t('fields.userName')} autoComplete="username" isRequired />
      <PasswordField name="Password" label={t('fields.password')} rules={rules} autoComplete="new-password" isRequired />
      <TextField name="FirstName" label={t('fields.firstName')} autoComplete="given-name" maxLength={100} isRequired />
      <TextField name="LastName" label={t('fields.lastName')} autoComplete="family-name" maxLength={100} isRequired />
      {state.kind === 'error' && <Message kind="error">{state.message}</Message>}
      <ButtonGroup>
        <Button onPress={close}>{t('common.cancel')}</Button>
        <Button type="submit" variant="primary" isPending={state.kind === 'submitting'} pendingLabel={t('register.submitting')}>
          {t('register.submit')}
        </Button>
      </ButtonGroup>
    </Form>
  );
}
