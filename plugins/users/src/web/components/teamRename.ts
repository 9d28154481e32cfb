import type { Team } from '../../contract';

/**
 * A team's rename while its dialog is open: the team as the list showed it when Rename was pressed (its Version is the
 * one the rename sends) and whether a rename was refused because someone changed the team since (`stale`: the dialog
 * then says so with a Reload). The typed name lives in the dialog's form, which is drawn anew only when `team` changes.
 */
export interface RenameEdit {
  team: Team;
  stale: boolean;
}

export const openRename = (team: Team): RenameEdit => ({ team, stale: false });

/**
 * A rename refused with 409, given the company's teams read again (undefined: they could not be read). Someone changed
 * (or deleted) the team since: the edit is stale, and it keeps the team it was opened from, so a second press is
 * refused again until Reload. The same Version still there means the name is taken by another team (the toast says
 * so): the edit stays as it is, to type another name.
 */
export function renameRefused(edit: RenameEdit, teams: readonly Team[] | undefined): RenameEdit {
  const now = teams?.find((x) => x.Id === edit.team.Id);
  const changed = teams === undefined || now === undefined || now.Version !== edit.team.Version;
  return changed && !edit.stale ? { ...edit, stale: true } : edit;
}

/**
 * Reload: the edit starts over from the team as the list now has it (its name and Version); null when the team is
 * gone (the dialog closes). Teams that could not be read leave the edit as it is.
 */
export function renameReloaded(edit: RenameEdit, teams: readonly Team[] | undefined): RenameEdit | null {
  if (teams === undefined) return edit;
  const now = teams.find((x) => x.Id === edit.team.Id);
  return now ? openRename(now) : null;
}

/** The rename form's key: a Reload (another Version) draws it anew from the stored name; a refusal keeps it. */
export const renameFormKey = (edit: RenameEdit | null) => (edit ? `${edit.team.Id}-${edit.team.Version}` : 'none');
