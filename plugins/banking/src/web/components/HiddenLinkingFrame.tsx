import { useTranslation } from 'react-i18next';
import { LinkingFrame } from './LinkingFrame';
import { useFrameDocument } from './useFrameDocument';
import { useLinkToken } from './useLinkToken';

function Frame() {
  const { t } = useTranslation('banking');
  const frame = useLinkToken();
  if (typeof frame === 'string') return null;
  return <LinkingFrame frame={frame} hidden title={t('fastlink.hiddenFrameTitle')} data-testid="hidden-linking-frame" data-state="loaded" />;
}

/**
 * The hidden linking frame (spec 01 section 2): opens the member's session at the aggregator (its linking page, with
 * the token and rsession posted into the frame) in the background, so linking starts from a live session. Its loader
 * retries up to 3 times, 1 s apart. Only where the document's CSP allows the aggregator's frame.
 */
export function HiddenLinkingFrame() {
  const canFrame = useFrameDocument();
  return canFrame ? <Frame /> : null;
}
