/**
 * The password of every demo user (scripts/seed), also used by the end-to-end tests and the benchmarks.
 * It passes the product's own password policy (spec 01 section 5: letters, digits and ! $ % @ # £ € * ? &
 * only), so a demo user who changes the password can set it back; tests/demo-password.test.ts checks.
 */
export const DEMO_PASSWORD = 'Demo4Portal';
