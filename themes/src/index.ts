export { vars } from './contract.css';
