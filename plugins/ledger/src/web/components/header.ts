import type { LedgerMember } from '../../contract';

/** The report header as the send's info dialog shows it (empty strings for none). */
export interface ReportHeader {
  HICN: string;
  DateOfInjury: string;
  DateOfSettlement: string;
}

/**
 * The page's copy of the report header: the values typed (or as loaded), the `HeaderVersion` they were loaded at (the
 * send takes it back) and whether a send was refused because someone changed the stored header since (`stale`).
 * A read of the member again (a row saved, the list refreshed, a reconnect) does not replace it: the typed values and
 * the Version stay, so a send over someone else's change is refused (409) until the user reloads the stored header.
 */
export interface HeaderCopy {
  header: ReportHeader;
  /** The header as stored at `version` (what was read): typed values that differ from it are not saved until sent. */
  stored: ReportHeader;
  version: number | undefined;
  stale: boolean;
}

export const EMPTY_HEADER: ReportHeader = { HICN: '', DateOfInjury: '', DateOfSettlement: '' };

type StoredHeader = Pick<LedgerMember, 'HICN' | 'DateOfInjury' | 'DateOfSettlement' | 'HeaderVersion'>;

/** The header as stored, with its version: what Reload and a successful send take. */
export const storedHeader = (member: StoredHeader): HeaderCopy => {
  const header = { HICN: member.HICN ?? '', DateOfInjury: member.DateOfInjury ?? '', DateOfSettlement: member.DateOfSettlement ?? '' };
  return { header, stored: header, version: member.HeaderVersion, stale: false };
};

/**
 * The member read (again): the first read gives the page its copy; later reads leave it as it is (only Reload and a
 * successful send take the stored header). A copy typed before any read has no version and takes the first read.
 */
export const headerRead = (copy: HeaderCopy | null, member: StoredHeader): HeaderCopy =>
  copy !== null && copy.version !== undefined ? copy : storedHeader(member);

/** Typed into the info dialog: the version and a stale mark stay (typing does not make a stale copy current). */
export const headerTyped = (copy: HeaderCopy | null, header: ReportHeader): HeaderCopy => ({
  header,
  stored: copy?.stored ?? EMPTY_HEADER,
  version: copy?.version,
  stale: copy?.stale ?? false,
});

/**
 * Whether the header holds typed values not sent: they differ from the header as read (a refused send keeps them, so
 * they still count). Only a send stores the header, so leaving the page would lose them (the page's leave guard asks).
 */
export const headerUnsaved = (copy: HeaderCopy | null): boolean =>
  copy !== null &&
  (copy.header.HICN.trim() !== copy.stored.HICN.trim() ||
    copy.header.DateOfInjury !== copy.stored.DateOfInjury ||
    copy.header.DateOfSettlement !== copy.stored.DateOfSettlement);

/** A send refused because the stored header changed: the typed values and the stale version stay, marked stale. */
export const headerRefused = (copy: HeaderCopy | null): HeaderCopy | null => (copy === null ? null : { ...copy, stale: true });
