/**
 * Charts take turns to be drawn, one per task. apexcharts draws a chart all at once when it mounts, measuring every
 * label in the layout; a page's charts arrive together (one chunk, one batch of data) and were all drawn in one task:
 * 1.3 s on finance's trends page with the CPU slowed 4 times, during which a click or a key waited
 * (docs/performance-log.md, twenty-second pass). Taking turns, each chart is drawn in a task of its own, and the browser
 * handles input and paints between them.
 */
export interface DrawTurns {
  /**
   * Asks for a turn. `start` is called in a later task of its own, once every turn asked for before has ended. The
   * returned `end` ends this turn (the chart is drawn, or its figure is gone) or gives it up before it started; calling
   * it again is harmless.
   */
  request(start: () => void): () => void;
}

interface Turn {
  start: () => void;
  ended: boolean;
}

/** One queue of turns. `later` runs its function in a later task (a zero timeout in the browser). */
export function drawTurns(later: (run: () => void) => void = (run) => void setTimeout(run, 0)): DrawTurns {
  const queue: Turn[] = [];
  let holder: Turn | null = null;
  let scheduled = false;
  const next = () => {
    if (holder || scheduled) return;
    scheduled = true;
    later(() => {
      scheduled = false;
      if (holder) return;
      let turn = queue.shift();
      while (turn?.ended) turn = queue.shift();
      if (!turn) return;
      holder = turn;
      turn.start();
    });
  };
  return {
    request(start) {
      const turn: Turn = { start, ended: false };
      queue.push(turn);
      next();
      return () => {
        if (turn.ended) return;
        turn.ended = true;
        if (holder === turn) {
          holder = null;
          next();
        }
      };
    },
  };
}
