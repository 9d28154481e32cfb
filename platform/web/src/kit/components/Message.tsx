import { type ReactNode, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './Button';
import * as css from './Message.css';

export type MessageKind = 'info' | 'success' | 'warning' | 'error';

export interface MessageProps {
  kind?: MessageKind;
  /** A short bold first line. */
  title?: ReactNode;
  children: ReactNode;
  className?: string;
  id?: string;
  'data-testid'?: string;
  /** Moves focus here when shown: for an outcome that replaced the control the user was on (a submitted form). */
  autoFocus?: boolean;
}

/**
 * An inline status message. An error is an alert (announced at once, interrupting); the other kinds are a
 * polite status, read when the user is idle.
 */
export function Message({ kind = 'info', title, children, className, id, 'data-testid': testId, autoFocus = false }: MessageProps) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (autoFocus) ref.current?.focus();
  }, [autoFocus]);
  return (
    <div
      ref={ref}
      id={id}
      className={className ? `${css.message[kind]} ${className}` : css.message[kind]}
      role={kind === 'error' ? 'alert' : 'status'}
      tabIndex={autoFocus ? -1 : undefined}
      data-testid={testId}
    >
      {title && <strong className={css.title}>{title}</strong>}
      {children}
    </div>
  );
}

/**
 * A save refused as stale (409): the words, focused so they are read at once, with a Reload that fetches the record as
 * it is now. The typed values stay in the form until the user presses it (see useStaleSave).
 */
export function StaleNotice({ message, onReload }: { message: string; onReload: () => void }) {
  const { t } = useTranslation();
  return (
    <Message kind="warning" autoFocus data-testid="stale-notice">
      <span>{message}</span>{' '}
      <Button size="small" onPress={onReload}>
        {t('app.reload')}
      </Button>
    </Message>
  );
}

/**
 * Data that could not be loaded: the reason, said at once (an alert), with a Try again that asks for it anew. Keep it
 * apart from an empty state: "no data" is not an error.
 */
export function LoadFailed({ message, onRetry, 'data-testid': testId }: { message: ReactNode; onRetry: () => void; 'data-testid'?: string }) {
  const { t } = useTranslation();
  return (
    <Message kind="error" data-testid={testId}>
      <span>{message}</span>{' '}
      <Button size="small" onPress={onRetry}>
        {t('app.tryAgain')}
      </Button>
    </Message>
  );
}
