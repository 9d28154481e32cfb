import type { PasswordRule } from '@portal/core';
import { type ApiClient, useApi } from '@portal/web';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { AccountApi } from '../../contract';
import * as css from './account.css';

export const accountKeys = {
  policy: ['account', 'password-policy'],
  questions: ['account', 'security-questions'],
  link: (kind: string, urlId: string) => ['account', 'link', kind, urlId],
} as const;

/** GET reset/passwordpolicy: the server's rules, shown as the password checklist. */
export function usePasswordPolicy() {
  const api = useApi();
  return useQuery({
    queryKey: accountKeys.policy,
    queryFn: () => api.get<PasswordRule[]>(AccountApi.passwordPolicy, { notify: false }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function fetchQuestions(api: ApiClient) {
  return api.get<{ Id: number; Text: string }[]>(AccountApi.securityQuestions, { notify: false });
}

/** A status line: 'error' is announced at once (alert), the others politely (status). */
export function Message({ kind, children, testId }: { kind: 'success' | 'error' | 'info'; children: ReactNode; testId?: string }) {
  return (
    <p className={css.message[kind]} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {children}
    </p>
  );
}

/** A modal dialog for the login screen's slots; Escape and a click outside close it. */
export function AccountModal({
  isOpen,
  onOpenChange,
  title,
  children,
}: {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: (close: () => void) => ReactNode;
}) {
  return (
    <ModalOverlay className={css.overlay} isOpen={isOpen} onOpenChange={onOpenChange} isDismissable>
      <Modal className={css.modal}>
        <Dialog className={css.dialog}>
          {({ close }) => (
            <>
              <Heading slot="title" className={css.heading}>
                {title}
              </Heading>
              {children(close)}
            </>
          )}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
