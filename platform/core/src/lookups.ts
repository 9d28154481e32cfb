/** Lookup categories of spec 02 section 3, served by GET /api/lookup/get and cached once by the client. */
export const LookupCategory = {
  ClaimType: 'Claim Type',
  ClaimStatus: 'Claim Status',
  BillEntryType: 'Bill Entry Type',
  TransactionType: 'Transaction Type',
  DocumentType: 'Document Type',
  NoteType: 'Note Type',
  EmailStatus: 'Email Status',
  PbmVendor: 'PBM Vendor',
  DmeVendor: 'DME Vendor',
  AccountStatus: 'Account Status',
  CustomerType: 'Customer Type',
  AddressType: 'Address Type',
  StateCode: 'State Code',
  PhoneType: 'Phone Type',
} as const;
export type LookupCategoryName = (typeof LookupCategory)[keyof typeof LookupCategory];

/**
 * One lookup item as spec 02 section 3 names its fields. Spec 01 section 3 names them "LookupID (list) and
 * LookupValue": read as the same item, its list (Category) and its value; the wire follows spec 02's fuller names.
 */
export interface LookupItem {
  Category: LookupCategoryName;
  Key: number;
  Value: string;
  Sort: number;
  IsDefault: boolean;
}

/** US states, DC and territories: name and abbreviation (spec 01 section 3). */
export const US_STATES: readonly { name: string; abbreviation: string }[] = [
  ['Alabama', 'AL'],
  ['Alaska', 'AK'],
  ['Arizona', 'AZ'],
  ['Arkansas', 'AR'],
  ['California', 'CA'],
  ['Colorado', 'CO'],
  ['Connecticut', 'CT'],
  ['Delaware', 'DE'],
  ['District Of Columbia', 'DC'],
  ['Florida', 'FL'],
  ['Georgia', 'GA'],
  ['Hawaii', 'HI'],
  ['Idaho', 'ID'],
  ['Illinois', 'IL'],
  ['Indiana', 'IN'],
  ['Iowa', 'IA'],
  ['Kansas', 'KS'],
  ['Kentucky', 'KY'],
  ['Louisiana', 'LA'],
  ['Maine', 'ME'],
  ['Maryland', 'MD'],
  ['Massachusetts', 'MA'],
  ['Michigan', 'MI'],
  ['Minnesota', 'MN'],
  ['Mississippi', 'MS'],
  ['Missouri', 'MO'],
  ['Montana', 'MT'],
  ['Nebraska', 'NE'],
  ['Nevada', 'NV'],
  ['New Hampshire', 'NH'],
  ['New Jersey', 'NJ'],
  ['New Mexico', 'NM'],
  ['New York', 'NY'],
  ['North Carolina', 'NC'],
  ['North Dakota', 'ND'],
  ['Ohio', 'OH'],
  ['Oklahoma', 'OK'],
  ['Oregon', 'OR'],
  ['Pennsylvania', 'PA'],
  ['Rhode Island', 'RI'],
  ['South Carolina', 'SC'],
  ['South Dakota', 'SD'],
  ['Tennessee', 'TN'],
  ['Texas', 'TX'],
  ['Utah', 'UT'],
  ['Vermont', 'VT'],
  ['Virginia', 'VA'],
  ['Washington', 'WA'],
  ['West Virginia', 'WV'],
  ['Wisconsin', 'WI'],
  ['Wyoming', 'WY'],
  ['American Samoa', 'AS'],
  ['Guam', 'GU'],
  ['Northern Mariana Islands', 'MP'],
  ['Puerto Rico', 'PR'],
  ['U.S. Virgin Islands', 'VI'],
  ['Federated States Of Micronesia', 'FM'],
  ['Marshall Islands', 'MH'],
  ['Palau', 'PW'],
].map(([name, abbreviation]) => ({ name: name as string, abbreviation: abbreviation as string }));

