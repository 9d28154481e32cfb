import type { PasswordRule } from '@portal/core';
import { useApi } from '@portal/web';
import { Form, PasswordField, useKitForm } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Button } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { AccountApi } from '../../contract';
import * as css from '../shared/account.css';
import { questionsPayload } from '../shared/logic';
import { QuestionFields } from '../shared/QuestionFields';
import { changePasswordSchema, emptyQuestions, questionsSchema } from '../shared/schemas';
import { accountKeys, fetchQuestions, Message, usePasswordPolicy } from '../shared/ui';

/** /account: the user account page, change password and security questions (spec 01 section 2). */
export default function AccountPage() {
  const { t } = useTranslation('account');
  const policy = usePasswordPolicy();
  return (
    <>
      <p className={css.muted}>{t('page.intro')}</p>
      <div className={css.sections} style={{ marginTop: 16 }}>
        {policy.isPending ? <p aria-busy="true">{t('common.loading')}</p> : <ChangePassword rules={policy.data ?? []} />}
        <SecurityQuestions />
      </div>
    </>
  );
}

const emptyPasswords = { OldPassword: '', Password: '', ConfirmPassword: '' };

function ChangePassword({ rules }: { rules: readonly PasswordRule[] }) {
  const { t } = useTranslation('account');
  const api = useApi();
  const headingId = useId();
  const schema = useMemo(() => changePasswordSchema(rules), [rules]);
  const form = useKitForm(schema, { defaultValues: emptyPasswords });
  const [status, setStatus] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (values: typeof emptyPasswords) => {
    if (busy) return;
    setBusy(true);
    setStatus(null);
    try {
      const res = await api.post<{ IsValid: boolean }>(AccountApi.updatePassword, values, { notify: false });
      if (res.IsValid) {
        setStatus({ kind: 'success', text: t('password.changed') });
        form.reset(emptyPasswords);
      } else {
        setStatus({ kind: 'error', text: t('password.failed') });
      }
    } catch (e) {
      // Throttled or refused by the server: its own words.
      setStatus({ kind: 'error', text: (e as Error).message || t('password.failed') });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={css.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={css.sectionHeading}>
        {t('password.title')}
      </h2>
      <Form form={form} onSubmit={submit} aria-labelledby={headingId}>
        <PasswordField name="OldPassword" label={t('fields.oldPassword')} autoComplete="current-password" isRequired />
        <PasswordField name="Password" label={t('fields.newPassword')} rules={rules} autoComplete="new-password" isRequired />
        <PasswordField name="ConfirmPassword" label={t('fields.confirmNewPassword')} autoComplete="new-password" isRequired />
        {status && (
          <Message kind={status.kind} testId="password-status">
            {status.text}
          </Message>
        )}
        <div className={css.actions}>
          <Button type="submit" className={css.primary} isDisabled={busy}>
            {busy ? t('password.submitting') : t('password.submit')}
          </Button>
        </div>
      </Form>
    </section>
  );
}

function SecurityQuestions() {
  const { t } = useTranslation('account');
  const api = useApi();
  const headingId = useId();
  const questions = useQuery({ queryKey: accountKeys.questions, queryFn: () => fetchQuestions(api), staleTime: Number.POSITIVE_INFINITY });
  const form = useKitForm(questionsSchema, { defaultValues: emptyQuestions });
  const [busy, setBusy] = useState(false);

  const submit = async (values: { Question1: number; Answer1: string; Question2: number; Answer2: string }) => {
    if (busy) return;
    setBusy(true);
    try {
      // The server answers with its own confirmation, shown as a toast by the client.
      await api.post(AccountApi.updateQuestions, questionsPayload(values));
      form.reset(emptyQuestions);
    } catch {
      // The client has shown the server's error.
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={css.section} aria-labelledby={headingId}>
      <h2 id={headingId} className={css.sectionHeading}>
        {t('questions.title')}
      </h2>
      <p className={css.muted}>{t('questions.intro')}</p>
      {questions.isPending && <p aria-busy="true">{t('common.loading')}</p>}
      {questions.isError && <Message kind="error">{t('questions.loadError')}</Message>}
      {questions.data && (
        <Form form={form} onSubmit={submit} aria-labelledby={headingId}>
          <QuestionFields questions={questions.data} />
          <div className={css.actions}>
            <Button type="submit" className={css.primary} isDisabled={busy}>
              {busy ? t('questions.submitting') : t('questions.submit')}
            </Button>
          </div>
        </Form>
      )}
    </section>
  );
}
