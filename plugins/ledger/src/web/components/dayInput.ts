/**
 * Whether a date field's value is a day to take: complete, and a year of four digits. A browser's date field gives a
 * value at each keystroke once every part has one: typing the year 2025 passes 0002-, 0020- and 0202-… first, each
 * a valid date, none the one meant.
 */
export const settledDay = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value) && Number(value.slice(0, 4)) >= 1900;
