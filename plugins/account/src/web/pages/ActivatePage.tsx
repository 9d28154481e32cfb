import { LinkPasswordPage } from '../components/LinkPasswordPage';

/** /login/activate/:urlId (spec 01 section 2). */
export default function ActivatePage() {
  return <LinkPasswordPage kind="activate" />;
}