/** Claim statuses. 8 is paid; 29 and 30 are shown as 8 in the bills list (spec 02 section 4). */
export const ClaimStatus = {
  Received: 1,
  InReview: 2,
  PendingInformation: 3,
  Approved: 4,
  Denied: 5,
  ScheduledForPayment: 6,
  PaymentIssued: 7,
  Paid: 8,
  Void: 9,
  NonRedeemedPayment: 29,
  ReadyForReissue: 30,
} as const;

/** Bill type 21 is prescription (spec 01 section 4). */
export const BillType = { Medical: 1, Equipment: 2, Nursing: 3, Misc: 4, Prescription: 21 } as const;

type Row = [key: number, value: string];
const rows: Record<LookupCategoryName, Row[]> = {
  'Claim Type': [
    [1, 'CMS-1500'],
    [2, 'UB04'],
    [3, 'DME'],
    [4, 'HHC'],
    [5, 'Unknown'],
  ],
  'Claim Status': [
    [1, 'Received'],
    [2, 'In Review'],
    [3, 'Pending Information'],
    [4, 'Approved'],
    [5, 'Denied'],
    [6, 'Scheduled for Payment'],
    [7, 'Payment Issued'],
    [8, 'Paid'],
    [9, 'Void'],
    [29, 'Non Redeemed Payment'],
    [30, 'Ready for Reissue'],
  ],
  'Bill Entry Type': [
    [1, 'Medical'],
    [2, 'Equipment/Supplies'],
    [3, 'Home/Facility Nursing Care'],
    [4, 'Misc'],
    [21, 'Prescription'],
  ],
  'Transaction Type': [
    [1, 'Expense'],
    [2, 'Deposit'],
    [3, 'Interest'],
  ],
  'Document Type': [
    [1, '1099'],
    [2, 'Annual Accounting'],
    [3, 'Temporary Depletion Letter'],
    [4, 'Permanent Depletion Letter'],
    [5, 'Monthly Statement'],
    [6, 'Correspondence'],
  ],
  'Note Type': [
    [1, 'Member Notes'],
    [2, 'Support Notes'],
    [3, 'System Notes'],
  ],
  'Email Status': [
    [1, 'Queued'],
    [2, 'Sent'],
    [3, 'Delivered'],
    [4, 'Bounced'],
    [5, 'Failed'],
  ],
  'PBM Vendor': [
    [1, 'Helios'],
    [2, 'Express Scripts'],
    [3, 'Caremark'],
  ],
  'DME Vendor': [
    [1, 'Medline'],
    [2, 'Apria Healthcare'],
    [3, 'Lincare'],
    [4, 'AdaptHealth'],
  ],
  'Account Status': [
    [1, 'Active'],
    [2, 'Pending'],
    [3, 'Terminated'],
    [4, 'Deactivated'],
  ],
  'Customer Type': [
    [1, 'Individual'],
    [2, 'Business'],
  ],
  'Address Type': [
    [1, 'Billing'],
    [2, 'Shipping'],
    [3, 'Mailing'],
    [4, 'Home'],
    [5, 'Work'],
  ],
  'State Code': US_STATES.map((s, i): Row => [i + 1, s.abbreviation]),
  'Phone Type': [
    [1, 'Home'],
    [2, 'Work'],
    [3, 'Mobile'],
  ],
};
/** Defaults: Member Notes, Home address (default address type 4), Mobile phone. */
const defaults: Partial<Record<LookupCategoryName, number>> = { 'Note Type': 1, 'Address Type': 4, 'Phone Type': 3, 'Account Status': 1 };

export const LOOKUP_ITEMS: readonly LookupItem[] = Object.entries(rows).flatMap(([category, list]) =>
  list.map(([key, value], i) => ({
    Category: category as LookupCategoryName,
    Key: key,
    Value: value,
    Sort: i + 1,
    IsDefault: defaults[category as LookupCategoryName] === key,
  })),
);
