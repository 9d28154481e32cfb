import type { ReactNode } from 'react';
import { useFormContext } from 'react-hook-form';
import { Button } from '../components/Button';

/**
 * A form's Cancel, inside a kit Form: it drops what was typed on purpose, so the form goes back to its start first
 * (leaving the page then asks nothing: kit/form/unsaved), then `onCancel` runs.
 */
export function CancelButton({ onCancel, children, className }: { onCancel: () => void; children: ReactNode; className?: string }) {
  const { reset } = useFormContext();
  return (
    <Button
      className={className}
      onPress={() => {
        reset();
        onCancel();
      }}
    >
      {children}
    </Button>
  );
}
