import type { VersionedRef } from '@portal/core';

/** A row the caller may change: its Version moves on with every change the server stores. */
export interface VersionedRow {
  Version: number;
}

/**
 * The Version of each row a list has shown, on every page it fetched, so a bulk action names the version the user saw
 * and the server can refuse it whole (409) when someone changed one of the rows meanwhile. A row selected without
 * being shown (a selection across pages the list never fetched) goes by its id alone, as the spec's id lists.
 */
export class SeenVersions<R extends VersionedRow> {
  private readonly versions = new Map<number, number>();

  constructor(private readonly idOf: (row: R) => number) {}

  /** Records rows as they are now: a page the list just fetched, or the rows a change answered with. */
  see(rows: readonly R[]): void {
    for (const row of rows) this.versions.set(this.idOf(row), row.Version);
  }

  /** The action's rows: each selected one with the Version the list showed, or its id alone. */
  refs(selected: readonly (string | number)[]): VersionedRef[] {
    return selected.map(Number).map((id) => {
      const version = this.versions.get(id);
      return version === undefined ? id : { ID: id, Version: version };
    });
  }

  /**
   * After an action went through that moved each of these rows one Version on (all or none, each once however often
   * selected), for a server that does not answer the rows: a selection kept for the next action still names the
   * current versions, on pages not shown again too.
   */
  movedOn(ids: readonly (string | number)[]): void {
    for (const id of new Set(ids.map(Number))) {
      const version = this.versions.get(id);
      if (version !== undefined) this.versions.set(id, version + 1);
    }
  }

  /** Rows that are gone (deleted). */
  forget(ids: readonly (string | number)[]): void {
    for (const id of ids) this.versions.delete(Number(id));
  }
}
