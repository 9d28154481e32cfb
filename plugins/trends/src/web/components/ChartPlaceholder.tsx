import { useTranslation } from 'react-i18next';
import * as css from './dashboard.css';
import { WidgetSkeleton } from './WidgetSkeleton';

/** The space of a chart (its frame's height) while its data loads, or the error in the same space. */
export function ChartPlaceholder({ failed, height = 386 }: { failed: boolean; height?: number }) {
  const { t } = useTranslation('trends');
  return (
    <div className={css.chartPlaceholder} style={{ height }} aria-busy={!failed}>
      {failed ? <p role="alert">{t('error')}</p> : <WidgetSkeleton lines={8} />}
    </div>
  );
}
