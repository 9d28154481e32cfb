import { useEffect, useState } from 'react';
import { useDebouncedValue } from './useDebouncedValue';

export interface DebouncedInputProps {
  value: string;
  onCommit: (value: string) => void;
  delay?: number;
  className?: string;
  'aria-label'?: string;
  placeholder?: string;
  type?: 'search' | 'text';
  id?: string;
  /** The most characters the field takes (the browser stops typing and trims a paste there). */
  maxLength?: number;
}

/** A text input that commits after typing pauses; follows outside changes (e.g. back button). */
export function DebouncedInput({ value, onCommit, delay = 400, ...rest }: DebouncedInputProps) {
  const [text, setText] = useState(value);
  const debounced = useDebouncedValue(text, delay);
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (debounced !== value) onCommit(debounced);
    // Only a settled change of the typed text should commit, not a change of the committed value.
  }, [debounced]);
  return <input {...rest} type={rest.type ?? 'text'} value={text} onChange={(e) => setText(e.target.value)} />;
}
