import type { ExtensionPoint, GatedMeta } from '@portal/web';
import type { ComponentType } from 'react';

/** What a panel on a bill's detail page is given: the bill shown. */
export interface BillPanelProps {
  ClaimID: number;
  ClaimNumber: string;
  /** The member the bill belongs to. */
  MemberID: number;
}

/**
 * Panels on a bill's detail page (/claims/:id), below the bill: what another plugin holds about the bill (the
 * reimbursement plugin: the receipts of the request the bill was made from). Role-gated and ordered; each loads lazily
 * with its plugin's strings, and a panel with nothing about the bill renders nothing. Zod-free, and not imported by the
 * claims web entry (the detail page and the contributing plugins import it, `@portal/plugin-claims/bill-panels`), so a
 * brand without a contributing plugin ships it only in the detail page's chunk. Written as what defineExtensionPoint makes
 * (`{ id }`, typed) rather than a call to it: the call would make the entry chunk export that function to the detail
 * page's chunk, a few bytes more on the card brand's sign-in path.
 */
export const billPanels: ExtensionPoint<ComponentType<BillPanelProps>, GatedMeta> = { id: 'claims.billPanels' };
