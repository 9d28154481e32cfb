import { isHttpAddress } from '@portal/server';

/**
 * Where the card gateway posts its webhooks: PAYMENT_WEBHOOK_URL when set, else `fallback` (the staff site's webhook
 * address). Checked when the plugin starts: an address the gateway could not post to (no scheme, not http or https)
 * would otherwise fail every subscription start later, with nothing saying why.
 */
export function webhookUrlFrom(env: Readonly<Record<string, string | undefined>>, fallback: string): string {
  const raw = env.PAYMENT_WEBHOOK_URL?.trim();
  if (!raw) return fallback;
  if (!isHttpAddress(raw)) {
    throw new Error(
      `PAYMENT_WEBHOOK_URL must be an absolute http(s) address the card gateway can post to (such as https://staff.example.com/api/payment/webhook), got "${raw}"`,
    );
  }
  return raw;
}
