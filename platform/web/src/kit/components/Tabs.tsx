import type { ReactNode } from 'react';
import { Tabs as AriaTabs, Tab, TabList, TabPanel } from 'react-aria-components';
import * as css from './Tabs.css';

export interface TabItem {
  id: string;
  label: ReactNode;
  /** Rendered only while the tab is selected. */
  content: ReactNode;
  isDisabled?: boolean;
}

export interface TabsProps {
  /** Names the tab list. */
  'aria-label': string;
  items: readonly TabItem[];
  /** Controlled selection; leave out (and use defaultSelectedKey) to let the tabs keep it. */
  selectedKey?: string;
  defaultSelectedKey?: string;
  onSelectionChange?: (id: string) => void;
  orientation?: 'horizontal' | 'vertical';
  /** automatic (default): arrow keys select as they move; manual: arrows move focus, Enter or Space selects. */
  keyboardActivation?: 'automatic' | 'manual';
  className?: string;
}

/** Tabs: one tab stop for the list, arrow keys (and Home, End) between tabs, Tab into the panel. */
export function Tabs({
  items,
  selectedKey,
  defaultSelectedKey,
  onSelectionChange,
  orientation = 'horizontal',
  keyboardActivation,
  className,
  ...label
}: TabsProps) {
  return (
    <AriaTabs
      className={className ? `${css.tabs} ${className}` : css.tabs}
      selectedKey={selectedKey}
      defaultSelectedKey={defaultSelectedKey}
      onSelectionChange={(key) => onSelectionChange?.(String(key))}
      orientation={orientation}
      keyboardActivation={keyboardActivation}
      disabledKeys={items.filter((item) => item.isDisabled).map((item) => item.id)}
    >
      <TabList aria-label={label['aria-label']} className={css.tabList}>
        {items.map((item) => (
          <Tab key={item.id} id={item.id} className={css.tab}>
            {item.label}
          </Tab>
        ))}
      </TabList>
      {items.map((item) => (
        <TabPanel key={item.id} id={item.id} className={css.panel}>
          {item.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
