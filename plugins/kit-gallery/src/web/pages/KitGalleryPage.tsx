import { layoutCss, showToast } from '@portal/web';
import { KitProvider, type Notify } from '@portal/web/kit';
import { useState } from 'react';
import { type Key, Tab, TabList, TabPanel, Tabs } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { GalleryForm } from './GalleryForm';
import * as css from './gallery.css';
import { LocalGridSection } from './LocalGridSection';
import { RemoteGridSection } from './RemoteGridSection';

const TABS = ['form', 'remote', 'local'] as const;
type TabId = (typeof TABS)[number];

const notify: Notify = (message, kind) => {
  showToast({ kind, message });
};

/** The first tab comes from ?tab= (e2e and the grid bench open a section directly); later switches stay in the page. */
function initialTab(): TabId {
  const asked = new URLSearchParams(window.location.search).get('tab');
  return TABS.find((t) => t === asked) ?? 'form';
}

export default function KitGalleryPage() {
  const { t } = useTranslation('kit-gallery');
  const [tab, setTab] = useState<TabId>(initialTab);
  return (
    <KitProvider notify={notify}>
      <div className={`${layoutCss.card} ${css.page}`}>
        <p className={css.intro}>{t('intro')}</p>
        <Tabs selectedKey={tab} onSelectionChange={(key: Key) => setTab(String(key) as TabId)}>
          <TabList aria-label={t('tabs.label')} className={css.tabList}>
            {TABS.map((id) => (
              <Tab key={id} id={id} className={css.tab}>
                {t(`tabs.${id}`)}
              </Tab>
            ))}
          </TabList>
          <TabPanel id="form" className={css.panel}>
            <GalleryForm />
          </TabPanel>
          <TabPanel id="remote" className={css.panel}>
            <RemoteGridSection />
          </TabPanel>
          <TabPanel id="local" className={css.panel}>
            <LocalGridSection />
          </TabPanel>
        </Tabs>
      </div>
    </KitProvider>
  );
}
