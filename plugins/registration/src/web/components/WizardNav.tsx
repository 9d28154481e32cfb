import { Button } from '@portal/web/kit';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import * as css from './wizard.css';

/** Previous (absent on the first tab) and Next (absent on Finish): Next submits the screen's form or runs onNext. */
export function WizardNav({
  previous,
  onNext,
  nextIsSubmit = false,
  isPending = false,
  nextLabel,
  extra,
}: {
  previous: string | null;
  onNext?: () => void;
  nextIsSubmit?: boolean;
  isPending?: boolean;
  nextLabel?: string;
  extra?: ReactNode;
}) {
  const { t } = useTranslation('registration');
  const navigate = useNavigate();
  return (
    <div className={css.nav}>
      <div className={css.row}>
        {previous !== null && <Button onPress={() => navigate(previous)}>{t('previous')}</Button>}
        {extra}
      </div>
      {(onNext || nextIsSubmit) && (
        <Button variant="primary" type={nextIsSubmit ? 'submit' : 'button'} onPress={nextIsSubmit ? undefined : onNext} isPending={isPending}>
          {nextLabel ?? t('next')}
        </Button>
      )}
    </div>
  );
}
