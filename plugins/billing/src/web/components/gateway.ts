import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** The billing profile of the signed-in member, as the billing pages read it. */
export const PROFILE_KEY = ['billing', 'profile'] as const;
/** The signed-in member's payments (the billing page's list). */
export const PAYMENTS_KEY = ['billing', 'payments'] as const;

/** What the gateway's hosted form posts to the page that frames it. */
export interface GatewayMessage {
  source?: string;
  action?: 'loaded' | 'resizeWindow' | 'successfulSave' | 'cancel' | 'error';
  height?: number;
  message?: string;
}

export interface GatewayHandlers {
  /** The form is on screen, or changed its height (when it says). */
  rendered: (height: number | undefined) => void;
  /** The gateway refused the card: its message, or null when it gave none. */
  error: (message: string | null) => void;
  saved: () => void;
  cancelled: () => void;
}

/**
 * The page's message listener for one hosted form: messages are taken only from the gateway's origin and from the
 * iframe's own window, and only the gateway's own kind of message.
 */
export function gatewayListener(origin: string, frameWindow: () => MessageEventSource | null | undefined, on: GatewayHandlers) {
  return (event: MessageEvent<GatewayMessage>) => {
    if (event.origin !== origin || event.source == null || event.source !== frameWindow()) return;
    const m = event.data;
    if (m?.source !== 'sandbox-gateway') return;
    if (m.action === 'loaded' || m.action === 'resizeWindow') on.rendered(typeof m.height === 'number' && Number.isFinite(m.height) ? m.height : undefined);
    else if (m.action === 'error') on.error(typeof m.message === 'string' ? m.message.slice(0, 300) : null);
    else if (m.action === 'successfulSave') on.saved();
    else if (m.action === 'cancel') on.cancelled();
  };
}

/**
 * Cancel at the gateway (spec 01 section 4): in guided mode (the registration wizard) the caller reopens the card
 * form; otherwise the billing profile is reloaded (the page's query is fetched again).
 */
export function cancelCardForm(queryClient: QueryClient, profileKey: QueryKey | undefined, guidedCancel: (() => void) | undefined): Promise<void> {
  if (guidedCancel) {
    guidedCancel();
    return Promise.resolve();
  }
  return profileKey ? queryClient.invalidateQueries({ queryKey: profileKey }) : Promise.resolve();
}
