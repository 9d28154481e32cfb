import { Checkbox } from 'react-aria-components';
import * as css from './users.css';

/** A labelled checkbox (the label inside, so clicking it toggles; Space toggles from the keyboard). */
export function ChoiceBox({ label, isSelected, onChange }: { label: string; isSelected: boolean; onChange: (selected: boolean) => void }) {
  return (
    <Checkbox className={css.checkbox} isSelected={isSelected} onChange={onChange}>
      {({ isSelected: on }) => (
        <>
          <span className={css.box} aria-hidden="true">
            {on ? '✓' : ''}
          </span>
          {label}
        </>
      )}
    </Checkbox>
  );
}
