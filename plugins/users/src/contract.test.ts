import { describe, expect, it } from 'vitest';
import { TeamsApi, UsersMessages } from './contract';

describe('team delete: the Version check', () => {
  it('takes the Id with the Version the team was read at', () => {
    expect(TeamsApi.delete.body.parse({ Id: 7, Version: 0 })).toEqual({ Id: 7, Version: 0 });
    expect(TeamsApi.delete.body.parse({ Id: '7', Version: 3 })).toEqual({ Id: 7, Version: 3 });
  });

  it('requires the Version: a delete without one is refused, saying so', () => {
    const missing = TeamsApi.delete.body.safeParse({ Id: 7 });
    expect(missing.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['Version', UsersMessages.teamDeleteVersionRequired]]);
    expect(UsersMessages.teamDeleteVersionRequired).toBe('Version is required to delete a team.');
  });

  it('refuses a Version that is not a whole number from 0 to the integer column', () => {
    for (const Version of [null, 'x', '3', -1, 1.5, 2_147_483_648])
      expect(TeamsApi.delete.body.safeParse({ Id: 7, Version }).success, String(Version)).toBe(false);
  });
});
