export { AllBillTrendCharts as default } from './BillTrendCharts';
