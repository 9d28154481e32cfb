import { route, withMessage } from '@portal/server';
import { ClaimsAccess } from '../../access';
import { ClaimsApi } from '../../contract';
import { changeStatus, statusChanged } from '../repo';

/** Status changes of several bills at once (support tooling), all or nothing. */
export const statusRoutes = [
  route(ClaimsApi.changeStatusAM, {
    access: ClaimsAccess.changeStatus,
    handler: async (ctx) => {
      const items = await changeStatus(ctx, ctx.body);
      return withMessage({ Items: items, ItemCount: items.length }, statusChanged(items.length, ctx.body.NewClaimStatusID));
    },
  }),
];
