import { formatDateTime } from '@portal/core';
import { useApi, useKernel } from '@portal/web';
import { Button, ConfirmDialog, Message, Panel } from '@portal/web/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Member, ProfileApi } from '../../contract';
import { memberQueryKey } from './keys';
import * as css from './profile.css';

/** Terminate or reactivate the membership (CareGuard and CareAssist), each behind a confirm dialog. */
export function Membership({ member }: { member: Member }) {
  const { t } = useTranslation('profile');
  const api = useApi();
  const { session } = useKernel();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // After a reactivation: what it did not give back (the banks the termination unlinked) is said once, on this page.
  const [reactivated, setReactivated] = useState(false);
  const terminated = member.TerminationDate !== null;
  const which = terminated ? 'reactivate' : 'terminate';
  const change = useMutation({
    mutationFn: () => api.call(ProfileApi[which], undefined, { notify: false }),
    onSuccess: async (r) => {
      // The server issued a fresh session token with the change: keep using that one.
      session.saveTokens(r.Token);
      queryClient.setQueryData<Member>(memberQueryKey, r.Member);
      await queryClient.invalidateQueries({ queryKey: ['kernel'] });
      setReactivated(which === 'reactivate');
      setOpen(false);
    },
    onError: (e) => {
      setError(e instanceof Error ? e.message : String(e));
      setOpen(false);
    },
  });
  return (
    <Panel title={t('membership.title')} headingLevel={2}>
      <div className={css.stack}>
        <p data-testid="membership-status">
          {terminated ? t('membership.terminated', { date: formatDateTime(member.TerminationDate) }) : t('membership.active')}
        </p>
        {terminated && member.TerminatedBy === 'staff' ? (
          <p data-testid="membership-by-staff">{t('membership.byStaff')}</p>
        ) : (
          <div className={css.row}>
            <Button variant={terminated ? 'primary' : 'danger'} onPress={() => setOpen(true)}>
              {terminated ? t('membership.reactivate') : t('membership.terminate')}
            </Button>
          </div>
        )}
        {error && <Message kind="error">{error}</Message>}
        {reactivated && !terminated && (
          <Message kind="success" data-testid="membership-reactivated">
            {t('membership.reactivated')}
          </Message>
        )}
        <ConfirmDialog
          isOpen={open}
          onOpenChange={setOpen}
          title={terminated ? t('membership.reactivateTitle') : t('membership.terminateTitle')}
          message={terminated ? t('membership.reactivateConfirm') : t('membership.terminateConfirm')}
          confirmLabel={terminated ? t('membership.reactivate') : t('membership.terminate')}
          cancelLabel={t('cancel')}
          destructive={!terminated}
          onConfirm={async () => {
            setError(null);
            await change.mutateAsync().catch(() => undefined);
          }}
        />
      </div>
    </Panel>
  );
}
