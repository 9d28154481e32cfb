import { useApi } from '@portal/web';
import { useRef, useState } from 'react';
import { Input, Label, ListBox, ListBoxItem, Text, TextField } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { ClaimsApi, type Vendor } from '../../contract';
import * as css from './claims.css';
import { vendorSearcher } from './vendorSearch';

/**
 * Payee search: starts at 3 characters and ignores input while a search is in progress (spec 02
 * section 5); the newest text is searched once the running search returns. Clearing the text, or shortening it under
 * 3 characters, clears the payees offered (vendorSearch.ts).
 */
export function VendorSearch({ onPick }: { onPick: (v: Vendor) => void }) {
  const api = useApi();
  const { t } = useTranslation('claims');
  const [text, setText] = useState('');
  const [results, setResults] = useState<Vendor[]>([]);
  const apiRef = useRef(api);
  apiRef.current = api;
  const [searcher] = useState(() =>
    vendorSearcher((q) => apiRef.current.call(ClaimsApi.searchVendors, { params: { text: q } }, { notify: false, skipLoadingBar: true }), setResults),
  );

  return (
    <div className={css.tightStack}>
      <TextField
        value={text}
        onChange={(v) => {
          setText(v);
          searcher.input(v);
        }}
        className={css.tightStack}
      >
        <Label>{t('detail.payeeSearch')}</Label>
        <Input className={css.button} />
        <Text slot="description">{t('detail.payeeSearchHint')}</Text>
      </TextField>
      {results.length > 0 && (
        <ListBox
          aria-label={t('detail.payeeSearch')}
          selectionMode="single"
          onAction={(key) => {
            const v = results.find((r) => r.PayeeID === Number(key));
            if (v) {
              onPick(v);
              searcher.picked();
              setText(v.PayeeName);
            }
          }}
          className={css.vendorResults}
        >
          {results.map((v) => (
            <ListBoxItem key={v.PayeeID} id={v.PayeeID} textValue={v.PayeeName} className={css.vendorOption}>
              {v.PayeeName}
              {v.City ? ` — ${v.City}, ${v.State ?? ''}` : ''}
            </ListBoxItem>
          ))}
        </ListBox>
      )}
    </div>
  );
}
