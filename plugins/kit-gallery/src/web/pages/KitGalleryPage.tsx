import { layoutCss } from '@portal/web';
import { Tabs } from '@portal/web/kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ComponentsSection } from './ComponentsSection';
import { GalleryForm } from './GalleryForm';
import * as css from './gallery.css';
import { LocalGridSection } from './LocalGridSection';
import { RemoteGridSection } from './RemoteGridSection';

const TABS = ['form', 'remote', 'local', 'components'] as const;
type TabId = (typeof TABS)[number];

/** The first tab comes from ?tab= (e2e and the grid bench open a section directly); later switches stay in the page. */
function initialTab(): TabId {
  const asked = new URLSearchParams(window.location.search).get('tab');
  return TABS.find((t) => t === asked) ?? 'form';
}

export default function KitGalleryPage() {
  const { t } = useTranslation('kit-gallery');
  const [tab, setTab] = useState<TabId>(initialTab);
  return (
    <div className={`${layoutCss.card} ${css.page}`}>
      <p className={css.intro}>{t('intro')}</p>
      <Tabs
        aria-label={t('tabs.label')}
        selectedKey={tab}
        onSelectionChange={(id) => setTab(TABS.find((known) => known === id) ?? 'form')}
        items={[
          { id: 'form', label: t('tabs.form'), content: <GalleryForm /> },
          { id: 'remote', label: t('tabs.remote'), content: <RemoteGridSection /> },
          { id: 'local', label: t('tabs.local'), content: <LocalGridSection /> },
          // The components' copy is in the kit namespace (see ComponentsSection).
          { id: 'components', label: t('tabs.components'), content: <ComponentsSection /> },
        ]}
      />
    </div>
  );
}
