import { formatIsoDayText, type Language, localeOf, msg } from '@portal/core';
import { ApiError, type MembersService, type SqlClient } from '@portal/server';

/** What the check needs: the kernel's members service (the termination day) and the business's time zone. */
export interface TerminationCheck {
  members: Pick<MembersService, 'terminationDay'>;
  /** The business's zone (`config.businessTimeZone`): the termination's calendar day is taken in it. */
  timeZone: string;
  /** The reader's language: the refusal writes the day in it ('Feb 3, 2026', '3 feb 2026'). */
  language: Language;
}

/**
 * A bill for a service after the member's membership ended is refused (409), whoever asks: a new bill (create, and a
 * reimbursement request's bill through the service) and an edit that moves the service day (ServiceDateFrom) there.
 * Services up to and on the termination day (the business's calendar day of the termination) may still be billed.
 *
 * Run it in the write's transaction (`tx`, the one that inserts or updates the bill and writes its audit row): the
 * member's row is read FOR SHARE there, so a termination committing meanwhile either waits for the write to commit or
 * is seen by it, never slips in between the check and the write.
 */
export async function refuseAfterTermination(check: TerminationCheck, tx: SqlClient, memberId: number, serviceDay: string): Promise<void> {
  const ended = await check.members.terminationDay(memberId, check.timeZone, tx, { share: true });
  if (ended !== null && serviceDay > ended)
    throw new ApiError(
      409,
      msg('The membership ended on {{date}}: a bill for a service after that day cannot be added.', {
        date: formatIsoDayText(ended, 'medium', localeOf(check.language)),
      }),
    );
}
