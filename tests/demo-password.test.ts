import { RESET_PASSWORD_PATTERN } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { PASSWORD_RULES, passwordProblems } from '../plugins/account/src/server/policy';
import { DEMO_PASSWORD } from '../scripts/seed.js';

describe('the demo password', () => {
  it("passes the product's own password policy, so a demo user who changes it can set it back", () => {
    expect(DEMO_PASSWORD).toMatch(RESET_PASSWORD_PATTERN);
    expect(passwordProblems(DEMO_PASSWORD)).toEqual([]);
    for (const rule of PASSWORD_RULES) expect(DEMO_PASSWORD, rule.Message).toMatch(new RegExp(rule.Validator));
  });
});
