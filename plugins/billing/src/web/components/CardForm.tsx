import { showToast, useApi } from '@portal/web';
import { Button, Message } from '@portal/web/kit';
import { type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BillingApi } from '../../contract';
import * as css from './billing.css';
import { cancelCardForm, gatewayListener } from './gateway';

/** Card forms opened in this page's life: each opens in a frame of its own name (a POST targets the frame by name). */
let openings = 0;

/** Edit states (spec 01 section 4): 0 none, 1 opening the card form, 2 form shown, 3 rendered. */
export const EditState = { None: 0, Opening: 1, Shown: 2, Rendered: 3 } as const;
export type EditStateValue = (typeof EditState)[keyof typeof EditState];

interface Props {
  /** A card was saved at the gateway. */
  onSaved: () => void;
  /** Changes with every profile refresh: the form closes (back to state 0). */
  profileVersion: number;
  /** Minimum frame height; 500 px (560 px on the support card screen). */
  minHeight?: number;
  /** Support's card screen: the form for this member (support/token/{memberId}) instead of the signed-in member's own. */
  memberId?: number;
  /** Guided mode (the registration wizard): the form opens at once, and Cancel at the gateway calls onCancel. */
  autoOpen?: boolean;
  onCancel?: () => void;
  /** Without onCancel (not guided), Cancel at the gateway reloads this billing profile query (spec 01 section 4). */
  profileKey?: QueryKey;
}

/**
 * The gateway's hosted card form in a cross-origin iframe. The card number is typed into the gateway's page, never
 * ours. Messages are taken only from the gateway's origin and from this iframe's window.
 */
export function CardForm({ onSaved, profileVersion, minHeight = 500, memberId, autoOpen = false, onCancel, profileKey }: Props) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { t } = useTranslation('billing');
  const [state, setState] = useState<EditStateValue>(EditState.None);
  /** The gateway's form page (action), its one-time token, and the name of the frame it opens in (new each opening). */
  const [form, setForm] = useState<{ action: string; token: string; origin: string; name: string } | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const [height, setHeight] = useState(minHeight);
  const frame = useRef<HTMLIFrameElement>(null);
  const post = useRef<HTMLFormElement>(null);

  // A profile refresh closes the form (state back to 0).
  useEffect(() => {
    if (profileVersion === 0) return;
    setState(EditState.None);
    setForm(null);
  }, [profileVersion]);

  useEffect(() => {
    if (!form) return;
    const close = () => {
      setCardError(null);
      setState(EditState.None);
      setForm(null);
    };
    const onMessage = gatewayListener(form.origin, () => frame.current?.contentWindow, {
      rendered: (h) => {
        setState(EditState.Rendered);
        if (h !== undefined) setHeight(Math.max(minHeight, Math.min(2000, h + 16)));
      },
      error: (message) => setCardError(message ?? t('form.saveError')),
      saved: () => {
        close();
        onSaved();
      },
      cancelled: () => {
        close();
        void cancelCardForm(queryClient, profileKey, onCancel);
      },
    });
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [form, minHeight, onSaved, onCancel, profileKey, queryClient, t]);

  const open = async () => {
    setState(EditState.Opening);
    setLoadError(false);
    setCardError(null);
    try {
      const returnUrl = `${window.location.origin}${window.location.pathname}`;
      const token =
        memberId === undefined
          ? await api.call(BillingApi.token, { query: { returnUrl } }, { notify: false })
          : await api.call(BillingApi.supportToken, { params: { memberId }, query: { returnUrl } }, { notify: false });
      const url = new URL(token.Url);
      openings += 1;
      setForm({ action: url.toString(), token: token.Token, origin: url.origin, name: `card-form-${openings}` });
      setState(EditState.Shown);
    } catch {
      showToast({ kind: 'error', message: t('form.tokenToast') });
      setLoadError(true);
      setState(EditState.None);
    }
  };

  // The form page opens by a POST of its token into the frame (spec 01 section 7: the card form posts to the add-payment
  // address with the token), so the token never stands in an address, a history entry or a server's access log.
  useEffect(() => {
    if (form) post.current?.submit();
  }, [form]);

  const opened = useRef(false);
  useEffect(() => {
    if (autoOpen && !opened.current) {
      opened.current = true;
      void open();
    }
  }, [autoOpen]);

  return (
    <div className={css.stack} data-edit-state={state}>
      {loadError && <Message kind="error">{t('form.tokenText')}</Message>}
      {cardError && (
        <Message kind="error" data-testid="card-error">
          {cardError}
        </Message>
      )}
      {state <= EditState.Opening ? (
        <div className={css.row}>
          <Button variant="primary" onPress={() => void open()} isPending={state === EditState.Opening} pendingLabel={t('form.opening')}>
            {t('form.add')}
          </Button>
        </div>
      ) : (
        form && (
          <>
            {state === EditState.Shown && <p aria-busy="true">{t('form.loading')}</p>}
            <iframe
              key={form.name}
              ref={frame}
              name={form.name}
              className={css.frame}
              style={{ height, minHeight }}
              title={t('form.frameTitle')}
              data-testid="card-frame"
            />
            <form ref={post} method="post" action={form.action} target={form.name} hidden>
              <input type="hidden" name="token" value={form.token} />
            </form>
          </>
        )
      )}
    </div>
  );
}
