import type { ReactNode, Ref } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';
import * as css from './Button.css';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'link';
export type ButtonSize = 'small' | 'medium' | 'large';

export interface ButtonProps extends Omit<AriaButtonProps, 'className' | 'children' | 'style'> {
  /** primary: the one main action; secondary (default): the others; danger: destroys or removes; link: looks like a link. */
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
  children: ReactNode;
  /** Shown instead of children while isPending (e.g. "Sending…"). */
  pendingLabel?: ReactNode;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * The kit's button. isPending keeps it focusable but ignores presses (and stops a submit button submitting the
 * form again), shows a spinner and, when focused, react-aria announces the change.
 */
export function Button({ variant = 'secondary', size = 'medium', className, children, pendingLabel, isPending, ref, ...rest }: ButtonProps) {
  const classes = [css.variant[variant], css.size[size], variant === 'link' ? css.linkSize : undefined, className].filter(Boolean).join(' ');
  return (
    <AriaButton {...rest} ref={ref} isPending={isPending} className={classes}>
      {isPending ? (
        <>
          <span className={css.spinner} aria-hidden="true" />
          {pendingLabel ?? children}
        </>
      ) : (
        children
      )}
    </AriaButton>
  );
}

export interface ButtonGroupProps {
  children: ReactNode;
  /** end (default): a form's or dialog's actions, the main one last; start: a row of actions before content. */
  align?: 'start' | 'end';
  className?: string;
}

/** A row of buttons, each its own tab stop (a Toolbar is one tab stop with arrow keys between its items). */
export function ButtonGroup({ children, align = 'end', className }: ButtonGroupProps) {
  return <div className={className ? `${css.group[align]} ${className}` : css.group[align]}>{children}</div>;
}
