import { deferred } from '@portal/testing/deferred';
import { describe, expect, it } from 'vitest';
import { TeamActions } from './teamActions';

describe('team actions under quick clicks', () => {
  it('sends nothing while a change is pending, then sends the next one with the Version the first answered', async () => {
    const actions = new TeamActions(5);
    const sent: number[] = [];
    // A change whose answer the test releases: the user's next Version.
    const first = deferred<{ Version: number }>();
    const removeA = actions.run(
      (v) => {
        sent.push(v);
        return first.promise;
      },
      (a) => a.Version,
    );
    expect(actions.busy).toBe(true);
    // Remove on a second team while the first is pending: not sent (it would carry Version 5 and get a false 409).
    const removeB = await actions.run(
      (v) => {
        sent.push(v);
        return Promise.resolve({ Version: v + 1 });
      },
      (a) => a.Version,
    );
    expect(removeB).toBeUndefined();
    first.release({ Version: 6 });
    await removeA;
    expect(actions.busy).toBe(false);
    await actions.run(
      (v) => {
        sent.push(v);
        return Promise.resolve({ Version: v + 1 });
      },
      (a) => a.Version,
    );
    expect(sent).toEqual([5, 6]);
    expect(actions.current).toBe(7);
  });

  it('keeps the Version for a change that does not touch the user, and after a refused change', async () => {
    const actions = new TeamActions(3);
    await actions.run(
      () => Promise.resolve({ Id: 9 }),
      () => null,
    );
    expect(actions.current).toBe(3);
    await expect(
      actions.run(
        () => Promise.reject(new Error('409')),
        () => 99,
      ),
    ).rejects.toThrow('409');
    expect(actions.busy).toBe(false);
    expect(actions.current).toBe(3);
  });

  it('takes a newer Version read from the server, never an older one', () => {
    const actions = new TeamActions(4);
    actions.read(3);
    expect(actions.current).toBe(4);
    actions.read(8);
    expect(actions.current).toBe(8);
  });
});
