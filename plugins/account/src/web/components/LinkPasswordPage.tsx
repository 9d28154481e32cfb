import type { PasswordRule } from '@portal/core';
import { useApi } from '@portal/web';
import { Button, ButtonGroup, Form, Message, PasswordField, useKitForm } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { LINK_SUCCESS_REDIRECT_MS } from '../../access';
import { AccountApi, type LinkInfo } from '../../contract';
import * as css from './account.css';
import { LinkFrame } from './LinkFrame';
import { type LinkOutcome, linkOutcome, questionsPayload } from './logic';
import { QuestionFields } from './QuestionFields';
import { activateSchema, emptyQuestions, resetSchema } from './schemas';
import { accountKeys, usePasswordPolicy } from './ui';

export type LinkKind = 'activate' | 'reset';

/**
 * /login/activate/:urlId and /login/reset/:urlId: the link is validated first; then a new password (and,
 * to activate, two security questions). Success shows the message and goes to /login after 5 seconds;
 * an invalid answer clears the passwords (spec 01 sections 4 and 8).
 */
export function LinkPasswordPage({ kind }: { kind: LinkKind }) {
  const { t } = useTranslation('account');
  const api = useApi();
  const { urlId = '' } = useParams();
  const policy = usePasswordPolicy();
  const info = useQuery({
    queryKey: accountKeys.link(kind, urlId),
    queryFn: () => api.call(kind === 'activate' ? AccountApi.activateValidate : AccountApi.resetValidate, { params: { urlId } }, { notify: false }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });

  let body: ReactNode;
  if (info.isPending || policy.isPending) body = <p aria-busy="true">{t(`${kind}.checking`)}</p>;
  else if (info.isError) body = <Message kind="error">{t(`${kind}.error`)}</Message>;
  else if (!info.data.IsValid) body = <Message kind="error">{t(`${kind}.invalid`)}</Message>;
  // Without the rules the checklist would be empty: the error in place of the form (as on the account page).
  else if (!policy.data) body = <Message kind="error">{t('common.policyError')}</Message>;
  else body = <LinkForm kind={kind} urlId={info.data.UrlId || urlId} questions={info.data.Questions} rules={policy.data} />;

  return (
    <LinkFrame title={t(`${kind}.title`)}>
      {body}
      <p className={css.muted}>
        <Link to="/login">{t('common.backToLogin')}</Link>
      </p>
    </LinkFrame>
  );
}

/**
 * The reason the server gave for an error (e.g. a policy failure), in the user's language: its answer's message.
 * None for a refused link (its answer says IsValid: false, and the page says that itself) or an answer without a
 * message (the client's own "Request failed"); a failure without an answer (the network) as the browser says it.
 */
function serverDetail(error: unknown): string | null {
  if (!(error instanceof Error)) return null;
  if (!('body' in error)) return error.message || null;
  const body = error.body;
  if (typeof body === 'string') return body || null;
  if (typeof body !== 'object' || body === null) return null;
  const { MsgText, Data } = body as { MsgText?: unknown; Data?: unknown };
  if (typeof Data === 'object' && Data !== null && (Data as { IsValid?: unknown }).IsValid === false) return null;
  return typeof MsgText === 'string' && MsgText ? MsgText : null;
}

function LinkForm({ kind, urlId, questions, rules }: { kind: LinkKind; urlId: string; questions: LinkInfo['Questions']; rules: readonly PasswordRule[] }) {
  const { t } = useTranslation('account');
  const api = useApi();
  const navigate = useNavigate();
  const schema = useMemo(() => (kind === 'activate' ? activateSchema(rules) : resetSchema(rules)), [kind, rules]);
  const defaults = kind === 'activate' ? { Password: '', ConfirmPassword: '', ...emptyQuestions } : { Password: '', ConfirmPassword: '' };
  const form = useKitForm(schema, { defaultValues: defaults as never });
  const [outcome, setOutcome] = useState<{ kind: LinkOutcome; detail: string | null } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (outcome?.kind !== 'success') return;
    const timer = setTimeout(() => navigate('/login', { replace: true }), LINK_SUCCESS_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [outcome, navigate]);

  const submit = async (values: Record<string, unknown>) => {
    if (busy) return;
    setBusy(true);
    const Password = String(values.Password);
    const ConfirmPassword = String(values.ConfirmPassword);
    let result: Parameters<typeof linkOutcome>[0];
    try {
      const data =
        kind === 'activate'
          ? await api.call(
              AccountApi.activate,
              { body: { UrlID: urlId, Password, ConfirmPassword, Questions: questionsPayload(values as never) } },
              { notify: false },
            )
          : await api.call(AccountApi.resetPassword, { body: { UrlId: urlId, Password, ConfirmPassword, MemberNumber: '' } }, { notify: false });
      result = { ok: true, data };
    } catch (error) {
      result = { ok: false, error };
    }
    const next = linkOutcome(result);
    setBusy(false);
    setOutcome({ kind: next, detail: next === 'error' && !result.ok ? serverDetail(result.error) : null });
    if (next === 'invalid') {
      form.resetField('Password' as never);
      form.resetField('ConfirmPassword' as never);
    }
  };

  if (outcome?.kind === 'success') return <Message kind="success">{t(`${kind}.success`)}</Message>;

  return (
    <Form form={form} onSubmit={submit} aria-label={t(`${kind}.title`)}>
      <p className={css.muted}>{t(`${kind}.intro`)}</p>
      <PasswordField name="Password" label={t('fields.password')} rules={rules} autoComplete="new-password" isRequired />
      <PasswordField name="ConfirmPassword" label={t('fields.confirmPassword')} autoComplete="new-password" isRequired />
      {kind === 'activate' && <QuestionFields questions={questions} />}
      {outcome?.kind === 'invalid' && <Message kind="error">{t(`${kind}.invalid`)}</Message>}
      {outcome?.kind === 'error' && (
        <Message kind="error">
          {t(`${kind}.error`)}
          {outcome.detail ? ` ${t('common.detail', { detail: outcome.detail })}` : ''}
        </Message>
      )}
      <ButtonGroup>
        <Button type="submit" variant="primary" isPending={busy} pendingLabel={t(`${kind}.submitting`)}>
          {t(`${kind}.submit`)}
        </Button>
      </ButtonGroup>
    </Form>
  );
}
