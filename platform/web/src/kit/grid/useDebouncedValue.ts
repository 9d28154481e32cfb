import { useEffect, useState } from 'react';

/** The value once it has stopped changing for `delay` ms (spec 01 section 9: grid search 400 ms). */
export function useDebouncedValue<T>(value: T, delay = 400): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}
