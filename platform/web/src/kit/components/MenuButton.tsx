import type { ReactNode } from 'react';
import { Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { Button, type ButtonSize, type ButtonVariant } from './Button';
import * as css from './MenuButton.css';

export interface MenuButtonItem {
  id: string;
  label: string;
  isDisabled?: boolean;
}

export interface MenuButtonProps {
  /** The button's text. */
  label: ReactNode;
  /** The button's name when its text alone does not say what the menu is for. */
  'aria-label'?: string;
  items: readonly MenuButtonItem[];
  onAction: (id: string) => void;
  variant?: ButtonVariant;
  size?: ButtonSize;
  placement?: 'bottom start' | 'bottom end' | 'top start' | 'top end';
}

/** A button that opens a menu of actions; arrow keys and type-ahead move through it, Escape closes it. */
export function MenuButton({
  label,
  'aria-label': ariaLabel,
  items,
  onAction,
  variant = 'secondary',
  size = 'medium',
  placement = 'bottom start',
}: MenuButtonProps) {
  return (
    <MenuTrigger>
      <Button variant={variant} size={size} aria-label={ariaLabel}>
        {label}
      </Button>
      <Popover className={css.popover} placement={placement}>
        <Menu className={css.menu} onAction={(key) => onAction(String(key))} disabledKeys={items.filter((i) => i.isDisabled).map((i) => i.id)}>
          {items.map((item) => (
            <MenuItem key={item.id} id={item.id} className={css.item}>
              {item.label}
            </MenuItem>
          ))}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
