import { evaluatePasswordPolicy, type PasswordRule } from '@portal/core';
import { useId, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import { visuallyHidden } from '../visuallyHidden.css';
import * as styles from './form.css';
import { MaskedInputField } from './MaskedInputField';
import type { TextFieldProps } from './TextFields';

export interface PasswordFieldProps extends TextFieldProps {
  /** Server-driven rules shown as a checklist; validate with passwordPolicySchema(rules) in the form schema. */
  rules?: readonly PasswordRule[];
  /** 'new-password' for registration and reset, 'current-password' for sign-in. */
  autoComplete?: 'new-password' | 'current-password';
}

export function PasswordField({ rules = [], ...props }: PasswordFieldProps) {
  const { t } = useTranslation('kit');
  const [visible, setVisible] = useState(false);
  const { control } = useFormContext();
  const value = useWatch({ control: props.control ?? control, name: props.name }) as unknown;
  const policy = evaluatePasswordPolicy(typeof value === 'string' ? value : '', rules);
  const listId = useId();
  const typed = typeof value === 'string' && value.length > 0;
  return (
    <MaskedInputField
      autoComplete="current-password"
      {...props}
      type={visible ? 'text' : 'password'}
      toStored={(v) => v}
      toDisplay={(v) => v}
      forceInvalid={typed && !policy.valid}
      adornment={
        <Button onPress={() => setVisible((v) => !v)} aria-pressed={visible}>
          {visible ? t('form.hidePassword') : t('form.showPassword')}
        </Button>
      }
    >
      {rules.length > 0 ? (
        <div>
          <span id={listId} className={styles.description}>
            {t('form.passwordRules')}
          </span>
          {/* Polite live region: each keystroke updates the checklist without interrupting typing. */}
          <ul className={styles.checklist} aria-labelledby={listId} aria-live="polite">
            {policy.results.map((rule) => (
              <li key={rule.Message} className={rule.passed ? styles.rulePassed : styles.ruleFailed}>
                <span aria-hidden="true">{rule.passed ? '✓ ' : '○ '}</span>
                <span className={visuallyHidden}>{rule.passed ? t('form.rulePassed') : t('form.ruleFailed')} </span>
                {rule.Message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </MaskedInputField>
  );
}
