import { Button } from '@portal/web/kit';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Contact } from '../../contract';
import { ContactDetail } from '../components/ContactDetail';
import { ContactsGrid } from '../components/ContactsGrid';
import * as css from '../components/contacts.css';

/** /contacts: the member's contacts with an inline detail; saving or cancelling returns to the list. */
export default function ContactsPage() {
  const { t } = useTranslation('contacts');
  const [open, setOpen] = useState<number | 'new' | null>(null);
  const listRef = useRef<HTMLElement>(null);
  const onOpen = useCallback((c: Contact) => setOpen(c.ContactID), []);
  const close = useCallback(() => {
    setOpen(null);
    // Back to the list: keyboard users continue where the list is.
    requestAnimationFrame(() => listRef.current?.focus());
  }, []);
  return (
    <div className={css.stack}>
      {open === null ? (
        <section ref={listRef} tabIndex={-1} aria-label={t('listLabel')}>
          <ContactsGrid
            label={t('listLabel')}
            onOpen={onOpen}
            actions={
              <Button variant="primary" onPress={() => setOpen('new')}>
                {t('add')}
              </Button>
            }
          />
        </section>
      ) : (
        <ContactDetail key={String(open)} id={open} onClose={close} />
      )}
    </div>
  );
}
