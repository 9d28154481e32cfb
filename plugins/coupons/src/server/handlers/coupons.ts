import { msg, staleIds, type VersionedRef, versionsSeen } from '@portal/core';
import { badRequest, conflict, notFound, route, type SqlClient, withMessage } from '@portal/server';
import { COUPONS_ACCESS } from '../../access';
import { COUPON_MESSAGES, CouponsApi, IN_USE_NAMED } from '../../contract';
import { type CouponsService, couponsService } from '../../service';
import { COUPON_COLUMNS, type CouponRow, couponById, newCouponStatus, searchCoupons, toCoupon } from '../queries';

const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === '23505';

interface LockedCoupon {
  id: number;
  version: number;
  code: string;
}

/**
 * Runs a bulk action on every coupon in one transaction: all of them exist, are still at the Version the caller saw
 * (where it sent one), pass the action's own check (`allowed`, which throws its refusal), and change, or nothing
 * changes. Duplicate ids count once.
 */
async function bulk(
  sql: SqlClient,
  refs: readonly VersionedRef[],
  allowed: ((tx: SqlClient, coupons: LockedCoupon[]) => Promise<void>) | null,
  apply: (tx: SqlClient, ids: number[]) => Promise<number>,
  audit: (tx: SqlClient, ids: number[]) => Promise<void>,
): Promise<number> {
  const seen = versionsSeen(refs);
  const unique = [...seen.keys()];
  return sql.transaction(async (tx) => {
    const found = await tx.query<LockedCoupon>('SELECT id, version, code FROM coupons WHERE id = ANY($1::int[]) FOR UPDATE', [unique]);
    if (found.length !== unique.length) throw notFound(COUPON_MESSAGES.someNotFound);
    if (staleIds(seen, found).length) throw conflict(COUPON_MESSAGES.someStale);
    await allowed?.(tx, found);
    const changed = await apply(tx, unique);
    await audit(tx, unique);
    return changed;
  });
}

/**
 * A delete keeps the coupons members used (a plugin that records codes, billing, says which: CouponUsage): any of them
 * selected refuses the whole delete with 409, naming their codes (the first IN_USE_NAMED, then how many more).
 */
const notInUse = (coupons: CouponsService) => async (tx: SqlClient, selected: LockedCoupon[]) => {
  const using = await coupons.membersUsing(
    selected.map((c) => c.code),
    tx,
  );
  const inUse = selected
    .filter((c) => (using.get(c.code) ?? 0) > 0)
    .map((c) => c.code)
    .sort((a, b) => a.localeCompare(b));
  if (inUse.length === 0) return;
  const named = inUse.slice(0, IN_USE_NAMED).join(', ');
  const codes = inUse.length > IN_USE_NAMED ? msg(COUPON_MESSAGES.tooMany, { codes: named, more: inUse.length - IN_USE_NAMED }) : named;
  throw conflict(msg(COUPON_MESSAGES.inUse, { codes }));
};

