import { type IframeHTMLAttributes, useEffect, useRef } from 'react';

/**
 * The aggregator's linking page for one opening: the address it is posted to (no token in it), that address's origin,
 * the fields posted (the real FastLink is opened the same way, by a POST of these into its frame) and the name of the
 * frame it opens in (new with each opening: the POST targets the frame by name).
 */
export interface LinkFrame {
  action: string;
  origin: string;
  fields: { token: string; rsession: string; app: string };
  name: string;
}

/** Linking frames opened in this page's life, for their names. */
let openings = 0;

/** The frame for a token answer: the token, rsession and app go in the POST, never in the frame's address. */
export function linkFrameOf(t: { url: string; token: string; rsession: string; app: string }): LinkFrame {
  const u = new URL(t.url);
  openings += 1;
  return { action: u.toString(), origin: u.origin, fields: { token: t.token, rsession: t.rsession, app: t.app }, name: `bank-link-${openings}` };
}

type Props = Omit<IframeHTMLAttributes<HTMLIFrameElement>, 'src' | 'srcDoc' | 'name'> & { frame: LinkFrame };

/**
 * The aggregator's linking page in a frame, opened as the card form is: a hidden form POSTs the token, rsession and app
 * into the frame (by its name), so the token, a bearer credential to the member's linking session, never stands in
 * the frame's address, a history entry or a server's access log. The frame itself has no src. The brand site's CSP
 * allows the POST: the bank frame pages add the aggregator's origin to form-action as well as frame-src (framePages).
 */
export function LinkingFrame({ frame, title, ...iframe }: Props) {
  const post = useRef<HTMLFormElement>(null);
  useEffect(() => {
    post.current?.submit();
  }, [frame]);
  return (
    <>
      <iframe key={frame.name} name={frame.name} title={title} {...iframe} />
      <form ref={post} method="post" action={frame.action} target={frame.name} hidden>
        <input type="hidden" name="token" value={frame.fields.token} />
        <input type="hidden" name="rsession" value={frame.fields.rsession} />
        <input type="hidden" name="app" value={frame.fields.app} />
      </form>
    </>
  );
}
