export const memberQueryKey = ['profile', 'member'] as const;
export const addressesQueryKey = ['profile', 'addresses'] as const;
