import { isLanguage, KernelApi, LANGUAGES, type Language, languageOf } from '@portal/core';
import { useContext, useRef } from 'react';
import { Button, Label, ListBox, ListBoxItem, Popover, Select, SelectValue } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { KernelContext } from '../context';
import { changeAppLanguage } from '../i18n';
import * as listBoxStyles from '../kit/form/listBox.css';
import * as css from './LanguageMenu.css';
import { LANGUAGE_NAMES } from './languageNames';

/** The language menu itself (react-aria Select), loaded by LanguageMenu when the user reaches for it; `open` opens it at once, focused. */
export default function LanguageSelect({ open = false }: { open?: boolean }) {
  const { t, i18n } = useTranslation();
  const current = languageOf(i18n.resolvedLanguage ?? i18n.language) ?? 'en';
  // The app's shell, when there is one (not in the prerendered sign-in page): a signed-in user's account keeps the choice.
  const kernel = useContext(KernelContext);
  const keep = (lng: Language) =>
    kernel?.session.tokens() ? kernel.api.call(KernelApi.language, { body: { Language: lng } }, { notify: false }) : Promise.resolve();
  // Opened from the stand-in button, which went away as the menu took its place: react-aria would hand focus back to
  // it when the list closes (a choice, Escape), and it would fall to the page's start. The menu's own button takes it.
  const trigger = useRef<HTMLButtonElement>(null);
  const onOpenChange = (isOpen: boolean) => {
    if (isOpen) return;
    requestAnimationFrame(() => {
      // Focus on the body, not somewhere the user put it. (Checked here: a helper shared with the layout would be a
      // chunk of its own, one more request for every signed-in page.)
      if (document.activeElement === null || document.activeElement === document.body) trigger.current?.focus();
    });
  };
  return (
    <Select
      defaultOpen={open}
      autoFocus={open}
      onOpenChange={onOpenChange}
      value={current}
      onChange={(key) => {
        if (isLanguage(key) && key !== current) void changeAppLanguage(i18n, key, keep);
      }}
      data-testid="language-menu"
    >
      <Label className={css.hiddenLabel}>{t('language.label')}</Label>
      <Button ref={trigger} className={css.trigger}>
        <SelectValue>{({ selectedText }) => <span lang={current}>{selectedText}</span>}</SelectValue>
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className={listBoxStyles.popover} placement="bottom end">
        <ListBox className={listBoxStyles.listBox}>
          {LANGUAGES.map((lng) => (
            <ListBoxItem key={lng} id={lng} textValue={LANGUAGE_NAMES[lng]} className={listBoxStyles.option} lang={lng}>
              {LANGUAGE_NAMES[lng]}
            </ListBoxItem>
          ))}
        </ListBox>
      </Popover>
    </Select>
  );
}
