import { type ReactNode, useEffect, useRef } from 'react';
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
