import { languageOf } from '@portal/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import * as css from './LanguageMenu.css';
import { LANGUAGE_NAMES } from './languageNames';

// react-aria's Select stays off the sign-in path (150 KiB budget): it loads once the page has rendered.
const LanguageSelect = lazy(() => import('./LanguageSelect'));

/** The language menu for the toolbar and the login page; until its code arrives, a same-sized stand-in keeps the layout still. */
export function LanguageMenu() {
  const { i18n } = useTranslation();
  const current = languageOf(i18n.resolvedLanguage ?? i18n.language) ?? 'en';
  return (
    <Suspense
      fallback={
        <span className={css.trigger} aria-hidden="true">
          <span>{LANGUAGE_NAMES[current]}</span>
          <span>▾</span>
        </span>
      }
    >
      <LanguageSelect />
    </Suspense>
  );
}
