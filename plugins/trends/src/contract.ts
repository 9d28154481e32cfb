import { defineEndpoint, isWholeCents } from '@portal/core';
import { z } from 'zod';

/** The spec's groupings of a series (spec 01 section 7). */
export const SERIES_PERIODS = ['time', 'quarter', 'month'] as const;
export type Period = (typeof SERIES_PERIODS)[number];
const periodParams = z.object({ period: z.enum(SERIES_PERIODS) });

/** A date of a series: the first day of its day, month or quarter. */
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Claims per period (spec 02 section 3). */
export const claimsPointSchema = z.object({ Date: day, NumberOfClaims: z.number().int().nonnegative() });
/** Billed amount per period in dollars with 2 decimals (the database keeps integer cents). */
export const amountPointSchema = z.object({ Date: day, Amount: z.number().nonnegative() });
/**
 * Bills per payee city, most first (at most 25), each with how many cities and bills the whole window has
 * (TotalCities, TotalClaims: the same on every row), so the top 25 can be told from the whole.
 */
export const cityPointSchema = z.object({
  City: z.string(),
  NumberOfClaims: z.number().int().nonnegative(),
  TotalCities: z.number().int().nonnegative(),
  TotalClaims: z.number().int().nonnegative(),
});
export const fundingDateSchema = z.object({ FundingDate: day });

export type ClaimsPoint = z.infer<typeof claimsPointSchema>;
export type AmountPoint = z.infer<typeof amountPointSchema>;
export type CityPoint = z.infer<typeof cityPointSchema>;

/** A member's balance falls under this (integer cents) → one 'Low Account Balance' e-mail per crossing. */
export const LOW_BALANCE_THRESHOLD_CENTS = 100_00;
export const LOW_BALANCE_SUBJECT = 'Low Account Balance';

export const lowBalanceBody = z.object({
  /**
   * The balance the member's page shows, dollars in whole cents. More decimals are a 400, not rounded: 99.994 would
   * round to $99.99, under the threshold, and send an e-mail for a balance nobody showed.
   */
  Balance: z.number().finite().min(-100_000_000).max(100_000_000).refine(isWholeCents, 'must have at most 2 decimals'),
  /** The account type named in the e-mail (e.g. 'Checking', 'Prepaid card'). */
  AccountType: z.string().trim().min(1).max(60),
});
export const lowBalanceResult = z.object({
  /** Whether this call queued the e-mail (the balance has just crossed under the threshold). */
  Sent: z.boolean(),
  /** Whether the balance is under the threshold now. */
  Below: z.boolean(),
});

export const TrendsApi = {
  claims: defineEndpoint({ method: 'GET', path: '/api/dashboard/claims/:period', params: periodParams, response: z.array(claimsPointSchema) }),
  bills: defineEndpoint({ method: 'GET', path: '/api/dashboard/bills/:period', params: periodParams, response: z.array(amountPointSchema) }),
  cities: defineEndpoint({ method: 'GET', path: '/api/dashboard/cities/bill', response: z.array(cityPointSchema) }),
  /** The member's own bill amounts per period (the member, or the member staff act for). */
  memberBills: defineEndpoint({ method: 'GET', path: '/api/dashboard/transactions/bills/:period', params: periodParams, response: z.array(amountPointSchema) }),
  /** The member's own bills per payee city, most first. */
  memberCities: defineEndpoint({ method: 'GET', path: '/api/dashboard/transactions/cities/bill', response: z.array(cityPointSchema) }),
  /** The next funding date (the spec's path keeps its spelling). */
  fundingDate: defineEndpoint({ method: 'GET', path: '/api/dashboard/admin/foundingdate', response: fundingDateSchema }),
  lowBalance: defineEndpoint({ method: 'POST', path: '/api/email/lowbalance', body: lowBalanceBody, response: lowBalanceResult }),
} as const;
