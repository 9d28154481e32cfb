import { route, withMessage } from '@portal/server';
import { ClaimsAccess } from '../../access';
import { ClaimsApi } from '../../contract';
import { statusName } from '../../statusFlow';
import { changeStatus } from '../repo';

/** Status changes of several bills at once (support tooling), all or nothing. */
export const statusRoutes = [
  route(ClaimsApi.changeStatusAM, {
    access: ClaimsAccess.changeStatus,
    handler: async (ctx) => {
      const items = await changeStatus(ctx, ctx.body);
      const what = items.length === 1 ? '1 bill' : `${items.length} bills`;
      return withMessage({ Items: items, ItemCount: items.length }, `${what} set to ${statusName(ctx.body.ClaimStatusID)}.`);
    },
  }),
];
