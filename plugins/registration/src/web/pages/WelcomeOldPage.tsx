import { useBrand } from '@portal/web';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import * as css from '../components/wizard.css';

/** /welcome-old: the former welcome page, for any signed-in user. */
export default function WelcomeOldPage() {
  const { t } = useTranslation('registration');
  const brand = useBrand();
  return (
    <section className={css.stack} aria-labelledby="welcome-old-heading">
      <h2 id="welcome-old-heading" className={css.heading}>
        {t('welcomeOld.heading', { brand: brand.displayName })}
      </h2>
      <p>{t('welcomeOld.text')}</p>
      <p>
        <Link to="/">{t('welcomeOld.home')}</Link>
      </p>
    </section>
  );
}
