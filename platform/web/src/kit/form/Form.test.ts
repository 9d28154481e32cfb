import { zodResolver } from '@hookform/resolvers/zod';
import { createFormControl } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { valuesText } from './unsaved';

// The styles are vanilla-extract's, compiled by the build: here they are made at import, under a file scope of their own.
await vi.hoisted(async () => (await import('@vanilla-extract/css/fileScope')).setFileScope('Form.test.css.ts'));
const { formSubmit } = await import('./Form');

const schema = z.object({ Name: z.string().min(1) });
type Values = z.infer<typeof schema>;

/** A form holding `values` (no DOM here: react-hook-form's control without a component), and its Save. */
function formWith(values: Values, onSubmit: (v: Values) => unknown) {
  const form = createFormControl<Values>({ resolver: zodResolver(schema) as never, defaultValues: values });
  // Drawn, as useForm marks it once mounted: until then getValues gives the defaults.
  form.control._state.mount = true;
  const sent = { current: null as string | null };
  const invalid = vi.fn();
  const save = formSubmit<typeof schema>(form, onSubmit as never, sent, invalid);
  return { form, sent, invalid, save };
}

describe("the kit Form's Save: onSubmit returns a promise that rejects when the save failed", () => {
  it('a save that went through counts its values as sent', async () => {
    const { sent, save } = formWith({ Name: 'Ann' }, async () => {});
    await save();
    expect(sent.current).toBe(valuesText({ Name: 'Ann' }));
  });

  it('a save that returns nothing (sync) counts as sent', async () => {
    const { sent, save } = formWith({ Name: 'Ann' }, () => undefined);
    await save();
    expect(sent.current).toBe(valuesText({ Name: 'Ann' }));
  });

  it('a failed save counts as not sent, and its rejection goes no further (the page said why)', async () => {
    const { form, sent, save } = formWith({ Name: 'Ann' }, () => Promise.reject(new Error('409')));
    await expect(save()).resolves.toBeUndefined();
    expect(sent.current).toBeNull();
    // react-hook-form still saw the failure.
    expect(form.control._formState.isSubmitSuccessful).toBe(false);
    expect(form.control._formState.isSubmitting).toBe(false);
  });

  it('a failed save leaves what a later save sent meanwhile as sent', async () => {
    let fail: (e: unknown) => void = () => {};
    const first = new Promise((_, reject) => {
      fail = reject;
    });
    const answers = [first, Promise.resolve()];
    const { form, sent, save } = formWith({ Name: 'Ann' }, () => answers.shift());
    const firstSave = save();
    await vi.waitFor(() => expect(sent.current).toBe(valuesText({ Name: 'Ann' })));
    form.setValue('Name', 'Bob');
    await save();
    fail(new Error('network'));
    await firstSave;
    expect(sent.current).toBe(valuesText({ Name: 'Bob' }));
  });

  it('values the schema refuses are not sent: the form says so', async () => {
    const onSubmit = vi.fn();
    const { sent, invalid, save } = formWith({ Name: '' }, onSubmit);
    await save();
    expect(onSubmit).not.toHaveBeenCalled();
    expect(invalid).toHaveBeenCalledTimes(1);
    expect(sent.current).toBeNull();
  });

  it('an onSubmit that throws at once is a bug: it still escapes', async () => {
    const { save } = formWith({ Name: 'Ann' }, () => {
      throw new Error('bug');
    });
    await expect(save()).rejects.toThrow('bug');
  });
});
