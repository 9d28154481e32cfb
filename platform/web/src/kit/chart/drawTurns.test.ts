import { describe, expect, it } from 'vitest';
import { drawTurns } from './drawTurns';

/** A `later` that holds the tasks until the test runs them, one at a time. */
function tasks() {
  const queued: (() => void)[] = [];
  return {
    later: (run: () => void) => void queued.push(run),
    /** Runs the oldest task; false when none is waiting. */
    runOne: () => {
      const run = queued.shift();
      run?.();
      return run !== undefined;
    },
    get waiting() {
      return queued.length;
    },
  };
}

describe('drawTurns: charts drawn one per task', () => {
  it('starts each turn in a later task of its own, in the order asked, the next once the one before has ended', () => {
    const t = tasks();
    const turns = drawTurns(t.later);
    const started: string[] = [];
    const end = Object.fromEntries(['a', 'b', 'c'].map((id) => [id, turns.request(() => started.push(id))]));
    expect(started).toEqual([]);
    t.runOne();
    expect(started).toEqual(['a']);
    // Nothing more while a holds its turn.
    expect(t.waiting).toBe(0);
    end.a?.();
    expect(started).toEqual(['a']);
    t.runOne();
    expect(started).toEqual(['a', 'b']);
    end.b?.();
    t.runOne();
    expect(started).toEqual(['a', 'b', 'c']);
    end.c?.();
    expect(t.runOne()).toBe(true);
    expect(t.runOne()).toBe(false);
  });

  it('passes over a turn given up before it started, and a second end changes nothing', () => {
    const t = tasks();
    const turns = drawTurns(t.later);
    const started: string[] = [];
    const endA = turns.request(() => started.push('a'));
    const endB = turns.request(() => started.push('b'));
    const endC = turns.request(() => started.push('c'));
    endB();
    t.runOne();
    endA();
    endA();
    t.runOne();
    expect(started).toEqual(['a', 'c']);
    endC();
    expect(t.waiting).toBe(1);
    t.runOne();
    expect(started).toEqual(['a', 'c']);
  });

  it('takes a turn asked for after the queue emptied, in a task of its own', () => {
    const t = tasks();
    const turns = drawTurns(t.later);
    const started: string[] = [];
    turns.request(() => started.push('a'))();
    while (t.runOne());
    turns.request(() => started.push('b'));
    expect(started).toEqual([]);
    t.runOne();
    expect(started).toEqual(['b']);
  });
});
