import { describe, expect, it } from 'vitest';
import { priceWords } from './search';

const words = (text: string) => priceWords(text).map((w) => (w.code ? `#${w.text}` : w.text));

describe('priceWords: a price search as the filter reads it', () => {
  it('splits a unit from its number and turns a decimal comma into a dot', () => {
    expect(words('Metformin 500mg')).toEqual(['metformin', '500', 'mg']);
    expect(words('insulin 100units/mL')).toEqual(['insulin', '100', 'units', 'ml']);
    expect(words('amlodipine 2,5 mg')).toEqual(['amlodipine', '2.5', 'mg']);
    expect(words('warfarin 7,5mg')).toEqual(['warfarin', '7.5', 'mg']);
    // Three digits after the comma: a thousands separator, not a decimal.
    expect(words('50,000 units')).toEqual(['50', '000', 'units']);
    expect(words('carvedilol 12.5')).toEqual(['carvedilol', '12.5']);
    expect(words('hydrocortisone 2.5%')).toEqual(['hydrocortisone', '2.5%']);
  });

  it('takes , / - ( ) and dots between words as separators', () => {
    expect(words('metformin, 500')).toEqual(['metformin', '500']);
    expect(words('amoxicillin/clavulanate')).toEqual(['amoxicillin', 'clavulanate']);
    expect(words('amoxicillin-clavulanate (875mg)')).toEqual(['amoxicillin', 'clavulanate', '875', 'mg']);
    expect(words('tab.')).toEqual(['tablet']);
    expect(words('---')).toEqual([]);
  });

  it('spells out the abbreviations of forms as the descriptions write them', () => {
    expect(words('lisinopril 10mg tab')).toEqual(['lisinopril', '10', 'mg', 'tablet']);
    expect(words('atorvastatin 40 TABS')).toEqual(['atorvastatin', '40', 'tablet']);
    expect(words('gabapentin caps')).toEqual(['gabapentin', 'capsule']);
    expect(words('metformin ER')).toEqual(['metformin', 'extended', 'release']);
    expect(words('metformin xr tab')).toEqual(['metformin', 'extended', 'release', 'tablet']);
    expect(words('pantoprazole dr')).toEqual(['pantoprazole', 'delayed', 'release']);
    expect(words('ondansetron odt')).toEqual(['ondansetron', 'orally', 'disintegrating', 'tablet']);
    expect(words('levothyroxine 25ug')).toEqual(['levothyroxine', '25', 'mcg']);
  });

  it('marks as codes only the words that look like one: typed with dashes, or 4 digits or more', () => {
    expect(words('00248-6594-28')).toEqual(['#00248659428']);
    expect(words('00248659428')).toEqual(['#00248659428']);
    expect(words('(00248-6594-28),')).toEqual(['#00248659428']);
    expect(words('metformin 1000')).toEqual(['metformin', '#1000']);
    expect(words('metformin 500 mg 90')).toEqual(['metformin', '500', 'mg', '90']);
  });
});
