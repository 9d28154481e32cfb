import { finite } from '../money';
import { extremeNumber } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Age must not exceed the maximum age: every annuitant's, so the oldest decides. */
export function checkMaxAge({ caseInput, rules }: CheckContext): CheckResult | null {
  const maxAge = finite(rules.MaxAge);
  const oldest = extremeNumber(
    caseInput.Annuitants.map((annuitant) => finite(annuitant.Age)),
    -1,
  );
  if (maxAge === null || oldest === null) return null;
  return {
    id: 'maxAge',
    pass: oldest <= maxAge,
    message: `Age must not exceed ${maxAge}`,
    ruleValue: { kind: 'age', years: maxAge },
    quoteValue: { kind: 'age', years: oldest },
  };
}
