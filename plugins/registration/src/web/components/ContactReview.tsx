import { formatPhone } from '@portal/core';
import { ProfileApi } from '@portal/plugin-profile/contract';
import { useApi } from '@portal/web';
import { detailsList, Message } from '@portal/web/kit';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { REGISTRATION_COMPLETE, RegistrationPaths, STEP_SET_BY } from '../../steps';
import { ADDRESSES_KEY, MEMBER_KEY } from './PersonalInfo';
import { useRaiseStep, useSkipped } from './useStep';
import { WizardNav } from './WizardNav';
import * as css from './wizard.css';

/** Contact details: how the member will be reached, as saved on Personal Info; Next moves on to the membership. */
export function ContactReview() {
  const { t } = useTranslation('registration');
  const api = useApi();
  const navigate = useNavigate();
  const raise = useRaiseStep();
  const skip = useSkipped();
  const member = useQuery({ queryKey: MEMBER_KEY, queryFn: () => api.call(ProfileApi.loadOwn, undefined, { notify: false }) });
  const addresses = useQuery({ queryKey: ADDRESSES_KEY, queryFn: () => api.call(ProfileApi.loadAddresses, undefined, { notify: false }) });
  const next = useMutation({
    mutationFn: async () => {
      await raise(STEP_SET_BY.contact);
      // A brand that sells no membership has nothing more to ask: registration is complete.
      if (skip.includes('subscription') && skip.includes('card')) {
        await raise(REGISTRATION_COMPLETE);
        return RegistrationPaths.confirmation;
      }
      return skip.includes('subscription') ? `${RegistrationPaths.card}?type=0` : RegistrationPaths.subscription;
    },
    onSuccess: (to) => navigate(to),
  });

  if (member.isPending || addresses.isPending) return <p aria-busy="true">{t('loading')}</p>;
  const x = member.data;
  const a = addresses.data?.find((r) => r.IsCurrent) ?? addresses.data?.[0];
  const phone = x ? (x.PreferredContactNumber === 'Home' ? x.HomePhone : x.PreferredContactNumber === 'Work' ? x.WorkPhone : x.MobilePhone) : null;
  const rows: [string, string][] = [
    [t('contact.email'), x?.Email ?? ''],
    [t('contact.phone'), phone ? `${formatPhone(phone)} (${t(`profile.preferred.${x?.PreferredContactNumber ?? 'Mobile'}`)})` : ''],
    [t('contact.address'), a ? [a.Address1, a.Address2, `${a.City}, ${a.State} ${a.Zip}`].filter(Boolean).join(', ') : ''],
  ];
  return (
    <div className={css.stack}>
      <p>{t('contact.intro')}</p>
      {next.error && <Message kind="error">{next.error.message}</Message>}
      <dl className={detailsList} data-testid="contact-details">
        {rows.map(([label, value]) => (
          <div key={label} style={{ display: 'contents' }}>
            <dt className={css.term}>{label}</dt>
            <dd className={css.value}>{value || t('contact.none')}</dd>
          </div>
        ))}
      </dl>
      <WizardNav previous={RegistrationPaths.profile} onNext={() => next.mutate()} isPending={next.isPending} />
    </div>
  );
}
