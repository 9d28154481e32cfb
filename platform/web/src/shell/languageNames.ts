import type { Language } from '@portal/core';

/** Each language by its own name, as language menus show them, so a reader finds theirs in any UI language. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', es: 'Español' };