export const couponRoutes = [
  route(CouponsApi.get, {
    access: COUPONS_ACCESS,
    handler: async ({ database, params, use }) => {
      const row = await couponById(database.sql, params.id);
      if (!row) throw notFound(COUPON_MESSAGES.notFound);
      // How many members use it, from the same answer a delete asks (CouponUsage): the view shows it.
      const using = await use(couponsService).membersUsing([row.code]);
      return { ...toCoupon(row), UsedBy: using.get(row.code) ?? 0 };
    },
  }),

  route(CouponsApi.search, {
    access: COUPONS_ACCESS,
    handler: async ({ database, body }) => searchCoupons(database.sql, body),
  }),

  route(CouponsApi.create, {
    access: COUPONS_ACCESS,
    handler: async ({ database, body, audit, services, user, config }) => {
      // A create sent again with its IdempotencyKey (its answer was lost) answers the coupon it added the first time.
      const ref = body.IdempotencyKey && user ? { userId: user.id, scope: 'coupons.coupon', key: body.IdempotencyKey } : null;
      try {
        const row = await database.sql.transaction(async (tx) => {
          const earlier = ref ? await services.createKeys.claim(tx, ref, body) : null;
          if (earlier !== null) {
            const added = await couponById(tx, Number(earlier));
            if (!added) throw notFound(COUPON_MESSAGES.notFound);
            return added;
          }
          const created = (
            await tx.query<CouponRow>(
              `INSERT INTO coupons (code, product, membership_type, discount_type, start_date, end_date, status)
               VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COUPON_COLUMNS}`,
              [
                body.Code,
                body.Product,
                body.MembershipType,
                body.DiscountType,
                body.StartDate,
                body.EndDate ?? null,
                // Its dates against the business's day, not the database's (UTC) current_date.
                newCouponStatus(body.StartDate, body.EndDate, config.businessTimeZone),
              ],
            )
          )[0];
          if (!created) throw new Error('insert returned no row');
          await audit({ action: 'coupons.coupon.create', entity: 'coupon', entityId: String(created.id), detail: { code: created.code } }, tx);
          if (ref) await services.createKeys.record(tx, ref, created.id);
          return created;
        });
        return withMessage(toCoupon(row), COUPON_MESSAGES.created);
      } catch (e) {
        if (isUniqueViolation(e)) throw badRequest(COUPON_MESSAGES.duplicateCode);
        throw e;
      }
    },
  }),

  route(CouponsApi.update, {
    access: COUPONS_ACCESS,
    handler: async ({ database, body, audit, use }) => {
      try {
        const row = await database.sql.transaction(async (tx) => {
          const current = await tx.query<{ version: number; code: string }>('SELECT version, code FROM coupons WHERE id = $1 FOR UPDATE', [body.ID]);
          if (!current[0]) throw notFound(COUPON_MESSAGES.notFound);
          if (current[0].version !== body.Version) throw conflict(COUPON_MESSAGES.stale);
          // Members' memberships keep the code as text (matched ignoring case): a new code would leave them with one no
          // coupon has, so a coupon in use keeps its code (a change of case only is no change). Asked with the row
          // locked, after any writer holding it (holdForUse) committed. A 400 like a duplicate code: the form says it
          // as the save's error, not as a stale edit to reload.
          const old = current[0].code;
          if (old.toLowerCase() !== body.Code.trim().toLowerCase() && ((await use(couponsService).membersUsing([old], tx)).get(old) ?? 0) > 0) {
            throw badRequest(COUPON_MESSAGES.codeInUse);
          }
          const updated = (
            await tx.query<CouponRow>(
              `UPDATE coupons SET code = $2, product = $3, membership_type = $4, discount_type = $5, start_date = $6, end_date = $7, status = $8,
                 version = version + 1 WHERE id = $1 RETURNING ${COUPON_COLUMNS}`,
              [body.ID, body.Code, body.Product, body.MembershipType, body.DiscountType, body.StartDate, body.EndDate ?? null, body.Status],
            )
          )[0];
          if (!updated) throw notFound(COUPON_MESSAGES.notFound);
          await audit(
            { action: 'coupons.coupon.update', entity: 'coupon', entityId: String(body.ID), detail: { code: updated.code, status: updated.status } },
            tx,
          );
          return updated;
        });
        return withMessage(toCoupon(row), COUPON_MESSAGES.updated);
      } catch (e) {
        if (isUniqueViolation(e)) throw badRequest(COUPON_MESSAGES.duplicateCode);
        throw e;
      }
    },
  }),

  ...(
    [
      ['activate', CouponsApi.activate, `UPDATE coupons SET status = 'Active', version = version + 1 WHERE id = ANY($1::int[])`, COUPON_MESSAGES.activated],
      [
        'deactivate',
        CouponsApi.deactivate,
        `UPDATE coupons SET status = 'Inactive', version = version + 1 WHERE id = ANY($1::int[])`,
        COUPON_MESSAGES.deactivated,
      ],
      ['delete', CouponsApi.remove, 'DELETE FROM coupons WHERE id = ANY($1::int[])', COUPON_MESSAGES.deleted],
    ] as const
  ).map(([action, endpoint, statement, message]) =>
    route(endpoint, {
      access: COUPONS_ACCESS,
      handler: async ({ database, body, audit, t, use }) => {
        const count = await bulk(
          database.sql,
          body,
          // Activate and deactivate change any coupon; a delete only those no member used.
          action === 'delete' ? notInUse(use(couponsService)) : null,
          async (tx, ids) => {
            await tx.query(statement, [ids]);
            return ids.length;
          },
          async (tx, ids) => {
            for (const id of ids) await audit({ action: `coupons.coupon.${action}`, entity: 'coupon', entityId: String(id) }, tx);
          },
        );
        // The answer's Message is text in data: the handler words it in the user's language (the toast, the kernel).
        return withMessage({ Count: count, Message: t(message) }, message);
      },
    }),
  ),
];
