import { languageOf, localeOf } from '@portal/core';
import type { ReactNode } from 'react';
import { I18nProvider } from 'react-aria-components/I18nProvider';
import { useTranslation } from 'react-i18next';

/** Gives react-aria (date pickers, number fields) the UI's locale, 'en-US' or 'es-US', instead of the browser's. */
export function LocaleProvider({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return <I18nProvider locale={localeOf(languageOf(i18n.resolvedLanguage ?? i18n.language) ?? 'en')}>{children}</I18nProvider>;
}
