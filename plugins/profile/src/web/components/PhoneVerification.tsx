import { formatPhone } from '@portal/core';
import { focusInOrLost, useApi } from '@portal/web';
import { Button, Form, Message, Panel, TextField } from '@portal/web/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { type Member, MOBILE_PREFIX, ProfileApi } from '../../contract';
import { memberQueryKey } from './keys';
import * as css from './profile.css';

const codeSchema = z.object({
  Code: z
    .string()
    .trim()
    .regex(/^\d{4,8}$/, 'profile:verify.codeFormat'),
});

/** Verify the mobile by SMS: send a code, then type it ('Code not valid.' / 'Code confirmed.'). */
export function PhoneVerification({ member }: { member: Member }) {
  const { t } = useTranslation('profile');
  const api = useApi();
  const queryClient = useQueryClient();
  const phone = member.MobilePhone ?? '';
  const [sent, setSent] = useState(false);
  const [result, setResult] = useState<'confirmed' | 'invalid' | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The code confirmed, the form goes with the Verify pressed: 'Code confirmed.' takes focus (unless the user moved on).
  const [focusOutcome, setFocusOutcome] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: memberQueryKey });

  const send = useMutation({
    mutationFn: () =>
      api.call(ProfileApi.requestCode, { body: { MemberId: member.MemberID, PhoneNumber: `${MOBILE_PREFIX}${phone}`, Type: 'SMS' } }, { notify: false }),
    onMutate: () => {
      setError(null);
      setResult(null);
    },
    onSuccess: async () => {
      setSent(true);
      await refresh();
    },
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });
  const verify = useMutation({
    mutationFn: (code: string) =>
      api.call(ProfileApi.verifyCode, { body: { MemberId: member.MemberID, PhoneNumber: `${MOBILE_PREFIX}${phone}`, Code: code } }, { notify: false }),
    // The form the code was sent from (Verify, or the field Enter was pressed in).
    onMutate: () => {
      setError(null);
      return { form: document.activeElement?.closest('form') ?? null };
    },
    onSuccess: async (r, _code, context) => {
      setResult(r.CodeVerified ? 'confirmed' : 'invalid');
      if (r.CodeVerified) {
        // Focus still in the form about to go, or lost already: the outcome takes it.
        setFocusOutcome(focusInOrLost(context?.form));
        setSent(false);
        await refresh();
      }
    },
    onError: (e) => setError(e instanceof Error ? e.message : String(e)),
  });

  return (
    <Panel title={t('verify.title')} headingLevel={2}>
      <div className={css.stack}>
        <p>
          {t('verify.status', { phone: formatPhone(phone) })} <strong>{member.IsPhoneValidated ? t('verified') : t('notVerified')}</strong>
        </p>
        <div className={css.row}>
          <Button onPress={() => send.mutate()} isPending={send.isPending}>
            {sent ? t('verify.resend') : t('verify.send')}
          </Button>
        </div>
        {sent && (
          <Message kind="info" id="profile-code-sent">
            {t('verify.sent', { phone: formatPhone(phone) })}
          </Message>
        )}
        {sent && (
          <Form leaveGuard={false} schema={codeSchema} defaultValues={{ Code: '' }} onSubmit={(v) => verify.mutate(v.Code)} aria-label={t('verify.title')}>
            <div className={css.row}>
              <TextField name="Code" label={t('verify.code')} isRequired maxLength={8} autoComplete="one-time-code" />
              <Button type="submit" variant="primary" isPending={verify.isPending}>
                {t('verify.submit')}
              </Button>
            </div>
          </Form>
        )}
        {result === 'invalid' && <Message kind="error">{t('verify.notValid')}</Message>}
        {result === 'confirmed' && (
          <Message kind="success" autoFocus={focusOutcome}>
            {t('verify.confirmed')}
          </Message>
        )}
        {error && <Message kind="error">{error}</Message>}
      </div>
    </Panel>
  );
}
