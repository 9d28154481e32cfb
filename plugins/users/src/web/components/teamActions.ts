import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * Runs the teams tab's changes one at a time, each with the user's Version the previous one answered. An assignment
 * or removal raises the user's Version; a second change sent before the first answered would carry the old Version
 * and be refused (409) although nobody else changed anything, so a change pressed while one runs is not sent.
 */
export class TeamActions {
  private version: number;
  private running = false;

  constructor(version: number) {
    this.version = version;
  }

  /** The Version the next change sends. */
  get current(): number {
    return this.version;
  }

  get busy(): boolean {
    return this.running;
  }

  /** The user's Version as the page read it: taken when newer than the one we hold (a change made elsewhere). */
  read(version: number): void {
    if (!this.running && version > this.version) this.version = version;
  }

  /**
   * Runs one change with the current Version, unless one is running (then nothing is sent: undefined). versionOf
   * gives the user's Version from the answer (null when the change does not touch the user, such as a new team).
   */
  async run<T>(change: (version: number) => Promise<T>, versionOf: (answer: T) => number | null): Promise<T | undefined> {
    if (this.running) return undefined;
    this.running = true;
    try {
      const answer = await change(this.version);
      const next = versionOf(answer);
      if (next !== null) this.version = next;
      return answer;
    } finally {
      this.running = false;
    }
  }
}

/**
 * The teams tab's changes, shared by the tab and its dialog: `pending` names the running one (all buttons wait).
 * onSaved hears each change of the user's Version (the page moves its other open edits along).
 */
export function useTeamActions(version: number, onSaved?: (from: number, to: number) => void) {
  const heard = useRef(onSaved);
  heard.current = onSaved;
  const actions = useRef<TeamActions | null>(null);
  if (actions.current === null) actions.current = new TeamActions(version);
  const [pending, setPending] = useState<string | null>(null);
  useEffect(() => {
    actions.current?.read(version);
  }, [version]);
  const run = useCallback(async <T>(key: string, change: (version: number) => Promise<T>, versionOf: (answer: T) => number | null) => {
    const runner = actions.current;
    if (!runner || runner.busy) return undefined;
    setPending(key);
    const from = runner.current;
    try {
      const answer = await runner.run(change, versionOf);
      if (runner.current !== from) heard.current?.(from, runner.current);
      return answer;
    } finally {
      setPending(null);
    }
  }, []);
  return { pending, run };
}

export type TeamActionRunner = ReturnType<typeof useTeamActions>;
