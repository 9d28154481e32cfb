import { newCreateKey, SubmissionKeys, useApi } from '@portal/web';
import { Button, ConfirmDialog, DataGrid, Dialog, Form, type GridColumn, SelectField, Tabs, TextField, Toolbar } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { type Team, TeamsApi, UsersApi, type UserTeam } from '../../contract';
import { TEAM_PAGE_SIZE } from '../../rules';
import { StaleWarning } from './StaleWarning';
import { isStaleSave } from './tabDrafts';
import { shownTeams, teamButton, useTeamFocus } from './tabFocus';
import type { TeamActionRunner } from './teamActions';
import { openRename, type RenameEdit, renameFormKey, renameRefused, renameReloaded } from './teamRename';
import * as css from './users.css';

/** The attributes a row's Rename and Delete buttons carry, with the team's id. */
const RENAME = 'data-team-rename';
const DELETE = 'data-team-delete';

const assignSchema = z.object({ TeamId: z.number({ error: 'users:validation.team' }) });
const newSchema = z.object({ TeamName: z.string().trim().min(1, 'users:validation.teamName').max(100, 'users:validation.tooLong') });
type TeamName = z.output<typeof newSchema>;

interface Props {
  isOpen: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string;
  companyId: number;
  /** The tab's change runner: one change at a time, each with the user's Version the last one answered. */
  actions: TeamActionRunner;
  assigned: readonly UserTeam[];
}

/**
 * The teams dialog, in three modes: assign a team of the company, list the company's teams (10 a page; each renamed or
 * deleted from there), new team. A rename or delete names the Version of the team the list showed: when another
 * administrator changed it since, the server refuses (409, its message as a toast) and the list shows their change; a
 * refused rename stays open with the typed name and, when the team changed, says so with a Reload (`teamRename.ts`).
 * Every change runs through the tab's `actions`: while one runs, every button that changes something waits.
 * Focus: a team deleted takes its row's buttons with it, and a rename can move its row off the page, so once the list is
 * read again focus goes to the same button of that team, or of the team that took its place (or the one above), or to
 * the List tab when none is left; a new team shows the list, and focus goes to its tab.
 */
