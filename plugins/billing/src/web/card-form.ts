/**
 * The hosted card form for other plugins' pages (the registration wizard's Link Card step). Its strings are in the
 * billing namespace: load it (loadNamespaces(['billing'])) before rendering. The page's path must be declared in
 * the plugin's framePages so its CSP allows the gateway's frame.
 */
export { CardForm } from './components/CardForm';
