import { isFocusFree } from '@portal/web/focus';
import { Button } from '@portal/web/kit';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Contact } from '../../contract';
import { ContactDetail } from '../components/ContactDetail';
import { ContactsGrid } from '../components/ContactsGrid';
import * as css from '../components/contacts.css';
import { type ListReturn, listReturn, rowTakesFocus } from '../components/focus';

/** /contacts: the member's contacts with an inline detail; saving or cancelling returns to the list. */
export default function ContactsPage() {
  const { t } = useTranslation('contacts');
  const [open, setOpen] = useState<number | 'new' | null>(null);
  const listRef = useRef<HTMLElement>(null);
  const addRef = useRef<HTMLButtonElement>(null);
  // Where focus goes back to once the detail closes (the list replaced it, and the control pressed went with it): the
  // name of the contact that was open, or Add contact (listReturn).
  const back = useRef<ListReturn | null>(null);
  const openContact = useCallback((c: Contact) => {
    back.current = null;
    setOpen(c.ContactID);
  }, []);
  const close = useCallback((opened: number | 'new', savedId?: number) => {
    back.current = listReturn(opened, savedId);
    setOpen(null);
  }, []);
  // The contact's name takes focus as the list draws it: at once from the cached page, or when a new contact's page
  // comes back; till then the list itself holds focus.
  const nameDrawn = useCallback((id: number, el: HTMLButtonElement | null) => {
    if (!el || !rowTakesFocus(back.current, id, isFocusFree(document.activeElement, document.body, listRef.current))) return;
    back.current = null;
    el.focus();
  }, []);
  useEffect(() => {
    const to = back.current;
    if (open !== null || to === null) return;
    if (!isFocusFree(document.activeElement, document.body, listRef.current)) back.current = null;
    else if (to === 'add') {
      back.current = null;
      addRef.current?.focus();
    } else listRef.current?.focus();
  }, [open]);
  return (
    <div className={css.stack}>
      {open === null ? (
        <section ref={listRef} tabIndex={-1} aria-label={t('listLabel')}>
          <ContactsGrid
            label={t('listLabel')}
            onOpen={openContact}
            nameDrawn={nameDrawn}
            actions={
              <Button
                ref={addRef}
                variant="primary"
                onPress={() => {
                  back.current = null;
                  setOpen('new');
                }}
              >
                {t('add')}
              </Button>
            }
          />
        </section>
      ) : (
        <ContactDetail key={String(open)} id={open} onClose={(savedId) => close(open, savedId)} />
      )}
    </div>
  );
}
