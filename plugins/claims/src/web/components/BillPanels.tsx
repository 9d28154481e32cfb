import { lazyContribution, PartBoundary, useContributions } from '@portal/web';
import { type BillPanelProps, billPanels } from '../billPanels';

/**
 * The panels other plugins contribute to a bill's detail page (billPanels), in order, each with the bill: each loads
 * lazily with its plugin's strings, shows nothing meanwhile (a panel may have nothing to say about this bill), and one
 * that cannot load or render shows the kernel's notice in its place while the rest of the page stays usable. A brand
 * that enables no contributing plugin renders nothing here.
 */
export function BillPanels(props: BillPanelProps) {
  const panels = useContributions(billPanels);
  return panels.map((c) => {
    const Panel = lazyContribution<BillPanelProps>(c);
    return (
      // Keyed by the bill too: a panel that failed on one bill is tried again on the next.
      <PartBoundary key={`${c.id}/${props.ClaimID}`} fallback={null}>
        <Panel {...props} />
      </PartBoundary>
    );
  });
}
