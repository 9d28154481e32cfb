export { vars } from './contract.css';
export { fluidColumns, visuallyHiddenRule } from './layout';
