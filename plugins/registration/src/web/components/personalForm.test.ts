import type { Address, Member } from '@portal/plugin-profile/contract';
import { describe, expect, it, vi } from 'vitest';
import { afterProfileSaved, type PersonalValues, personalDefaults, personalSaveBody, personalStart, savePersonal } from './personalForm';

const member = (change: Partial<Member> = {}): Member => ({
  MemberID: 7,
  MemberNumber: 'M0000007',
  FirstName: 'Ada',
  LastName: 'Lovelace',
  Email: 'ada@example.com',
  DateOfBirth: '1980-02-29',
  DOBStr: '02/29/1980',
  Gender: 'F',
  HomePhone: null,
  WorkPhone: null,
  MobilePhone: '6465551001',
  PreferredContactNumber: 'Mobile',
  IsPhoneValidated: false,
  IsMSA: false,
  PBMVendor: null,
  ApprovedDate: null,
  TerminationDate: null,
  TerminatedBy: null,
  Version: 3,
  IsMobileRequired: true,
  ...change,
});
const address = (change: Partial<Address> = {}): Address => ({
  AddressID: 11,
  MemberID: 7,
  Address1: '1 Main St',
  Address2: null,
  City: 'Denver',
  State: 'CO',
  Zip: '80202',
  AddressTypeID: 4,
  IsCurrent: true,
  IsSelected: false,
  Version: 2,
  ...change,
});
const typed = (start = personalStart(member(), [address()], null)): PersonalValues => ({
  ...personalDefaults(start, true),
  LastName: 'King',
  Question: 'Broker',
});

describe('the Personal Info form keeps the record it started from', () => {
  it('fills the form from the member, the current address and the stored answer', () => {
    const start = personalStart(member(), [address({ AddressID: 10, IsCurrent: false, Address1: 'Old Rd' }), address()], 'Adjuster');
    expect(personalDefaults(start, true)).toMatchObject({ FirstName: 'Ada', Address1: '1 Main St', PreferredContactNumber: 'Mobile', Question: 'Adjuster' });
  });

  it('sends the Versions of the member and the current address it started from, with the typed values', () => {
    const start = personalStart(member(), [address()], null);
    expect(personalSaveBody(start, typed(start), true)).toMatchObject({
      MemberID: 7,
      Version: 3,
      AddressVersion: 2,
      LastName: 'King',
      PreferredContactNumber: 'Mobile',
    });
  });

  it('checks no address when the addresses did not load, and "none" when the form showed no current one', () => {
    expect(personalSaveBody(personalStart(member(), undefined, null), typed(), true)).not.toHaveProperty('AddressVersion');
    expect(personalSaveBody(personalStart(member(), [], null), typed(), true).AddressVersion).toBeNull();
  });
});

describe('a Personal Info save whose question (or step) fails after the profile was saved', () => {
  const saved = { Member: member({ LastName: 'King', Version: 4 }), Address: address({ Version: 5 }) };

  it('stores the saved member before sending the question, so the next press sends the new Versions (no false 409)', async () => {
    let start = personalStart(member(), [address()], null);
    const order: string[] = [];
    const saveProfile = vi.fn(async (_body: ReturnType<typeof personalSaveBody>) => {
      order.push('profile');
      return saved;
    });
    const steps = {
      saveProfile,
      profileSaved: (s: typeof saved) => {
        order.push('stored');
        start = afterProfileSaved(start, s);
      },
      saveQuestion: vi.fn(async (_q: string): Promise<unknown> => {
        order.push('question');
        throw new Error('The service is busy right now. Please try again in a moment.');
      }),
      raiseStep: vi.fn(async () => 3),
    };
    await expect(savePersonal(start, typed(), true, steps)).rejects.toThrow('busy');
    expect(order).toEqual(['profile', 'stored', 'question']);
    expect(steps.raiseStep).not.toHaveBeenCalled();

    // The next press: the member's and the address's Versions the save answered.
    steps.saveQuestion.mockResolvedValueOnce({ Question: 'Broker' });
    await savePersonal(start, typed(), true, steps);
    expect(saveProfile.mock.calls[1]?.[0]).toMatchObject({ Version: 4, AddressVersion: 5 });
    expect(steps.raiseStep).toHaveBeenCalledTimes(1);
  });

  it('stores nothing when the profile save itself fails', async () => {
    const profileSaved = vi.fn();
    const steps = {
      saveProfile: vi.fn(async () => {
        throw new Error('Someone else changed this profile; reload to see their change.');
      }),
      profileSaved,
      saveQuestion: vi.fn(),
      raiseStep: vi.fn(),
    };
    await expect(savePersonal(personalStart(member(), [address()], null), typed(), true, steps)).rejects.toThrow('Someone else');
    expect(profileSaved).not.toHaveBeenCalled();
    expect(steps.saveQuestion).not.toHaveBeenCalled();
  });

  it('skips the question when none was chosen', async () => {
    const steps = { saveProfile: vi.fn(async () => saved), profileSaved: vi.fn(), saveQuestion: vi.fn(), raiseStep: vi.fn(async () => 3) };
    await savePersonal(personalStart(member(), [address()], null), { ...typed(), Question: null }, true, steps);
    expect(steps.saveQuestion).not.toHaveBeenCalled();
    expect(steps.raiseStep).toHaveBeenCalledTimes(1);
  });
});
