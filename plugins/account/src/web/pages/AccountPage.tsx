import type { PasswordRule } from '@portal/core';
import { useApi } from '@portal/web';
import { Button, ButtonGroup, EmailField, Form, Message, Panel, PasswordField, useKitForm } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccountApi } from '../../contract';
import * as css from '../components/account.css';
import { questionsPayload } from '../components/logic';
import { QuestionFields } from '../components/QuestionFields';
import { changeEmailSchema, changePasswordSchema, emptyQuestions, questionsSchema } from '../components/schemas';
import { accountKeys, fetchQuestions, usePasswordPolicy } from '../components/ui';

/** /account: the user account page, change password and security questions (spec 01 section 2). */
export default function AccountPage() {
  const { t } = useTranslation('account');
  return (
    <>
      <p className={css.muted}>{t('page.intro')}</p>
      <div className={css.sections}>
        <PasswordSection />
        <SecurityQuestions />
        <ChangeEmail />
      </div>
    </>
  );
}

/** A section whose data failed to load: said at once (an alert) with a Try again that asks for it anew. */
function LoadError({ text, onRetry, 'data-testid': testId }: { text: string; onRetry: () => void; 'data-testid'?: string }) {
  const { t } = useTranslation('account');
  return (
    <Message kind="error" data-testid={testId}>
      <span>{text}</span>{' '}
      <Button size="small" onPress={onRetry}>
        {t('common.retry')}
      </Button>
    </Message>
  );
}

/**
 * The change-password form once the server's password rules are in. Without them the checklist would be empty and a
 * password the rules refuse could be sent, so a failure to load them shows the error, with a Try again, in place of the form.
 */
function PasswordSection() {
  const { t } = useTranslation('account');
  const policy = usePasswordPolicy();
  if (policy.data) return <ChangePassword rules={policy.data} />;
  // A retry after a failure reads as loading until it answers (the query's status stays 'error' meanwhile).
  if (policy.isError && !policy.isFetching)
    return (
      <Panel title={t('password.title')}>
        <LoadError text={t('common.policyLoadError')} onRetry={() => void policy.refetch()} data-testid="password-policy-error" />
      </Panel>
    );
  return <p aria-busy="true">{t('common.loading')}</p>;
}

const emptyPasswords = { OldPassword: '', Password: '', ConfirmPassword: '' };

function ChangePassword({ rules }: { rules: readonly PasswordRule[] }) {
  const { t } = useTranslation('account');
  const api = useApi();
  const schema = useMemo(() => changePasswordSchema(rules), [rules]);
  const form = useKitForm(schema, { defaultValues: emptyPasswords });
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (values: typeof emptyPasswords) => {
    if (busy) return;
    setBusy(true);
    setStatus(null);
    let refused = false;
    try {
      // A refusal (IsValid false) carries its reason as the answer's message: the wrong current password, the policy.
      let reason: string | null = null;
      const onMessage = (m: string) => {
        reason = m;
      };
      const res = await api.call(AccountApi.updatePassword, { body: values }, { notify: false, onMessage });
      if (res.IsValid) {
        setStatus({ kind: 'success', text: t('password.changed') });
        form.reset(emptyPasswords);
      } else {
        // The spec's words first (spec 01 section 8), then the server's reason, as the activation and reset pages do.
        setStatus({ kind: 'error', text: reason ? `${t('password.failed')} ${t('common.detail', { detail: reason })}` : t('password.failed') });
        refused = true;
      }
    } catch (e) {
      // Throttled or refused by the server: its own words. Rejected: the kit Form counts the passwords as unsaved.
      setStatus({ kind: 'error', text: (e as Error).message || t('password.failed') });
      throw e;
    } finally {
      setBusy(false);
    }
    // Refused (said above): rejected, so the kit Form counts the passwords as unsaved.
    if (refused) throw new Error('password change refused');
  };

  return (
    <Panel title={t('password.title')}>
      <Form form={form} onSubmit={submit} aria-label={t('password.title')}>
        <PasswordField name="OldPassword" label={t('fields.oldPassword')} autoComplete="current-password" isRequired />
        <PasswordField name="Password" label={t('fields.newPassword')} rules={rules} autoComplete="new-password" isRequired />
        <PasswordField name="ConfirmPassword" label={t('fields.confirmNewPassword')} autoComplete="new-password" isRequired />
        {status && (
          <Message kind={status.kind} data-testid="password-status">
            {status.text}
          </Message>
        )}
        <ButtonGroup>
          <Button type="submit" variant="primary" isPending={busy} pendingLabel={t('password.submitting')}>
            {t('password.submit')}
          </Button>
        </ButtonGroup>
      </Form>
    </Panel>
  );
}

