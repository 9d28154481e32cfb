export { vars } from './contract.css';
export { fluidColumns } from './layout';
