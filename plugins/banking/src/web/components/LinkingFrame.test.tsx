import { Children, isValidElement, type ReactElement, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { LinkingFrame, linkFrameOf } from './LinkingFrame';

// No DOM here (and no react-dom in this package): the component is called as a function, with its hooks inert.
vi.mock('react', async (actual) => ({ ...(await actual<typeof import('react')>()), useRef: () => ({ current: null }), useEffect: () => {} }));

type Props = Record<string, unknown> & { children?: ReactNode };
/** The host elements (iframe, form, input) the component renders, depth first. */
function hostElements(node: ReactNode): ReactElement<Props>[] {
  return Children.toArray(node).flatMap((child) => {
    if (!isValidElement<Props>(child)) return [];
    return typeof child.type === 'string' ? [child, ...hostElements(child.props.children)] : hostElements(child.props.children);
  });
}

const answer = {
  url: 'http://localhost:8090/aggregator/fastlink',
  token: 'tok-SECRET_1',
  rsession: 'rs-0123abcd',
  app: '10003600',
  extra: 'keyword=&flow=add',
};

describe('the bank linking frame (privacy review finding 6)', () => {
  it('is opened by a POST of token, rsession and app into a frame of its own name; the address carries none of them', () => {
    const frame = linkFrameOf(answer);
    expect(frame).toMatchObject({
      action: answer.url,
      origin: 'http://localhost:8090',
      fields: { token: answer.token, rsession: answer.rsession, app: answer.app },
    });
    expect(linkFrameOf(answer).name).not.toBe(frame.name);

    const elements = hostElements(LinkingFrame({ frame, title: 'Link a bank', height: 825 }));
    expect(elements.map((e) => e.type)).toEqual(['iframe', 'form', 'input', 'input', 'input']);
    const [iframe, form, ...inputs] = elements;
    // The frame has no address of its own (the POST loads it), so no token, rsession or app can stand in one.
    expect(iframe?.props).toEqual({ name: frame.name, title: 'Link a bank', height: 825 });
    expect(JSON.stringify(iframe?.props)).not.toMatch(/tok-SECRET_1|rs-0123abcd|token/);
    expect(form?.props).toMatchObject({ method: 'post', action: answer.url, target: frame.name, hidden: true });
    expect(inputs.map((i) => i.props)).toEqual([
      { type: 'hidden', name: 'token', value: answer.token },
      { type: 'hidden', name: 'rsession', value: answer.rsession },
      { type: 'hidden', name: 'app', value: answer.app },
    ]);
  });

  it('posts to the address the finance service gives, as it is, never with the token added to it', () => {
    const url = 'https://fl4.example.com/authenticate/restserver/fastlink?channelAppName=x';
    const frame = linkFrameOf({ ...answer, url });
    expect(frame.action).toBe(url);
    expect(frame.action).not.toContain(answer.token);
    expect(new URL(frame.action).searchParams.has('token')).toBe(false);
  });
});