function SecurityQuestions() {
  const { t } = useTranslation('account');
  const api = useApi();
  const questions = useQuery({ queryKey: accountKeys.questions, queryFn: () => fetchQuestions(api), staleTime: Number.POSITIVE_INFINITY });
  const form = useKitForm(questionsSchema, { defaultValues: emptyQuestions });
  const [busy, setBusy] = useState(false);

  const submit = async (values: { Question1: number; Answer1: string; Question2: number; Answer2: string }) => {
    if (busy) return;
    setBusy(true);
    // A failure rejects (the client has shown the server's error): the kit Form counts the answers as unsaved.
    try {
      // The server answers with its own confirmation, shown as a toast by the client.
      await api.call(AccountApi.updateQuestions, { body: questionsPayload(values) });
      form.reset(emptyQuestions);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Panel title={t('questions.title')} description={t('questions.intro')}>
      {(questions.isPending || (questions.isError && questions.isFetching)) && <p aria-busy="true">{t('common.loading')}</p>}
      {questions.isError && !questions.isFetching && (
        <LoadError text={t('questions.loadError')} onRetry={() => void questions.refetch()} data-testid="questions-error" />
      )}
      {questions.data && (
        <Form form={form} onSubmit={submit} aria-label={t('questions.title')}>
          <QuestionFields questions={questions.data} />
          <ButtonGroup>
            <Button type="submit" variant="primary" isPending={busy} pendingLabel={t('questions.submitting')}>
              {t('questions.submit')}
            </Button>
          </ButtonGroup>
        </Form>
      )}
    </Panel>
  );
}

const emptyEmail = { email: '', Password: '' };

/** The e-mail address: the current password, then a link mailed to the new address confirms the change. */
function ChangeEmail() {
  const { t } = useTranslation('account');
  const api = useApi();
  const form = useKitForm(changeEmailSchema, { defaultValues: emptyEmail });
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (values: typeof emptyEmail) => {
    if (busy) return;
    setBusy(true);
    setStatus(null);
    try {
      const res = await api.call(AccountApi.updateEmail, { body: values }, { notify: false });
      setStatus({ kind: 'success', text: t('email.sent', { email: res.Pending }) });
      form.reset(emptyEmail);
    } catch (e) {
      setStatus({ kind: 'error', text: (e as Error).message || t('email.failed') });
      // Rejected: the kit Form counts the address as unsaved (leaving asks).
      throw e;
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title={t('email.title')} description={t('email.intro')}>
      <Form form={form} onSubmit={submit} aria-label={t('email.title')}>
        <EmailField name="email" label={t('email.newAddress')} autoComplete="email" isRequired />
        <PasswordField name="Password" label={t('fields.oldPassword')} autoComplete="current-password" isRequired />
        {status && (
          <Message kind={status.kind} data-testid="email-status">
            {status.text}
          </Message>
        )}
        <ButtonGroup>
          <Button type="submit" variant="primary" isPending={busy} pendingLabel={t('email.submitting')}>
            {t('email.submit')}
          </Button>
        </ButtonGroup>
      </Form>
    </Panel>
  );
}
