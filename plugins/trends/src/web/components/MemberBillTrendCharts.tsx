export { MemberBillTrendCharts as default } from './BillTrendCharts';
