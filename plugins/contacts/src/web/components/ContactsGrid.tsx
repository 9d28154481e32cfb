import { useApi } from '@portal/web';
import { DataGrid, type GridColumn, type PageRequest } from '@portal/web/kit';
import { type ReactNode, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTACT_PAGE_SIZE, CONTACT_PAGE_SIZES, type Contact, type ContactSearchResult, ContactsApi } from '../../contract';
import * as css from './contacts.css';
import { contactTypeName, phoneText, shownName } from './format';

interface Props {
  label: string;
  /** The support tab names the member; the member's own list leaves it out. */
  memberId?: number;
  /** Opens a contact's inline detail; without it the names are plain text. */
  onOpen?: (c: Contact) => void;
  /** Called with each contact's name button as the list draws it (the page returns focus to the contact that was open). */
  nameDrawn?: (id: number, el: HTMLButtonElement | null) => void;
  actions?: ReactNode;
}

/** Contacts, 'Last, First', 100 a page by default (spec 02 section 9), searched on the server. */
export function ContactsGrid({ label, memberId, onOpen, nameDrawn, actions }: Props) {
  const { t } = useTranslation('contacts');
  const api = useApi();
  const fetchPage = useCallback(
    (req: PageRequest): Promise<ContactSearchResult> => {
      const body = { PageIndex: req.pageIndex, PageSize: req.pageSize, Query: req.search || null };
      // A failed page is said in the grid, in the server's words, with its Try again: no toast says it again.
      return memberId === undefined
        ? api.call(ContactsApi.search, { body }, { skipLoadingBar: true, notify: false })
        : api.call(ContactsApi.searchForMember, { params: { memberId }, body }, { skipLoadingBar: true, notify: false });
    },
    [api, memberId],
  );
  const columns = useMemo<GridColumn<Contact>[]>(
    () => [
      {
        id: 'Name',
        header: t('field.Name'),
        accessor: (c) => shownName(t, c),
        cell: (c) =>
          onOpen ? (
            <button type="button" ref={nameDrawn ? (el) => nameDrawn(c.ContactID, el) : undefined} className={css.nameButton} onClick={() => onOpen(c)}>
              {shownName(t, c)}
            </button>
          ) : (
            shownName(t, c)
          ),
      },
      { id: 'ContactTypeID', header: t('field.ContactTypeID'), accessor: (c) => contactTypeName(t, c.ContactTypeID) },
      { id: 'Phone', header: t('field.Phone'), accessor: phoneText },
      { id: 'Email', header: t('field.Email'), accessor: (c) => c.Email ?? '' },
    ],
    [t, onOpen, nameDrawn],
  );
  return (
    <DataGrid<Contact>
      label={label}
      columns={columns}
      getRowId={(c) => String(c.ContactID)}
      getRowLabel={(c) => shownName(t, c)}
      fetchPage={fetchPage}
      queryKey={['contacts', 'list', memberId ?? 'own']}
      // The page, its size and the search in the address: a reload, Back or a shared link keeps them.
      stateKey="contacts"
      searchable
      pageSizes={CONTACT_PAGE_SIZES}
      defaultPageSize={CONTACT_PAGE_SIZE}
      actions={actions}
    />
  );
}
