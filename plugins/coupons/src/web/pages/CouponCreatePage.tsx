import { layoutCss, useApi } from '@portal/web';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router-dom';
import { COUPONS_PATH, couponPath } from '../../access';
import { CouponsApi } from '../../contract';
import { CouponForm, type CouponFormValues, toCouponPayload } from '../components/CouponForm';

export default function CouponCreatePage() {
  const api = useApi();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: (v: CouponFormValues) => api.call(CouponsApi.create, { body: toCouponPayload(v) }),
    onSuccess: async (c) => {
      await queryClient.invalidateQueries({ queryKey: ['coupons'] });
      navigate(couponPath(c.ID));
    },
  });
  return (
    <div className={layoutCss.card}>
      <CouponForm initial={null} busy={create.isPending} onSave={(v) => create.mutate(v)} onCancel={() => navigate(COUPONS_PATH)} />
    </div>
  );
}
