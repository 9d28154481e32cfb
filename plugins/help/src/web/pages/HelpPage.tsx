import { layoutCss, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import { Button, Disclosure, DisclosurePanel, Heading } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { HelpApi } from '../../contract';
import * as css from './HelpPage.css';

export default function HelpPage() {
  const api = useApi();
  const { t } = useTranslation('help');
  const topics = useQuery({ queryKey: ['help', 'topics'], queryFn: () => api.call(HelpApi.topics, undefined, { notify: false }) });
  return (
    <div className={layoutCss.card}>
      <p>{t('intro')}</p>
      {topics.isPending && <p aria-busy="true">{t('loading')}</p>}
      {topics.isError && <p role="alert">{t('error')}</p>}
      {topics.data && (
        <>
          {/* An account may be offered no topic at all: say so, above the contact line it still has. */}
          {topics.data.Topics.length === 0 ? (
            <p data-testid="help-no-topics">{t('none')}</p>
          ) : (
            <div className={css.list} data-testid="help-topics">
              {topics.data.Topics.map((topic) => (
                <Disclosure key={topic.Id} className={css.item} id={topic.Id}>
                  <Heading level={2} className={css.heading}>
                    <Button slot="trigger" className={css.trigger}>
                      {t(`topics.${topic.Id}.title`)}
                    </Button>
                  </Heading>
                  <DisclosurePanel className={css.panel}>
                    <p>{t(`topics.${topic.Id}.body`)}</p>
                  </DisclosurePanel>
                </Disclosure>
              ))}
            </div>
          )}
          <h2 className={css.contactTitle}>{t('contactTitle')}</h2>
          <p>{t('contact', { phone: topics.data.SupportPhone, email: topics.data.SupportEmail })}</p>
        </>
      )}
    </div>
  );
}
