import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeepFocusInGroup } from '../../focus/swapFocus';
import { Button } from '../components/Button';
import * as styles from './dataGrid.css';
import { pageCount } from './gridState';

export interface GridPagerProps {
  pageIndex: number;
  pageSize: number;
  pageSizes: readonly number[];
  total: number;
  onPage: (pageIndex: number) => void;
  onPageSize: (pageSize: number) => void;
}

export function GridPager({ pageIndex, pageSize, pageSizes, total, onPage, onPageSize }: GridPagerProps) {
  const { t } = useTranslation('kit');
  const sizeId = useId();
  const pages = pageCount(total, pageSize);
  const from = total === 0 ? 0 : pageIndex * pageSize + 1;
  const to = Math.min(total, (pageIndex + 1) * pageSize);
  // Next to the last page (or First, Previous to the first) disables the button pressed: focus stays in the pager.
  const pagerRef = useKeepFocusInGroup<HTMLElement>();
  return (
    <nav ref={pagerRef} className={styles.pager} aria-label={t('grid.pagination')}>
      <label htmlFor={sizeId}>{t('grid.pageSize')}</label>
      <select id={sizeId} className={styles.pageSizeSelect} value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))}>
        {pageSizes.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
      <span className={styles.spacer} />
      <span aria-live="polite">{t('grid.rangeStatus', { from, to, total })}</span>
      <Button aria-label={t('grid.firstPage')} isDisabled={pageIndex === 0} onPress={() => onPage(0)}>
        «
      </Button>
      <Button aria-label={t('grid.previousPage')} isDisabled={pageIndex === 0} onPress={() => onPage(pageIndex - 1)}>
        ‹
      </Button>
      <span>{t('grid.pageStatus', { page: pageIndex + 1, pages })}</span>
      <Button aria-label={t('grid.nextPage')} isDisabled={pageIndex >= pages - 1} onPress={() => onPage(pageIndex + 1)}>
        ›
      </Button>
      <Button aria-label={t('grid.lastPage')} isDisabled={pageIndex >= pages - 1} onPress={() => onPage(pages - 1)}>
        »
      </Button>
    </nav>
  );
}
