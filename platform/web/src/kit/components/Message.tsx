import { type ReactNode, type RefObject, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { firstFieldIn, isFocusFree } from '../../focus/swapFocus';
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
  /** The message's element, for a caller that needs its place in the page. */
  elementRef?: RefObject<HTMLDivElement | null>;
}

/**
 * An inline status message. An error is an alert (announced at once, interrupting); the other kinds are a
 * polite status, read when the user is idle.
 */
export function Message({ kind = 'info', title, children, className, id, 'data-testid': testId, autoFocus = false, elementRef }: MessageProps) {
  const ownRef = useRef<HTMLDivElement>(null);
  const ref = elementRef ?? ownRef;
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
export function StaleNotice({ message, onReload }: { message: string; onReload: () => unknown }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  return (
    <Message kind="warning" autoFocus data-testid="stale-notice" elementRef={ref}>
      <span>{message}</span>{' '}
      <Button size="small" onPress={() => reloadKeepingFocus(ref.current, onReload)}>
        {t('app.reload')}
      </Button>
    </Message>
  );
}

/**
 * Runs a stale notice's reload (`onReload` may return the reload's promise). Once it is done, the record as it is now is
 * in the form and the notice, with the button that had focus, is gone (a form drawn anew may have shown a notice of its
 * own for a moment): focus goes to the first field of what the notice stood in, or of its nearest part still on the
 * page, unless the user has moved it meanwhile.
 */
export function reloadKeepingFocus(notice: Element | null, onReload: () => unknown): void {
  const ancestors = ancestorsOf(notice);
  void Promise.resolve()
    .then(onReload)
    .then(
      // After the frame the reload's last changes (the notice put away) are drawn in.
      () => requestAnimationFrame(() => setTimeout(() => focusAfterReload(ancestors), 0)),
      () => {},
    );
}

/** The element's ancestors, nearest first, up to the page's main part (or the body). */
function ancestorsOf(el: Element | null): Element[] {
  const found: Element[] = [];
  for (let a = el?.parentElement ?? null; a && a !== document.body; a = a.parentElement) {
    found.push(a);
    if (a.tagName === 'MAIN') break;
  }
  return found;
}

/**
 * After a stale notice's Reload: the record as it is now is in the form, and the notice (with the button that had focus)
 * is gone. Focus goes to the first field of what the notice stood in (or of its nearest part still on the page, when
 * that was drawn anew), unless the user has moved it meanwhile.
 */
function focusAfterReload(ancestors: Element[]) {
  if (!isFocusFree(document.activeElement, document.body, null)) return;
  const scope = ancestors.find((a) => a.isConnected);
  if (!scope) return;
  firstFieldIn(scope)?.focus();
}

/**
 * Data that could not be loaded: the reason, said at once (an alert), with a Try again that asks for it anew. Keep it
 * apart from an empty state: "no data" is not an error.
 */
export function LoadFailed({ message, onRetry, 'data-testid': testId }: { message: ReactNode; onRetry: () => void; 'data-testid'?: string }) {
  const { t } = useTranslation();
  const element = useRef<HTMLDivElement>(null);
  // A Try again that failed again: focus, which waited on the part (below), goes back to this Try again.
  useEffect(() => {
    const home = element.current?.parentElement;
    if (home && document.activeElement === home) firstFieldIn(element.current, 'button')?.focus();
  }, []);
  const retry = () => {
    const home = element.current?.parentElement;
    onRetry();
    // The message, and the Try again pressed in it, give way to the part's loading state: focus waits on the part that
    // held them (not the page's start) until the part is drawn again.
    const message = element.current;
    let frames = 0;
    const settle = () => {
      // Still shown (the part has not drawn its loading state yet): look again at the next frame, for a few.
      if (message?.isConnected) {
        if (++frames < 10) requestAnimationFrame(settle);
        return;
      }
      if (!home?.isConnected || !isFocusFree(document.activeElement, document.body, null)) return;
      if (!home.hasAttribute('tabindex')) home.setAttribute('tabindex', '-1');
      home.focus({ preventScroll: true });
    };
    requestAnimationFrame(settle);
  };
  return (
    <Message kind="error" data-testid={testId} elementRef={element}>
      <span>{message}</span>{' '}
      <Button size="small" onPress={retry}>
        {t('app.tryAgain')}
      </Button>
    </Message>
  );
}
