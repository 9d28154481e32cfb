import { KernelApi } from '@portal/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKernel } from '../context';
import { memberChoice } from '../impersonation/memberChoice';
import { TERMINATION_QUERY_KEY } from '../session/termination';
import { useConfirmLeave } from './confirmLeave';
import * as css from './Layout.css';

/**
 * For SuperUser and CareSupport: act on behalf of a member by member ID, or by the member number the lists and
 * profiles show (looked up first: `KernelApi.memberByNumber`). The choice is checked against the server first (it
 * refuses accounts that are not member accounts), then kept per browser for every tab.
 */
export function ImpersonationPicker() {
  const kernel = useKernel();
  const queryClient = useQueryClient();
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);
  const confirmLeave = useConfirmLeave();
  const start = async () => {
    const typed = value.trim();
    const chosen = memberChoice(typed);
    if (chosen === null) {
      setError(t('impersonation.invalid'));
      return;
    }
    let id: number;
    if (chosen.kind === 'id') id = chosen.id;
    else {
      try {
        id = (await kernel.api.call(KernelApi.memberByNumber, { params: { number: chosen.number } }, { notify: false })).MemberID;
      } catch {
        setError(t('impersonation.unknownNumber'));
        return;
      }
    }
    // Acting for a member draws the page anew: a form with unsaved changes on it asks first.
    if (!(await confirmLeave())) return;
    try {
      const termination = await kernel.api.call(KernelApi.termination, undefined, { impersonate: id, notify: false });
      setError(null);
      setValue('');
      kernel.setImpersonation(id);
      // The answer is the chosen member's termination: the banner says from it whether they are terminated (set after
      // the change, which drops the previous member's data).
      queryClient.setQueryData(TERMINATION_QUERY_KEY, termination);
    } catch {
      setError(t('impersonation.refused'));
    }
  };
  return (
    <form
      className={css.picker}
      onSubmit={(e) => {
        e.preventDefault();
        void start();
      }}
    >
      <label htmlFor="impersonate-member" className={css.pickerLabel}>
        {t('impersonation.label')}
      </label>
      <input
        id="impersonate-member"
        className={css.pickerInput}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        aria-invalid={error !== null || undefined}
        aria-describedby={error ? 'impersonate-error' : undefined}
      />
      <button type="submit" className={css.toolbarButton}>
        {t('impersonation.start')}
      </button>
      {error && (
        <span id="impersonate-error" role="alert" className={css.pickerError}>
          {error}
        </span>
      )}
    </form>
  );
}
