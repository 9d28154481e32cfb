import { hasAnyRole, Roles } from '@portal/core';
import { layoutCss, newCreateKey, SubmissionKeys, showToast, useActingMemberId, useApi, useGoBack, useRoles } from '@portal/web';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ClaimsAccess } from '../../access';
import { ClaimsApi } from '../../contract';
import { ClaimForm, toPayload } from '../components/ClaimForm';
import { focusFreshForm } from '../components/formFocus';

/**
 * /claims-new: a new bill opens directly in edit. Its member is asked for (and required) unless the bill's member is
 * known: staff acting for a member, or a login with a member record of its own (the server takes that member then).
 */
export default function NewClaimPage() {
  const api = useApi();
  const roles = useRoles();
  const acting = useActingMemberId();
  const navigate = useNavigate();
  // Cancel: back where the user came from, or the bills (home for whoever has none) when the page was opened directly.
  const goBack = useGoBack(hasAnyRole(roles, ClaimsAccess.bills) ? '/claims' : '/');
  const { t } = useTranslation('claims');
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);
  // One IdempotencyKey per submission: saving the same bill again after a failure (an answer lost) adds it once.
  const keys = useRef(new SubmissionKeys(() => newCreateKey('claim'))).current;
  return (
    <div className={layoutCss.card}>
      <ClaimForm
        key={formKey}
        initial={null}
        askMember={acting === null}
        busy={busy}
        // A fresh form after a create: the Save pressed went away with the form before it, so its first field takes focus.
        focusFirst={focusFreshForm(formKey)}
        onCancel={goBack}
        onSave={async (v) => {
          setBusy(true);
          // A failure rejects: the API client showed the server's message; the entries stay in the form, unsaved (the kit
          // Form: leaving asks).
          try {
            const payload = toPayload(v, hasAnyRole(roles, [Roles.SuperUser]));
            const created = await api.call(ClaimsApi.create, { body: { ...payload, IdempotencyKey: keys.keyFor(payload) } });
            keys.added();
            if (hasAnyRole(roles, ClaimsAccess.bills)) navigate(`/claims/${created.ClaimID}`, { replace: true });
            else {
              // CareGuardAdmin enters bills but does not open the bills list: confirm and start a fresh form.
              showToast({ kind: 'success', message: t('detail.created') });
              setFormKey((k) => k + 1);
            }
          } finally {
            setBusy(false);
          }
        }}
      />
    </div>
  );
}