export function TeamsDialog({ isOpen, onOpenChange, userId, companyId, actions, assigned }: Props) {
  const { t } = useTranslation('users');
  const api = useApi();
  const queryClient = useQueryClient();
  const [mode, setMode] = useState('assign');
  // The team being deleted, by id: the question names the team as the list now shows it.
  const [deletingId, setDeletingId] = useState<number | null>(null);
  // The team being renamed as the list showed it when Rename was pressed (its Version is the one the rename names), and
  // whether a rename was refused because someone changed the team since.
  const [renaming, setRenaming] = useState<RenameEdit | null>(null);
  const teams = useQuery({ queryKey: ['users', 'teams', companyId], queryFn: () => api.call(TeamsApi.get, { params: { companyId } }), enabled: isOpen });
  const rootRef = useRef<HTMLDivElement>(null);
  // A new team's IdempotencyKey, one per submission: creating it again after a failure (an answer lost) adds it once.
  const keys = useRef(new SubmissionKeys(() => newCreateKey('team'))).current;
  // The row button that opened the rename or the delete question, and the teams the list showed then, in order.
  const pressedRow = useRef<{ from: Element | null; before: string[] }>({ from: null, before: [] });
  const deleting = deletingId === null ? null : (teams.data?.find((x) => x.Id === deletingId) ?? null);
  const readAt = Math.max(teams.dataUpdatedAt, teams.errorUpdatedAt);
  const focusTeam = useTeamFocus({ readAt, overlay: renaming !== null || deleting !== null, mode });
  const selectedTab = () => rootRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]') ?? null;
  /** Once the list is read again: focus to `attr`'s button of the team, or of its neighbour, or to the List tab. */
  const wishForRow = (team: number, attr: string, since: number) => {
    const { from, before } = pressedRow.current;
    return { from, since, target: () => teamButton(rootRef.current, attr, before, String(team), selectedTab) };
  };
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ['users', userId] }), queryClient.invalidateQueries({ queryKey: ['users', 'teams'] })]);

  const assign = async ({ TeamId }: z.output<typeof assignSchema>) => {
    const team = teams.data?.find((x) => x.Id === TeamId);
    try {
      await actions.run(
        'assign',
        async (version) => {
          const answer = await api.call(UsersApi.teamAdd, {
            body: { Id: userId, Version: version, Models: { CompanyId: companyId, Team: { Id: TeamId, TeamName: team?.TeamName } } },
          });
          await refresh();
          return answer;
        },
        (answer) => answer.Version,
      );
    } catch {
      // Shown as a toast by the client; reading again takes a change made elsewhere.
      await refresh();
    }
  };
  const create = async ({ TeamName }: TeamName) => {
    const pressed = document.activeElement;
    try {
      const made = await actions.run(
        'create',
        async () => {
          const payload = { Id: null, TeamName, CompanyId: companyId };
          const answer = await api.call(TeamsApi.save, { body: { ...payload, IdempotencyKey: keys.keyFor(payload) } });
          keys.added();
          await refresh();
          return answer;
        },
        () => null,
      );
      if (made) {
        // The New panel, with the control pressed, gives way to the list: focus goes to the List tab.
        focusTeam({ from: pressed, since: null, mode: 'list', target: selectedTab });
        setMode('list');
      }
    } catch {
      // Shown as a toast by the client.
    }
  };
  /** The company's teams as last read, or undefined when that read failed (a stale list would tell nothing). */
  const teamsNow = () => {
    const read = queryClient.getQueryState<Team[]>(['users', 'teams', companyId]);
    return read?.status === 'success' ? read.data : undefined;
  };
  const rename = async ({ TeamName }: TeamName) => {
    if (!renaming) return;
    const team = renaming.team;
    const wish = wishForRow(team.Id, RENAME, readAt);
    try {
      const renamed = await actions.run(
        'rename',
        async () => {
          const answer = await api.call(TeamsApi.save, { body: { Id: team.Id, Version: team.Version, TeamName, CompanyId: companyId } });
          await refresh();
          return answer;
        },
        () => null,
      );
      if (renamed) {
        focusTeam(wish);
        setRenaming(null);
      }
    } catch (e) {
      // Shown as a toast by the client. A refused rename stays open with the typed name; the list read again shows
      // the other administrator's change, and tells a stale rename (a Reload is offered) from a name already taken.
      if (isStaleSave(e)) {
        await refresh();
        setRenaming((current) => (current && current.team.Id === team.Id ? renameRefused(current, teamsNow()) : current));
      }
    }
  };
  /** The stale rename's Reload: the team as stored now (its name and Version), or the rename closes when it is gone. */
  const reloadRename = async () => {
    if (!renaming) return;
    const wish = wishForRow(renaming.team.Id, RENAME, readAt);
    await refresh();
    const next = renameReloaded(renaming, teamsNow());
    if (next === null) focusTeam(wish);
    setRenaming(next);
  };
  // While a change runs, every other change waits (a second one would send the user's old Version).
  const busy = actions.pending !== null;
  const columns = useMemo<GridColumn<Team>[]>(
    () => [
      { id: 'TeamName', header: t('teams.name'), accessor: (x) => x.TeamName, sortable: true, hideable: false },
      {
        id: 'Assigned',
        header: t('teams.assigned'),
        accessor: (x) => (assigned.some((a) => a.Id === x.Id) ? t('yes') : t('no')),
      },
      {
        id: 'Delete',
        header: t('teams.actions'),
        hideable: false,
        cell: (x) => (
          <span className={css.rowActions}>
            <Button
              size="small"
              isDisabled={busy}
              data-team-rename={x.Id}
              onPress={(e) => {
                pressedRow.current = { from: e.target, before: shownTeams(rootRef.current, RENAME) };
                setRenaming(openRename(x));
              }}
            >
              {t('teams.rename', { team: x.TeamName })}
            </Button>
            <Button
              variant="danger"
              size="small"
              isDisabled={busy}
              data-team-delete={x.Id}
              onPress={(e) => {
                pressedRow.current = { from: e.target, before: shownTeams(rootRef.current, DELETE) };
                setDeletingId(x.Id);
              }}
            >
              {t('teams.delete', { team: x.TeamName })}
            </Button>
          </span>
        ),
      },
    ],
    [t, assigned, busy],
  );

  return (
    <Dialog isOpen={isOpen} onOpenChange={onOpenChange} title={t('teams.dialogTitle')} size="large">
      {(close) => (
        <div ref={rootRef} className={css.stack}>
          <Tabs
            aria-label={t('teams.modes')}
            selectedKey={mode}
            onSelectionChange={setMode}
            items={[
              {
                id: 'assign',
                label: t('teams.modeAssign'),
                content: (
                  <Form schema={assignSchema} defaultValues={{}} onSubmit={assign} aria-label={t('teams.modeAssign')}>
                    <SelectField
                      name="TeamId"
                      label={t('teams.team')}
                      isRequired
                      options={(teams.data ?? []).map((x) => ({ value: x.Id, label: x.TeamName }))}
                    />
                    <Toolbar aria-label={t('teams.modeAssign')}>
                      <Button type="submit" variant="primary" isPending={actions.pending === 'assign'} isDisabled={busy && actions.pending !== 'assign'}>
                        {t('teams.assign')}
                      </Button>
                    </Toolbar>
                  </Form>
                ),
              },
              {
                id: 'list',
                label: t('teams.modeList'),
                content: (
                  <DataGrid<Team>
                    label={t('teams.companyTeams')}
                    columns={columns}
                    getRowId={(x) => String(x.Id)}
                    getRowLabel={(x) => x.TeamName}
                    data={teams.data ?? []}
                    isLoading={teams.isPending}
                    isError={teams.isError}
                    sortable
                    pageSizes={[TEAM_PAGE_SIZE]}
                    defaultPageSize={TEAM_PAGE_SIZE}
                    defaultSort={{ column: 'TeamName', order: 'asc' }}
                  />
                ),
              },
              {
                id: 'new',
                label: t('teams.modeNew'),
                content: (
                  <Form schema={newSchema} defaultValues={{ TeamName: '' }} onSubmit={create} aria-label={t('teams.modeNew')}>
                    <TextField name="TeamName" label={t('teams.name')} maxLength={100} isRequired />
                    <Toolbar aria-label={t('teams.modeNew')}>
                      <Button type="submit" variant="primary" isPending={actions.pending === 'create'} isDisabled={busy && actions.pending !== 'create'}>
                        {t('teams.create')}
                      </Button>
                    </Toolbar>
                  </Form>
                ),
              },
            ]}
          />
          <Toolbar aria-label={t('teams.dialogTitle')}>
            <Button onPress={close}>{t('actions.close')}</Button>
          </Toolbar>
          <Dialog isOpen={renaming !== null} onOpenChange={(open) => !open && setRenaming(null)} title={t('teams.renameTitle')} size="small">
            {(closeRename) => (
              <Form
                // Drawn anew only by a Reload (another Version): a refused rename keeps the typed name.
                key={renameFormKey(renaming)}
                schema={newSchema}
                defaultValues={{ TeamName: renaming?.team.TeamName ?? '' }}
                onSubmit={rename}
                aria-label={t('teams.renameTitle')}
              >
                {renaming?.stale && <StaleWarning text={t('stale.team')} onReload={reloadRename} />}
                <TextField name="TeamName" label={t('teams.name')} maxLength={100} isRequired />
                <Toolbar aria-label={t('teams.renameTitle')}>
                  <Button type="submit" variant="primary" isPending={actions.pending === 'rename'} isDisabled={busy && actions.pending !== 'rename'}>
                    {t('teams.renameConfirm')}
                  </Button>
                  <Button onPress={closeRename}>{t('actions.cancel')}</Button>
                </Toolbar>
              </Form>
            )}
          </Dialog>
          <ConfirmDialog
            isOpen={deleting !== null}
            onOpenChange={(open) => !open && setDeletingId(null)}
            title={t('teams.deleteTitle')}
            message={t('teams.deleteQuestion', { team: deleting?.TeamName ?? '' })}
            confirmLabel={t('teams.deleteConfirm')}
            destructive
            onConfirm={async () => {
              if (!deleting) return;
              const team = deleting;
              const wish = wishForRow(team.Id, DELETE, readAt);
              try {
                await actions.run(
                  'delete',
                  () => api.call(TeamsApi.delete, { body: { Id: team.Id, Version: team.Version } }),
                  () => null,
                );
              } finally {
                // Deleted, or changed by someone else since (the question then names the team as it is now).
                await refresh();
                focusTeam(wish);
              }
            }}
          />
        </div>
      )}
    </Dialog>
  );
}
