import { AddressesView } from './AddressesView';

/** The details-addresses tab of /users/:id: the member's addresses through support's calls by member id. */
export default function MemberAddressesTab({ memberId }: { memberId: number }) {
  return <AddressesView memberId={memberId} support />;
}
