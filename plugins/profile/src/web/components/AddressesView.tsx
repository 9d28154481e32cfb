import { LookupCategory } from '@portal/core';
import { useApi, useLookups } from '@portal/web';
import { Button, DataGrid, findLookupLabel, type GridColumn, useLookupLabel } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Address, ProfileApi } from '../../contract';
import { AddressDetail } from './AddressDetail';
import { type AddressValues, addressValuesOf, panelAddress } from './addressForm';
import { draftKey, lastAddress } from './drafts';
import { addressesQueryKey } from './keys';
import * as css from './profile.css';
import { useDraft, useDraftStore } from './useDraft';

export const addressLine = (a: Pick<Address, 'Address1' | 'Address2'>) => [a.Address1, a.Address2].filter(Boolean).join(', ');

/**
 * The member's addresses: a grid, and the chosen address's detail panel below it (view, edit, save or cancel). An
 * address being edited (or added) stays so when the tab is left and opened again: the view opens the last one opened
 * of those with an edit open, from the page's draft store (drafts.ts).
 */
export function AddressesView({ memberId, support = false }: { memberId: number; support?: boolean }) {
  const { t } = useTranslation('profile');
  const api = useApi();
  const lookups = useLookups(LookupCategory.AddressType);
  const label = useLookupLabel();
  const drafts = useDraftStore();
  const scope = support ? 'support' : 'own';
  const [open, setOpen] = useState<number | 'new' | null>(() => lastAddress(drafts, scope, memberId));
  // Add address pressed in this view: the new address's form takes focus.
  const [added, setAdded] = useState(false);
  const gridRef = useRef<HTMLElement>(null);
  const listKey = support ? [...addressesQueryKey, 'support', memberId] : addressesQueryKey;
  const addresses = useQuery({
    queryKey: listKey,
    queryFn: async () =>
      support
        ? (await api.call(ProfileApi.supportAddresses, { params: { id: memberId }, body: { PageSize: 100 } }, { notify: false, skipLoadingBar: true })).Items
        : api.call(ProfileApi.loadAddresses, undefined, { notify: false }),
  });
  const columns = useMemo<GridColumn<Address>[]>(() => {
    const typeName = (id: number) => findLookupLabel(lookups, LookupCategory.AddressType, id, label) ?? String(id);
    return [
      {
        id: 'Address1',
        header: t('address.Address1'),
        accessor: (a) => addressLine(a),
        cell: (a) => (
          <button type="button" className={css.linkButton} onClick={() => setOpen(a.AddressID)}>
            {addressLine(a)}
          </button>
        ),
      },
      { id: 'City', header: t('address.City'), accessor: (a) => a.City },
      { id: 'State', header: t('address.State'), accessor: (a) => a.State },
      { id: 'Zip', header: t('address.Zip'), accessor: (a) => a.Zip },
      { id: 'AddressTypeID', header: t('address.AddressTypeID'), accessor: (a) => typeName(a.AddressTypeID) },
      { id: 'IsCurrent', header: t('address.IsCurrent'), accessor: (a) => (a.IsCurrent ? t('yes') : t('no')) },
    ];
  }, [t, lookups, label]);
  const draft = useDraft<Address | null, AddressValues>(open === null ? null : draftKey(scope, memberId, `address/${open}`));
  // While the chosen address's edit is open, the record it started from: a refetch bringing a newer Version neither
  // draws the panel anew (its key) nor changes the Version the save sends.
  const chosen = panelAddress(open, draft?.start, addresses.data);
  return (
    <div className={css.stack}>
      <section ref={gridRef} tabIndex={-1} aria-label={t('address.listLabel')}>
        <DataGrid<Address>
          label={t('address.listLabel')}
          columns={columns}
          getRowId={(a) => String(a.AddressID)}
          getRowLabel={(a) => addressLine(a)}
          data={addresses.data ?? []}
          isLoading={addresses.isPending}
          isError={addresses.isError}
          onRetry={() => void addresses.refetch()}
          // The page, sort and search in the address: a reload, Back or a shared link keeps them.
          stateKey="addresses"
          sortable
          searchable
          // Spec 02 section 9: the page sizes offered, and the grid's default of 5 (addresses have no default of their own).
          pageSizes={[5, 10, 20, 50, 100]}
          actions={
            <Button
              variant="primary"
              onPress={() => {
                // A new address being typed (the tab left meanwhile, or another address opened) is opened again.
                const key = draftKey(scope, memberId, 'address/new');
                if (!drafts.get(key)) drafts.open(key, null, addressValuesOf(null));
                setAdded(true);
                setOpen('new');
              }}
            >
              {t('address.add')}
            </Button>
          }
        />
      </section>
      {(open === 'new' || chosen) && (
        <AddressDetail
          key={open === 'new' ? 'new' : `${chosen?.AddressID}-${chosen?.Version}`}
          memberId={memberId}
          support={support}
          listKey={listKey}
          fromAdd={open === 'new' && added}
          address={open === 'new' ? null : chosen}
          onClose={() => {
            setOpen(null);
            requestAnimationFrame(() => gridRef.current?.focus());
          }}
          onSaved={(a) => setOpen(a.AddressID)}
        />
      )}
    </div>
  );
}
