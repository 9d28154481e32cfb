import { layoutCss, newCreateKey, SubmissionKeys, useApi } from '@portal/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { COUPONS_PATH, couponPath } from '../../access';
import { CouponsApi } from '../../contract';
import { CouponForm } from '../components/CouponForm';
import { type CouponFormValues, toCouponPayload } from '../components/couponFormValues';
import { couponCreateBody } from '../components/createBody';

export default function CouponCreatePage() {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // One IdempotencyKey per submission: saving the same coupon again after a failure (an answer lost) adds it once.
  const keys = useRef(new SubmissionKeys(() => newCreateKey('coupon'))).current;
  const create = useMutation({
    mutationFn: (v: CouponFormValues) => api.call(CouponsApi.create, { body: couponCreateBody(toCouponPayload(v), keys) }),
    onSuccess: async (c) => {
      keys.added();
      await queryClient.invalidateQueries({ queryKey: ['coupons'] });
      navigate(couponPath(c.ID));
    },
  });
  return (
    <div className={layoutCss.card}>
      <CouponForm initial={null} busy={create.isPending} onSave={(v) => create.mutateAsync(v)} onCancel={() => navigate(COUPONS_PATH)} />
    </div>
  );
}
