import { BillType } from '@portal/core';

export type PayeeKind = 'Hospital' | 'Clinic' | 'Physician' | 'Pharmacy' | 'DME' | 'Lab' | 'Home Health' | 'Other';

/** Reference payees loaded by the migration (fictional names in real-world style). */
export const PAYEES: readonly { name: string; kind: PayeeKind; city: string; state: string }[] = [
  { name: 'St. Mary Regional Medical Center', kind: 'Hospital', city: 'Tulsa', state: 'OK' },
  { name: 'Mercy General Hospital', kind: 'Hospital', city: 'Sacramento', state: 'CA' },
  { name: 'Baptist Memorial Hospital', kind: 'Hospital', city: 'Memphis', state: 'TN' },
  { name: 'Riverside Methodist Hospital', kind: 'Hospital', city: 'Columbus', state: 'OH' },
  { name: 'Lakeview Community Hospital', kind: 'Hospital', city: 'Bountiful', state: 'UT' },
  { name: 'Northside Surgical Center', kind: 'Hospital', city: 'Atlanta', state: 'GA' },
  { name: 'Good Samaritan Medical Center', kind: 'Hospital', city: 'West Palm Beach', state: 'FL' },
  { name: 'University Orthopedic Institute', kind: 'Hospital', city: 'Houston', state: 'TX' },
  { name: 'Valley Urgent Care', kind: 'Clinic', city: 'Phoenix', state: 'AZ' },
  { name: 'Family Health Clinic of Springfield', kind: 'Clinic', city: 'Springfield', state: 'IL' },
  { name: 'Cascade Physical Therapy', kind: 'Clinic', city: 'Portland', state: 'OR' },
  { name: 'Summit Pain Management', kind: 'Clinic', city: 'Denver', state: 'CO' },
  { name: 'Harbor Rehabilitation Associates', kind: 'Clinic', city: 'Baltimore', state: 'MD' },
  { name: 'Bayview Imaging Center', kind: 'Clinic', city: 'Tampa', state: 'FL' },
  { name: 'Dr. Alan Whitfield, MD', kind: 'Physician', city: 'Charlotte', state: 'NC' },
  { name: 'Dr. Priya Raman, DO', kind: 'Physician', city: 'Edison', state: 'NJ' },
  { name: 'Midwest Neurology Partners', kind: 'Physician', city: 'Omaha', state: 'NE' },
  { name: 'Coastal Cardiology Group', kind: 'Physician', city: 'Charleston', state: 'SC' },
  { name: 'Walgreens Pharmacy #4127', kind: 'Pharmacy', city: 'Chicago', state: 'IL' },
  { name: 'CVS Pharmacy #2281', kind: 'Pharmacy', city: 'Boston', state: 'MA' },
  { name: 'Rite Aid Pharmacy #0911', kind: 'Pharmacy', city: 'Harrisburg', state: 'PA' },
  { name: 'Kroger Pharmacy #0563', kind: 'Pharmacy', city: 'Cincinnati', state: 'OH' },
  { name: 'Walmart Pharmacy #10-2395', kind: 'Pharmacy', city: 'Bentonville', state: 'AR' },
  { name: 'Express Scripts Mail Pharmacy', kind: 'Pharmacy', city: 'St. Louis', state: 'MO' },
  { name: 'Helios Specialty Pharmacy', kind: 'Pharmacy', city: 'Portland', state: 'OR' },
  { name: 'Main Street Apothecary', kind: 'Pharmacy', city: 'Lexington', state: 'KY' },
  { name: 'Medline Industries', kind: 'DME', city: 'Northfield', state: 'IL' },
  { name: 'Apria Healthcare', kind: 'DME', city: 'Lake Forest', state: 'CA' },
  { name: 'Lincare Respiratory Services', kind: 'DME', city: 'Clearwater', state: 'FL' },
  { name: 'AdaptHealth Mobility', kind: 'DME', city: 'Plymouth Meeting', state: 'PA' },
  { name: 'National Seating & Mobility', kind: 'DME', city: 'Franklin', state: 'TN' },
  { name: 'Hanger Orthotics & Prosthetics', kind: 'DME', city: 'Austin', state: 'TX' },
  { name: 'Quest Diagnostics', kind: 'Lab', city: 'Secaucus', state: 'NJ' },
  { name: 'LabCorp', kind: 'Lab', city: 'Burlington', state: 'NC' },
  { name: 'BrightStar Home Care', kind: 'Home Health', city: 'Gurnee', state: 'IL' },
  { name: 'Amedisys Home Health', kind: 'Home Health', city: 'Baton Rouge', state: 'LA' },
  { name: 'Sunrise Skilled Nursing Facility', kind: 'Home Health', city: 'Fairfax', state: 'VA' },
  { name: 'Visiting Nurse Service', kind: 'Home Health', city: 'Albany', state: 'NY' },
];

/** How a payee kind bills: bill type, claim type (CMS-1500 1, UB04 2, DME 3, HHC 4, Unknown 5) and an amount range in dollars. */
export const KIND_PROFILE: Record<PayeeKind, { billType: number; claimType: number; min: number; max: number }> = {
  Hospital: { billType: BillType.Medical, claimType: 2, min: 1_500, max: 65_000 },
  Clinic: { billType: BillType.Medical, claimType: 1, min: 90, max: 1_800 },
  Physician: { billType: BillType.Medical, claimType: 1, min: 120, max: 2_500 },
  Pharmacy: { billType: BillType.Prescription, claimType: 5, min: 8, max: 950 },
  DME: { billType: BillType.Equipment, claimType: 3, min: 140, max: 6_500 },
  Lab: { billType: BillType.Medical, claimType: 1, min: 25, max: 700 },
  'Home Health': { billType: BillType.Nursing, claimType: 4, min: 250, max: 5_500 },
  Other: { billType: BillType.Misc, claimType: 5, min: 20, max: 1_000 },
};
