import type { LinkFrame } from './LinkingFrame';

/**
 * Whether a window message is the hosted linking page's report that it linked a bank: sent from the frame's own origin
 * (the aggregator's, as the token answer names it; a message from any other origin is never trusted) with action
 * 'linked' (the page also posts 'loaded' with its height).
 */
export function isFrameLinked(e: Pick<MessageEvent, 'origin' | 'data'>, frame: Pick<LinkFrame, 'origin'>): boolean {
  if (e.origin !== frame.origin) return false;
  const data: unknown = e.data;
  return typeof data === 'object' && data !== null && (data as { action?: unknown }).action === 'linked';
}
