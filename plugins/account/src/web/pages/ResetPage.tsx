import { LinkPasswordPage } from '../components/LinkPasswordPage';

/** /login/reset/:urlId (spec 01 section 2); MemberNumber is always sent empty. */
export default function ResetPage() {
  return <LinkPasswordPage kind="reset" />;
}
