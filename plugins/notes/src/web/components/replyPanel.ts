/**
 * The reply form under a conversation. While the note itself is edited it is hidden, not removed, so the reply typed
 * so far (text, type, files) is still there when the edit closes. It starts empty again only once a reply was sent
 * (`sent` counts the replies sent from the page): reading the thread again (someone else's reply arriving, the edit
 * saved) and opening or closing the edit keep the form and what was typed in it.
 */
export function replyPanel(editing: boolean, sent: number): { hidden: boolean; formKey: string } {
  return { hidden: editing, formKey: `reply-${sent}` };
}
