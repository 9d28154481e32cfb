import { USER_DETAIL_PATH, userDetailPath } from '../access';

/**
 * The user detail route with its optional tab segment: spec 02 section 2 names the member tabs of /users/:id as
 * /details-profile, /details-addresses, /details-transactions, /details-subscription, /details-contacts and
 * /details-card. The segment is the contributed tab's id (Extensions.memberTabs), which the contributing plugins
 * already give as the spec names it; one route (not two) so moving between tabs never remounts the page.
 */
export const USER_DETAIL_TAB_PATH = `${USER_DETAIL_PATH}/:tab?`;

/** The address of one member tab of a user, e.g. /users/42/details-contacts. */
export const memberTabPath = (userId: string, tabId: string) => `${userDetailPath(userId)}/${encodeURIComponent(tabId)}`;

/**
 * The tab a URL's segment selects: the tab of that id (ignoring case, as routes match), else the first. No segment,
 * an unknown one, or one whose plugin this brand leaves out or this user may not see all show the first tab.
 */
export function selectedMemberTab(tabIds: readonly string[], segment: string | undefined): string | undefined {
  const wanted = segment?.toLowerCase();
  return tabIds.find((id) => id.toLowerCase() === wanted) ?? tabIds[0];
}
