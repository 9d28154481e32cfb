import { BANK_TEST_PASSWORD } from '@portal/sandbox';

/** A sandbox bank's login form, as a member types it (user 'good' links at once). */
export const bankLogin = (user: string, password = BANK_TEST_PASSWORD) => ({
  Fields: [
    { Name: 'LOGIN', Value: user },
    { Name: 'PASSWORD', Value: password },
  ],
});
