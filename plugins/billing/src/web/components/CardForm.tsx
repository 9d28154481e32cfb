import { isFocusFree, showToast, useApi } from '@portal/web';
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

/** A saved card to edit in the gateway's edit-payment form (spec 01 section 7). */
export interface CardToEdit {
  ProfileId: number;
  CardNumber: string;
}

interface Props {
  /** A card was saved at the gateway: a new one, or (with its profile id) the card being edited. */
  onSaved: (editedProfileId?: number) => void;
  /** Changes with every profile refresh: the form closes (back to state 0). */
  profileVersion: number;
  /** Minimum frame height; 500 px (560 px on the support card screen). */
  minHeight?: number;
  /** Support's card screen: the form for this member (support/token/{memberId}) instead of the signed-in member's own. */
  memberId?: number;
  /** Guided mode (the registration wizard): the form opens at once, and Cancel at the gateway calls onCancel. */
  autoOpen?: boolean;
  onCancel?: () => void;
  /**
   * Opens the edit-payment form for this card (a new object each time the user asks); `onEditClosed` is called when that
   * form closes (saved, cancelled, or its token refused), so the caller can clear it.
   */
  editing?: CardToEdit | null;
  onEditClosed?: () => void;
  /** Without onCancel (not guided), Cancel at the gateway reloads this billing profile query (spec 01 section 4). */
  profileKey?: QueryKey;
}

/**
 * The gateway's hosted card form in a cross-origin iframe. The card number is typed into the gateway's page, never
 * ours. Messages are taken only from the gateway's origin and from this iframe's window.
 */
export function CardForm({ onSaved, profileVersion, minHeight = 500, memberId, autoOpen = false, onCancel, profileKey, editing, onEditClosed }: Props) {
  const api = useApi();
  const queryClient = useQueryClient();
  const { t } = useTranslation('billing');
  const [state, setState] = useState<EditStateValue>(EditState.None);
  /**
   * The gateway's form page (action), its one-time token, the name of the frame it opens in (new each opening), and the
   * card it edits (null: a new card).
   */
  const [form, setForm] = useState<{ action: string; token: string; origin: string; name: string; edits: CardToEdit | null } | null>(null);
  const [loadError, setLoadError] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const [height, setHeight] = useState(minHeight);
  const frame = useRef<HTMLIFrameElement>(null);
  /** The form whose frame has been given focus (once a form: it says it rendered again when its height changes). */
  const focusedForm = useRef<string | null>(null);
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
      if (form.edits) onEditClosed?.();
    };
    const onMessage = gatewayListener(form.origin, () => frame.current?.contentWindow, {
      rendered: (h) => {
        setState(EditState.Rendered);
        // Add card went away as the form opened: once the form is in, focus goes into its frame (its title names it, and
        // Tab goes on into its fields), unless the user has put it somewhere meanwhile. Once a form: it says so again
        // when its height changes.
        if (focusedForm.current !== form.name) {
          focusedForm.current = form.name;
          if (isFocusFree(document.activeElement, document.body, null)) frame.current?.focus();
        }
        if (h !== undefined) setHeight(Math.max(minHeight, Math.min(2000, h + 16)));
      },
      error: (message) => setCardError(message ?? t('form.saveError')),
      saved: () => {
        close();
        onSaved(form.edits?.ProfileId);
      },
      cancelled: () => {
        close();
        void cancelCardForm(queryClient, profileKey, onCancel);
      },
    });
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [form, minHeight, onSaved, onCancel, onEditClosed, profileKey, queryClient, t]);

  /** Asks our API for a form token (the edit-payment form when a card is given) and opens the form in a new frame. */
  const open = async (edits: CardToEdit | null) => {
    setState(EditState.Opening);
    setForm(null);
    setLoadError(false);
    setCardError(null);
    try {
      const query = { returnUrl: `${window.location.origin}${window.location.pathname}`, ...(edits ? { paymentProfileId: edits.ProfileId } : {}) };
      const token =
        memberId === undefined
          ? await api.call(BillingApi.token, { query }, { notify: false })
          : await api.call(BillingApi.supportToken, { params: { memberId }, query }, { notify: false });
      const url = new URL(token.Url);
      openings += 1;
      setForm({ action: url.toString(), token: token.Token, origin: url.origin, name: `card-form-${openings}`, edits });
      setState(EditState.Shown);
    } catch {
      showToast({ kind: 'error', message: t('form.tokenToast') });
      setLoadError(true);
      setState(EditState.None);
      if (edits) onEditClosed?.();
    }
  };

  // Each request to edit a card (a new `editing` object) opens that card's edit-payment form in place of any form open.
  useEffect(() => {
    if (editing) void open(editing);
  }, [editing]);

  // The form page opens by a POST of its token into the frame (spec 01 section 7: the card form posts to the add-payment
  // address with the token), so the token never stands in an address, a history entry or a server's access log.
  useEffect(() => {
    if (form) post.current?.submit();
  }, [form]);

  const opened = useRef(false);
  useEffect(() => {
    if (autoOpen && !opened.current) {
      opened.current = true;
      void open(null);
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
          <Button variant="primary" onPress={() => void open(null)} isPending={state === EditState.Opening} pendingLabel={t('form.opening')}>
            {t('form.add')}
          </Button>
        </div>
      ) : (
        form && (
          <>
            {form.edits && <p className={css.formTitle}>{t('form.editing', { card: form.edits.CardNumber })}</p>}
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
              {form.edits && <input type="hidden" name="paymentProfileId" value={form.edits.ProfileId} />}
            </form>
          </>
        )
      )}
    </div>
  );
}
