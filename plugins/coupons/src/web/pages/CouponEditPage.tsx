import { layoutCss, useApi } from '@portal/web';
import { Message } from '@portal/web/kit';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { couponPath } from '../../access';
import { CouponsApi } from '../../contract';
import { CouponForm, type CouponFormValues, toCouponPayload } from '../components/CouponForm';

export default function CouponEditPage() {
  const { id = '' } = useParams();
  const api = useApi();
  const { t } = useTranslation('coupons');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const coupon = useQuery({ queryKey: ['coupons', 'one', id], queryFn: () => api.call(CouponsApi.get, { params: { id } }, { notify: false }) });
  const save = useMutation({
    mutationFn: (v: CouponFormValues) => {
      const c = coupon.data;
      if (!c) throw new Error('no coupon loaded');
      return api.call(CouponsApi.update, { body: { ...toCouponPayload(v), ID: c.ID, Version: c.Version, Status: v.Status } });
    },
    onSuccess: async (c) => {
      await queryClient.invalidateQueries({ queryKey: ['coupons'] });
      navigate(couponPath(c.ID));
    },
  });
  return (
    <div className={layoutCss.card}>
      {coupon.isPending && <p aria-busy="true">{t('loading')}</p>}
      {coupon.isError && <Message kind="error">{t('loadError')}</Message>}
      {coupon.data && <CouponForm initial={coupon.data} busy={save.isPending} onSave={(v) => save.mutate(v)} onCancel={() => navigate(couponPath(id))} />}
    </div>
  );
}
