import { useApi, useSwapFocus } from '@portal/web';
import { Button, Message, TableScroll, Toolbar } from '@portal/web/kit';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type User, UsersApi } from '../../contract';
import { TeamsDialog } from './TeamsDialog';
import { teamButton, useTeamFocus } from './tabFocus';
import { useTeamActions } from './teamActions';
import { refusalNote, useChangeRefusals } from './useCaller';
import * as css from './users.css';

/** The attribute a team's Remove button carries, with the team's id. */
const REMOVE = 'data-team-remove';

/**
 * Teams: the user's teams; edit shows Remove per team and the teams dialog (assign, list, new). Each
 * change is saved at once (with the user's Version), so Done ends editing; there is nothing to restore. Changes run one
 * at a time (every team button of the tab and dialog waits while one runs), each with the Version the last one answered.
 */
export function TeamsTab({ user, onSaved }: { user: User; onSaved?: (from: number, to: number) => void }) {
  const { t } = useTranslation('users');
  const api = useApi();
  const queryClient = useQueryClient();
  const refused = useChangeRefusals(user).teams;
  const teams = useQuery({
    queryKey: ['users', user.Id, 'teams'],
    queryFn: () => api.call(UsersApi.teamGet, { params: { userId: user.Id } }, { notify: false }),
  });
  const [editing, setEditing] = useState(false);
  const [dialog, setDialog] = useState(false);
  const actions = useTeamActions(teams.data?.Version ?? 0, onSaved);
  // Edit puts focus on Teams… (the edit's main action; the Remove buttons before it remove at once), Done back on Edit.
  const focus = useSwapFocus(editing ? 'form' : 'view', { ready: !teams.isPending });
  // A team's Remove goes with its row: focus goes to the Remove of the team that took its place (or the one above),
  // or to Teams… when none is left. The dialog, opened by Teams…, returns focus there itself (Teams… stays).
  const sectionRef = useRef<HTMLElement>(null);
  const manageRef = useRef<HTMLButtonElement>(null);
  const readAt = Math.max(teams.dataUpdatedAt, teams.errorUpdatedAt);
  const focusTeam = useTeamFocus({ readAt, overlay: false });

  if (teams.isPending) return <p aria-busy="true">{t('loading')}</p>;
  if (teams.isError) return <Message kind="error">{t('detail.loadError')}</Message>;
  const list = teams.data.Models;
  const companyId = user.CompanyId;
  const remove = async (teamId: number, teamName: string, pressed: Element) => {
    if (companyId === null) return;
    const since = readAt;
    const before = list.map((x) => String(x.Id));
    const settle = () =>
      focusTeam({
        from: pressed,
        since,
        target: () => teamButton(sectionRef.current, REMOVE, before, String(teamId), () => manageRef.current),
      });
    try {
      const removed = await actions.run(
        `remove:${teamId}`,
        async (version) => {
          const answer = await api.call(UsersApi.teamRemove, {
            body: { Id: user.Id, Version: version, Models: { CompanyId: companyId, Team: { Id: teamId, TeamName: teamName } } },
          });
          await queryClient.invalidateQueries({ queryKey: ['users', user.Id] });
          return answer;
        },
        (answer) => answer.Version,
      );
      // Undefined: not sent (another change was running).
      if (removed !== undefined) settle();
    } catch {
      // Shown as a toast by the client; reading again takes a change made elsewhere (the team may be gone).
      await queryClient.invalidateQueries({ queryKey: ['users', user.Id] });
      settle();
    }
  };
  const startEditing = () => {
    focus.want('form');
    setEditing(true);
  };
  const done = () => {
    focus.want('view');
    setEditing(false);
  };

  return (
    <section ref={sectionRef} className={css.stack} aria-label={t('tabs.teams')}>
      {list.length === 0 ? (
        <p>{t('teams.none')}</p>
      ) : (
        <TableScroll label={t('teams.caption', { count: list.length })}>
          <table className={css.table} data-testid="user-teams">
            <caption className={css.muted}>{t('teams.caption', { count: list.length })}</caption>
            <thead>
              <tr>
                <th scope="col" className={css.cell}>
                  {t('teams.name')}
                </th>
                {editing && (
                  <th scope="col" className={css.cell}>
                    {t('teams.actions')}
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {list.map((team) => (
                <tr key={team.Id}>
                  <td className={css.cell}>{team.TeamName}</td>
                  {editing && (
                    <td className={css.cell}>
                      <Button
                        variant="danger"
                        size="small"
                        isPending={actions.pending === `remove:${team.Id}`}
                        isDisabled={actions.pending !== null}
                        onPress={(e) => remove(team.Id, team.TeamName, e.target)}
                        data-team-remove={team.Id}
                      >
                        {t('teams.remove', { team: team.TeamName })}
                      </Button>
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {companyId === null && <Message kind="info">{t('teams.noCompany')}</Message>}
      {refused === null && companyId !== null ? (
        <div ref={focus.fieldsRef} style={{ display: 'contents' }}>
          <Toolbar aria-label={t('teams.actions')}>
            {editing ? (
              <>
                <Button ref={manageRef} variant="primary" onPress={() => setDialog(true)}>
                  {t('teams.manage')}
                </Button>
                <Button onPress={done}>{t('actions.done')}</Button>
              </>
            ) : (
              <Button ref={focus.editRef} onPress={startEditing}>
                {t('actions.edit')}
              </Button>
            )}
          </Toolbar>
        </div>
      ) : (
        companyId !== null && <p className={css.muted}>{refusalNote(t, refused, t('teams.readOnly'))}</p>
      )}
      {companyId !== null && <TeamsDialog isOpen={dialog} onOpenChange={setDialog} userId={user.Id} companyId={companyId} actions={actions} assigned={list} />}
    </section>
  );
}
