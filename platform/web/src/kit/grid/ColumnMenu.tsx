import { Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { useTranslation } from 'react-i18next';
import { Button } from '../components/Button';
import * as listBoxStyles from '../form/listBox.css';

export interface ColumnMenuProps {
  columns: readonly { id: string; header: string }[];
  visible: ReadonlySet<string>;
  onChange: (visible: Set<string>) => void;
}

/** Show or hide columns; the last visible column cannot be hidden. */
export function ColumnMenu({ columns, visible, onChange }: ColumnMenuProps) {
  const { t } = useTranslation('kit');
  return (
    <MenuTrigger>
      <Button aria-label={t('grid.showColumns')}>{t('grid.columns')} ▾</Button>
      <Popover className={listBoxStyles.popover}>
        <Menu
          className={listBoxStyles.listBox}
          selectionMode="multiple"
          selectedKeys={visible}
          disallowEmptySelection
          onSelectionChange={(keys) => {
            if (keys !== 'all') onChange(new Set([...keys].map(String)));
          }}
        >
          {columns.map((column) => (
            <MenuItem key={column.id} id={column.id} className={listBoxStyles.option} textValue={column.header}>
              {({ isSelected }) => (
                <>
                  <span aria-hidden="true">{isSelected ? '✓ ' : '  '}</span>
                  {column.header}
                </>
              )}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
