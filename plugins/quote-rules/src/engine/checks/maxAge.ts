import { finite } from '../money';
import { checkText, english } from '../texts';
import { extremeNumber, notChecked } from './shared';
import type { CheckContext, CheckResult } from './types';

/** Age must not exceed the maximum age: every annuitant's, so the oldest decides. */
export function checkMaxAge({ caseInput, rules }: CheckContext): CheckResult | null {
  const maxAge = finite(rules.MaxAge);
  const oldest = extremeNumber(
    caseInput.Annuitants.map((annuitant) => finite(annuitant.Age)),
    -1,
  );
  if (maxAge === null) return null;
  if (oldest === null) return notChecked('maxAge', 'age', { kind: 'age', years: maxAge });
  const words = checkText('maxAge', { age: maxAge });
  return {
    id: 'maxAge',
    pass: oldest <= maxAge,
    message: english(words),
    text: words,
    ruleValue: { kind: 'age', years: maxAge },
    quoteValue: { kind: 'age', years: oldest },
  };
}
