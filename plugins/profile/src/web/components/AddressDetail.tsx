import { LookupCategory } from '@portal/core';
import { ApiCallError, newCreateKey, SubmissionKeys, useApi, useLookups, useSwapFocus } from '@portal/web';
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
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Address, DEFAULT_ADDRESS_TYPE, ProfileApi } from '../../contract';
import { addressLine } from './AddressesView';
import { type AddressValues, addressValuesOf, duplicateAddressOf, addressSchema as schema } from './addressForm';
import { draftKey } from './drafts';
import { addressesQueryKey } from './keys';
import * as css from './profile.css';
import { KeepTyped, useDraft, useDraftStore } from './useDraft';

type Values = AddressValues;

interface Props {
  memberId: number;
  /**
   * null: a new address, opened in edit. While an edit of it is open, the record that edit started from (the Addresses
   * view's panelAddress), not the list's newer Version: the save sends its Version.
   */
  address: Address | null;
  /** The Addresses view's list query, read again by Reload. */
  listKey: QueryKey;
  onClose: () => void;
  onSaved: (a: Address) => void;
  /** Support staff acting on the member by id (the details-addresses tab), not as the member. */
  support?: boolean;
  /** Opened by Add address just now (focus goes to the form), not drawn again for an edit already open. */
  fromAdd?: boolean;
}

/**
 * One address: view, then edit, then save or cancel; a new one opens in edit. An open edit lives in the page's draft
 * store (drafts.ts): the Addresses tab left and opened again shows it with what was typed.
 */
export function AddressDetail({ memberId, address, listKey, onClose, onSaved, support = false, fromAdd = false }: Props) {
  const { t } = useTranslation('profile');
  const api = useApi();
  const queryClient = useQueryClient();
  const lookups = useLookups();
  const drafts = useDraftStore();
  const key = draftKey(support ? 'support' : 'own', memberId, `address/${address?.AddressID ?? 'new'}`);
  const draft = useDraft<Address | null, Values>(key);
  const editing = draft !== undefined || address === null;
  const [stale, setStale] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // A new address's IdempotencyKeys live in its edit (drafts.ts), so they survive a tab switch as what was typed does;
  // these stand in only when no edit is open (the store was emptied under an open form): kept for the form's life.
  const formKeys = useRef(new SubmissionKeys(() => newCreateKey('profile'))).current;
  const submissionKeys = () => drafts.get<Address | null, Values>(key)?.keys ?? formKeys;
  // Edit puts focus on the form's first field, Cancel back on Edit. A new address's form takes it from Add address. A
  // save gives the panel a new key (the address's new Version), so the saved address's view is a new panel, mounted
  // while focus is lost (the form's Save went away): it puts focus on its Edit; one opened from the list leaves focus
  // on the address the user chose there. An edit drawn again (the tab opened again, a Reload) takes focus only when it
  // was lost.
  const focus = useSwapFocus(editing ? 'form' : 'view', {
    initial: fromAdd ? { shown: 'form', fromActive: true } : { shown: editing ? 'form' : 'view', fromActive: false },
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
      // One IdempotencyKey per submission: the same address saved again after a failure (an answer lost) is added once.
      return address === null
        ? api.call(
            support ? ProfileApi.supportCreateAddress : ProfileApi.createAddress,
            { body: { ...fields, IdempotencyKey: submissionKeys().keyFor(fields) } },
            { notify: false },
          )
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
      if (address === null) submissionKeys().added();
      await queryClient.invalidateQueries({ queryKey: addressesQueryKey });
      focus.want('view', sent?.pressed ?? null);
      onSaved(saved);
      drafts.close(key);
    },
    // A save over someone else's change (409) is said with a Reload; any other refusal, an address the member already
    // has (a 409 naming it) among them, in the server's words.
    onError: (e) => {
      if (e instanceof ApiCallError && e.status === 409 && duplicateAddressOf(e) === null) setStale(true);
      else setError(e instanceof Error ? e.message : String(e));
    },
  });

  // The address as it is now, and the edit opened again from it (gone: the panel closes); a reload that failed keeps
  // the edit and the notice.
  const reload = async () => {
    try {
      await queryClient.invalidateQueries({ queryKey: addressesQueryKey }, { throwOnError: true });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    const fresh = queryClient.getQueryData<Address[]>(listKey)?.find((a) => a.AddressID === address?.AddressID);
    setStale(false);
    setError(null);
    if (fresh) drafts.open(key, fresh, addressValuesOf(fresh));
    else {
      drafts.close(key);
      onClose();
    }
  };

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
                drafts.open(key, address, addressValuesOf(address));
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

  const title = address === null ? t('address.new') : t('address.editTitle');
  return (
    // Drawn anew for each opening of the edit (Edit, Add, Reload), from the values as typed (a tab switch and back).
    <Form
      leaveGuard="closing"
      key={draft?.id ?? 'new'}
      schema={schema}
      defaultValues={draft?.values ?? addressValuesOf(address)}
      onSubmit={(v) => save.mutate(v)}
      aria-label={title}
    >
      {(form) => (
        <Panel title={title} headingLevel={2}>
          <KeepTyped form={form} draftKey={key} />
          <div className={css.stack}>
            {stale && <StaleNotice message={t('address.stale')} onReload={reload} />}
            {error && <Message kind="error">{error}</Message>}
            <div ref={focus.fieldsRef} className={css.fields}>
              <TextField name="Address1" label={t('address.Address1')} isRequired maxLength={200} autoComplete="address-line1" />
              <TextField name="Address2" label={t('address.Address2')} maxLength={200} autoComplete="address-line2" />
              <TextField name="City" label={t('address.City')} isRequired maxLength={100} autoComplete="address-level2" />
              <StateSelectField name="State" label={t('address.State')} isRequired />
              <TextField name="Zip" label={t('address.Zip')} isRequired maxLength={10} autoComplete="postal-code" />
              <LookupSelectField name="AddressTypeID" label={t('address.AddressTypeID')} category={LookupCategory.AddressType} items={lookups} />
              {/* The current address stays current until another one is made current (the server keeps it so). */}
              <CheckboxField
                name="IsCurrent"
                label={t('address.IsCurrent')}
                isDisabled={address?.IsCurrent === true}
                description={address?.IsCurrent === true ? t('address.currentStays') : undefined}
              />
            </div>
            <ButtonGroup align="start">
              <Button type="submit" variant="primary" isPending={save.isPending}>
                {t('save')}
              </Button>
              <Button
                onPress={() => {
                  setStale(false);
                  setError(null);
                  if (address !== null) focus.want('view');
                  drafts.close(key);
                  if (address === null) onClose();
                }}
              >
                {t('cancel')}
              </Button>
            </ButtonGroup>
          </div>
        </Panel>
      )}
    </Form>
  );
}
