import { languageOf } from '@portal/core';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from './LanguageMenu.css';
import { LANGUAGE_NAMES } from './languageNames';
import { useHydrated } from './prerendered';

// react-aria's Select (about 60 KiB gzipped with its overlays) loads when the user reaches for the menu, not with
// the page: the sign-in path has a 150 KiB budget, and most visits never change the language.
const loadSelect = () => import('./LanguageSelect');
const LanguageSelect = lazy(loadSelect);

/**
 * The language menu of the toolbar and the login page. A plain button stands in until the user points at it,
 * focuses it or opens it; then the react-aria Select takes its place, already open when the user asked for it.
 */
export function LanguageMenu() {
  const { t, i18n } = useTranslation();
  const current = languageOf(i18n.resolvedLanguage ?? i18n.language) ?? 'en';
  const [opened, setOpened] = useState(false);
  // In the prerendered sign-in page, until the app has taken it over: a click would do nothing yet.
  const hydrated = useHydrated();
  const content = (
    <>
      <span className={css.hiddenLabel}>{t('language.label')} </span>
      <span lang={current}>{LANGUAGE_NAMES[current]}</span>
      <span aria-hidden="true">▾</span>
    </>
  );
  if (opened) {
    return (
      <Suspense
        fallback={
          <span className={css.trigger} aria-busy="true">
            {content}
          </span>
        }
      >
        <LanguageSelect open />
      </Suspense>
    );
  }
  const prefetch = () => void loadSelect();
  return (
    <button
      type="button"
      className={css.trigger}
      aria-haspopup="listbox"
      data-testid="language-menu"
      disabled={!hydrated}
      onPointerEnter={prefetch}
      onFocus={prefetch}
      onClick={() => setOpened(true)}
      onKeyDown={(e) => {
        if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          setOpened(true);
        }
      }}
    >
      {content}
    </button>
  );
}
