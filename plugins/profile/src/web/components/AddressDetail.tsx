import { LookupCategory, validationMessages as m, US_STATES, zipSchema } from '@portal/core';
import { ApiCallError, useApi, useLookups, useSwapFocus } from '@portal/web';
import {
  Button,
  ButtonGroup,
  CheckboxField,
  detailsList,
  Form,
  findLookupLabel,
  LookupSelectField,
  Message,
  Panel,
  StaleNotice,
  StateSelectField,
  TextField,
  useLookupLabel,
  useStateName,
} from '@portal/web/kit';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { type Address, DEFAULT_ADDRESS_TYPE, ProfileApi } from '../../contract';
import { addressLine } from './AddressesView';
import { addressesQueryKey } from './keys';
import * as css from './profile.css';

const schema = z.object({
  Address1: z.string().trim().min(1, m.required).max(200),
  Address2: z.string().max(200),
  City: z.string().trim().min(1, m.required).max(100),
  State: z
    .string()
    .nullable()
    .refine((v) => v !== null && US_STATES.some((s) => s.abbreviation === v), m.required),
  Zip: zipSchema,
  AddressTypeID: z.number().nullable(),
  IsCurrent: z.boolean(),
});
type Values = z.infer<typeof schema>;

interface Props {
  memberId: number;
  /** null: a new address, opened in edit. */
  address: Address | null;
  onClose: () => void;
  onSaved: (a: Address) => void;
  /** Support staff acting on the member by id (the details-addresses tab), not as the member. */
  support?: boolean;
}

/** One address: view, then edit, then save or cancel; a new one opens in edit. */
export function AddressDetail({ memberId, address, onClose, onSaved, support = false }: Props) {
  const { t } = useTranslation('profile');
  const api = useApi();
  const queryClient = useQueryClient();
  const lookups = useLookups();
  const [editing, setEditing] = useState(address === null);
  const [stale, setStale] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Edit puts focus on the form's first field, Cancel back on Edit. A new address's form takes it from Add address. A
  // save gives the panel a new key (the address's new Version), so the saved address's view is a new panel, mounted
  // while focus is lost (the form's Save went away): it puts focus on its Edit; one opened from the list leaves focus
  // on the address the user chose there.
  const focus = useSwapFocus(!editing && address ? 'view' : 'form', {
    initial: address === null ? { shown: 'form', fromActive: true } : { shown: 'view', fromActive: false },
  });
  const label = useLookupLabel();
  const stateName = useStateName();
  const typeName = (id: number) => findLookupLabel(lookups, LookupCategory.AddressType, id, label) ?? String(id);

  const save = useMutation({
    mutationFn: (v: Values) => {
      const fields = {
        MemberID: memberId,
        Address1: v.Address1,
        Address2: v.Address2 || null,
        City: v.City,
        State: v.State ?? '',
        Zip: v.Zip,
        AddressTypeID: (v.AddressTypeID ?? DEFAULT_ADDRESS_TYPE) as 1 | 2 | 3 | 4 | 5,
        IsCurrent: v.IsCurrent,
      };
      return address === null
        ? api.call(support ? ProfileApi.supportCreateAddress : ProfileApi.createAddress, { body: fields }, { notify: false })
        : api.call(
            support ? ProfileApi.supportUpdateAddress : ProfileApi.updateAddress,
            { body: { ...fields, AddressID: address.AddressID, Version: address.Version } },
            { notify: false },
          );
    },
    // The control pressed (Save, or the field Enter was pressed in): focus returns to Edit only from there, or when lost.
    onMutate: () => {
      setStale(false);
      setError(null);
      return { pressed: document.activeElement };
    },
    onSuccess: async (saved, _fields, sent) => {
      await queryClient.invalidateQueries({ queryKey: addressesQueryKey });
      focus.want('view', sent?.pressed ?? null);
      setEditing(false);
      onSaved(saved);
    },
    onError: (e) => {
      if (e instanceof ApiCallError && e.status === 409) setStale(true);
      else setError(e instanceof Error ? e.message : String(e));
    },
  });

  if (!editing && address) {
    const rows: [string, string][] = [
      [t('address.Address1'), address.Address1],
      [t('address.Address2'), address.Address2 ?? ''],
      [t('address.City'), address.City],
      [t('address.State'), stateName(address.State)],
      [t('address.Zip'), address.Zip],
      [t('address.AddressTypeID'), typeName(address.AddressTypeID)],
      [t('address.IsCurrent'), address.IsCurrent ? t('yes') : t('no')],
    ];
    return (
      <Panel
        title={addressLine(address)}
        headingLevel={2}
        actions={
          <ButtonGroup>
            <Button
              ref={focus.editRef}
              variant="primary"
              onPress={() => {
                focus.want('form');
                setEditing(true);
              }}
            >
              {t('address.edit')}
            </Button>
            <Button onPress={onClose}>{t('address.close')}</Button>
          </ButtonGroup>
        }
      >
        <dl className={detailsList} data-testid="address-details">
          {rows.map(([label, value]) => (
            <div key={label} className={css.contents}>
              <dt className={css.term}>{label}</dt>
              <dd className={css.value}>{value || t('none')}</dd>
            </div>
          ))}
        </dl>
      </Panel>
    );
  }

  const defaults: Values = {
    Address1: address?.Address1 ?? '',
    Address2: address?.Address2 ?? '',
    City: address?.City ?? '',
    State: address?.State ?? null,
    Zip: address?.Zip ?? '',
    AddressTypeID: address?.AddressTypeID ?? DEFAULT_ADDRESS_TYPE,
    IsCurrent: address?.IsCurrent ?? false,
  };
  const title = address === null ? t('address.new') : t('address.editTitle');
  return (
    <Form schema={schema} defaultValues={defaults} onSubmit={(v) => save.mutate(v)} aria-label={title}>
      <Panel title={title} headingLevel={2}>
        <div className={css.stack}>
          {stale && <StaleNotice message={t('address.stale')} onReload={() => queryClient.invalidateQueries({ queryKey: addressesQueryKey })} />}
          {error && <Message kind="error">{error}</Message>}
          <div ref={focus.fieldsRef} className={css.fields}>
            <TextField name="Address1" label={t('address.Address1')} isRequired maxLength={200} autoComplete="address-line1" />
            <TextField name="Address2" label={t('address.Address2')} maxLength={200} autoComplete="address-line2" />
            <TextField name="City" label={t('address.City')} isRequired maxLength={100} autoComplete="address-level2" />
            <StateSelectField name="State" label={t('address.State')} isRequired />
            <TextField name="Zip" label={t('address.Zip')} isRequired maxLength={10} autoComplete="postal-code" />
            <LookupSelectField name="AddressTypeID" label={t('address.AddressTypeID')} category={LookupCategory.AddressType} items={lookups} />
            <CheckboxField name="IsCurrent" label={t('address.IsCurrent')} />
          </div>
          <ButtonGroup align="start">
            <Button type="submit" variant="primary" isPending={save.isPending}>
              {t('save')}
            </Button>
            <Button
              onPress={() => {
                if (address === null) onClose();
                else {
                  focus.want('view');
                  setEditing(false);
                }
              }}
            >
              {t('cancel')}
            </Button>
          </ButtonGroup>
        </div>
      </Panel>
    </Form>
  );
}
