import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import kitEn from '../i18n/en.json';
import kitEs from '../i18n/es.json';
import { chartPeriodLabel } from './periodLabel';

function kitT(language: 'en' | 'es') {
  const i18n = i18next.createInstance();
  void i18n.init({ lng: language, fallbackLng: false, resources: { en: { kit: kitEn }, es: { kit: kitEs } }, initAsync: false, showSupportNotice: false });
  return i18n.getFixedT(language, 'kit');
}

describe('chartPeriodLabel: the x labels of a chart in the page language', () => {
  it("words a quarter as the kit's chart.quarter does: Q in English, T (trimestre) in Spanish", () => {
    expect(chartPeriodLabel(kitT('en'), '2026-10-01', 'quarter')).toBe('2026 Q4');
    expect(chartPeriodLabel(kitT('en'), '2026-01-01', 'quarter')).toBe('2026 Q1');
    expect(chartPeriodLabel(kitT('es'), '2026-10-01', 'quarter')).toBe('2026 T4');
    expect(chartPeriodLabel(kitT('es'), '2026-04-01', 'quarter')).toBe('2026 T2');
  });

  it('leaves days and months as the dates are, in either language', () => {
    expect(chartPeriodLabel(kitT('es'), '2026-05-14', 'time')).toBe('2026-05-14');
    expect(chartPeriodLabel(kitT('es'), '2026-05-01', 'month')).toBe('2026-05');
  });
});
