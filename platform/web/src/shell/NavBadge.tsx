import { type ComponentType, Suspense } from 'react';
import { Extensions } from '../plugin';
import { lazyContribution, useContributions } from './extensions';

/** Every badge contributed to one navigation entry (Extensions.navBadges with the entry's path), each lazy and role-gated. */
export function NavBadges({ path }: { path: string }) {
  const badges = useContributions(Extensions.navBadges).filter((b) => b.path === path);
  if (badges.length === 0) return null;
  return (
    <Suspense fallback={null}>
      {badges.map((b) => {
        const Badge = lazyContribution<object>(b) as unknown as ComponentType;
        return <Badge key={b.id} />;
      })}
    </Suspense>
  );
}
