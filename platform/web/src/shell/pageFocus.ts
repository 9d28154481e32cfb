/** What the focus decision needs of an element: whether it holds another (a DOM Node's `contains`). */
interface Container {
  contains(other: unknown): boolean;
}

/**
 * After a move to another page: whether focus should go to the page's heading. Not when the page has put focus in
 * itself already (a form's first field, a notice that takes focus); yes when focus is nowhere (the body: the control
 * pressed went away with the old page) or still in the toolbar or navigation (the link that was followed).
 */
export function shouldFocusHeading(active: Container | null, main: Container | null): boolean {
  return !(active && main?.contains(active));
}

/**
 * Whether focus is nowhere (on the body): the control that had it went away with its part (a menu's stand-in, the
 * picker swapped for the banner). The shell's own check: `isFocusFree` (focus/swapFocus) sits with the landing page's
 * modules, and the shell's chunks importing it would load the landing page's chunk before the sign-in's identity.
 */
export function focusIsLost(active: unknown = document.activeElement, body: unknown = document.body): boolean {
  return active === null || active === undefined || active === body;
}
