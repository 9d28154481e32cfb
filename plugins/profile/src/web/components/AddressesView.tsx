import { LookupCategory } from '@portal/core';
import { useApi, useLookups } from '@portal/web';
import { Button, DataGrid, findLookupLabel, type GridColumn, useLookupLabel } from '@portal/web/kit';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Address, ProfileApi } from '../../contract';
import { AddressDetail } from './AddressDetail';
import { addressesQueryKey } from './keys';
import * as css from './profile.css';

export const addressLine = (a: Pick<Address, 'Address1' | 'Address2'>) => [a.Address1, a.Address2].filter(Boolean).join(', ');

/** The member's addresses: a grid, and the chosen address's detail panel below it (view, edit, save or cancel). */
export function AddressesView({ memberId, support = false }: { memberId: number; support?: boolean }) {
  const { t } = useTranslation('profile');
  const api = useApi();
  const lookups = useLookups(LookupCategory.AddressType);
  const label = useLookupLabel();
  const [open, setOpen] = useState<number | 'new' | null>(null);
  const gridRef = useRef<HTMLElement>(null);
  const addresses = useQuery({
    queryKey: support ? [...addressesQueryKey, 'support', memberId] : addressesQueryKey,
    queryFn: async () =>
      support
        ? (await api.call(ProfileApi.supportAddresses, { params: { id: memberId }, body: { PageSize: 100 } }, { notify: false })).Items
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
  const chosen = typeof open === 'number' ? (addresses.data?.find((a) => a.AddressID === open) ?? null) : null;
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
          sortable
          searchable
          pageSizes={[5, 10, 20, 50, 100]}
          defaultPageSize={10}
          actions={
            <Button variant="primary" onPress={() => setOpen('new')}>
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
