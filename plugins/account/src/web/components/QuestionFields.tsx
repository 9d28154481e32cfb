import { SelectField, TextField } from '@portal/web/kit';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Two security questions, each a choice from the server's list and a required answer. */
export function QuestionFields({ questions }: { questions: readonly { Id: number; Text: string }[] }) {
  const { t } = useTranslation('account');
  // The server's catalogue is in English: a question this namespace knows shows in the page's language, another as sent.
  const options = useMemo(() => questions.map((q) => ({ value: q.Id, label: t(`securityQuestions.${q.Id}`, { defaultValue: q.Text }) })), [questions, t]);
  return (
    <>
      {([1, 2] as const).map((n) => (
        <div key={n} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
          <SelectField name={`Question${n}`} label={t(`fields.question${n}`)} options={options} isRequired />
          <TextField name={`Answer${n}`} label={t(`fields.answer${n}`)} autoComplete="off" maxLength={200} isRequired />
        </div>
      ))}
    </>
  );
}
