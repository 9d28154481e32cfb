import { Button, TableScroll } from '@portal/web/kit';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CompanyOutcome } from '../../engine/index';
import { checkWords, formatCheckValue, money } from './format';

type T = (key: string) => string;

/** A check's result: Pass, Fail, or Not checked (the company sets the rule, the quote lacks the data for it). */
const checkResult = (pass: boolean | null, t: T) => (pass === null ? t('notChecked') : pass ? t('pass') : t('fail'));

/** A company's result: Pass when every check passes, Fail when one fails, else Not checked (data missing: not accepting). */
function companyResult(company: CompanyOutcome, t: T): string {
  if (company.pass) return t('pass');
  return checkResult(company.checks.some((check) => check.pass === false) ? false : null, t);
}

interface Props {
  companies: readonly CompanyOutcome[];
  caption: string;
}

/** The pass or fail summary per company, and the explain view of one company's checks. */
export function CompanyOutcomes({ companies, caption }: Props) {
  const { t, i18n } = useTranslation('quote');
  const [explained, setExplained] = useState<string | null>(null);
  const company = companies.find((c) => c.companyId === explained) ?? null;
  const lng = i18n.language;
  return (
    <>
      <TableScroll label={caption}>
        <table data-testid="quote-summary" style={{ borderCollapse: 'collapse', width: '100%' }}>
          <caption style={{ textAlign: 'left' }}>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">{t('summary.company')}</th>
              <th scope="col">{t('summary.result')}</th>
              <th scope="col">{t('summary.failed')}</th>
              <th scope="col">{t('summary.fee')}</th>
              <th scope="col">{t('summary.details')}</th>
            </tr>
          </thead>
          <tbody>
            {companies.map((c) => (
              <tr key={c.companyId} data-testid={`summary-${c.companyId}`}>
                <th scope="row">{c.name}</th>
                <td>{companyResult(c, t)}</td>
                <td>{c.checks.filter((check) => check.pass === false).length}</td>
                <td>{money(c.fee.total, lng)}</td>
                <td>
                  <Button variant="link" onPress={() => setExplained(explained === c.companyId ? null : c.companyId)} aria-expanded={explained === c.companyId}>
                    {t('explain.open', { name: c.name })}
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      {company && (
        <section aria-labelledby="quote-explain-title" data-testid="quote-explain">
          <h3 id="quote-explain-title">{t('explain.title', { name: company.name })}</h3>
          {company.checks.length === 0 ? (
            <p>{t('explain.none')}</p>
          ) : (
            <TableScroll label={t('explain.title', { name: company.name })}>
              <table style={{ borderCollapse: 'collapse', width: '100%' }}>
                <thead>
                  <tr>
                    <th scope="col">{t('explain.check')}</th>
                    <th scope="col">{t('explain.result')}</th>
                    <th scope="col">{t('explain.message')}</th>
                    <th scope="col">{t('explain.rule')}</th>
                    <th scope="col">{t('explain.quote')}</th>
                  </tr>
                </thead>
                <tbody>
                  {company.checks.map((check) => (
                    <tr key={`${check.id}-${check.message}`} data-testid={`check-${check.id}`}>
                      <th scope="row">{t(`check.${check.id}`)}</th>
                      <td>{checkResult(check.pass, t)}</td>
                      {/* A check saved before checks carried their words shows its message as the server words it. */}
                      <td>{check.text ? checkWords(check.text, t) : check.message}</td>
                      <td>{formatCheckValue(check.ruleValue, t, lng)}</td>
                      <td>{formatCheckValue(check.quoteValue, t, lng)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableScroll>
          )}
        </section>
      )}
    </>
  );
}
