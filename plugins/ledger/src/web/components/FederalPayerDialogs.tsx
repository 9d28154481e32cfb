import { Button, ConfirmDialog, Dialog } from '@portal/web/kit';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONFIRM_DIALOG_DELAY_MS } from '../../rules';
import { day } from './format';
import type { ReportHeader } from './header';
import * as css from './ledger.css';

interface Props {
  /** The info dialog is open (the page's "Send to federal payer" opens it). */
  isOpen: boolean;
  onClose: () => void;
  period: { From: string; To: string };
  header: ReportHeader;
  onHeaderChange: (h: ReportHeader) => void;
  /** Said above the header's fields: a send refused because someone changed the stored header (with its Reload). */
  notice?: ReactNode;
  /** Sends the report; resolves when done (the page shows the outcome). */
  onSend: () => Promise<void>;
}

/**
 * The federal-payer dialogs: first the info dialog (what is sent, and the report's header), then, 700 ms after it
 * closes, the confirm dialog (spec 02 section 9).
 */
export function FederalPayerDialogs({ isOpen, onClose, period, header, onHeaderChange, notice, onSend }: Props) {
  const { t } = useTranslation('ledger');
  const [confirmOpen, setConfirmOpen] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const ids = { hicn: useId(), injury: useId(), settlement: useId() };
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const proceed = () => {
    onClose();
    timer.current = setTimeout(() => setConfirmOpen(true), CONFIRM_DIALOG_DELAY_MS);
  };

  return (
    <>
      <Dialog isOpen={isOpen} onOpenChange={(open) => !open && onClose()} title={t('payer.infoTitle')} size="medium">
        {(close) => (
          <div>
            <p>{t('payer.info', { from: day(period.From), to: day(period.To) })}</p>
            {notice}
            <div className={css.header}>
              <div className={css.field}>
                <label htmlFor={ids.hicn}>{t('fields.HICN')}</label>
                {/* The first field takes focus, unless a notice is there to be read first (it takes focus itself). */}
                <input
                  id={ids.hicn}
                  autoFocus={!notice}
                  className={css.input}
                  value={header.HICN}
                  maxLength={20}
                  onChange={(e) => onHeaderChange({ ...header, HICN: e.target.value })}
                />
              </div>
              <div className={css.field}>
                <label htmlFor={ids.injury}>{t('fields.DateOfInjury')}</label>
                <input
                  id={ids.injury}
                  type="date"
                  className={css.input}
                  value={header.DateOfInjury}
                  onChange={(e) => onHeaderChange({ ...header, DateOfInjury: e.target.value })}
                />
              </div>
              <div className={css.field}>
                <label htmlFor={ids.settlement}>{t('fields.DateOfSettlement')}</label>
                <input
                  id={ids.settlement}
                  type="date"
                  className={css.input}
                  value={header.DateOfSettlement}
                  onChange={(e) => onHeaderChange({ ...header, DateOfSettlement: e.target.value })}
                />
              </div>
            </div>
            <div className={css.actions}>
              <Button variant="primary" onPress={proceed}>
                {t('payer.continue')}
              </Button>
              <Button onPress={close}>{t('cancel')}</Button>
            </div>
          </div>
        )}
      </Dialog>
      <ConfirmDialog
        isOpen={confirmOpen}
        onOpenChange={setConfirmOpen}
        title={t('payer.confirmTitle')}
        message={t('payer.confirm', { from: day(period.From), to: day(period.To) })}
        confirmLabel={t('payer.send')}
        cancelLabel={t('cancel')}
        pendingLabel={t('payer.sending')}
        onConfirm={onSend}
      />
    </>
  );
}
