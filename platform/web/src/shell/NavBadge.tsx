import { Suspense } from 'react';
import { Extensions } from '../plugin';
import { lazyContribution, useContributions } from './extensions';
import { useIdle } from './useIdle';

/** Every badge contributed to one navigation entry (Extensions.navBadges with the entry's path), each lazy and role-gated. */
export function NavBadges({ path }: { path: string }) {
  const badges = useContributions(Extensions.navBadges).filter((b) => b.path === path);
  // Badges (an unread count) load after the page has painted: they must not compete with it (see useIdle).
  const idle = useIdle();
  if (badges.length === 0 || !idle) return null;
  return (
    <Suspense fallback={null}>
      {badges.map((b) => {
        const Badge = lazyContribution<object>(b);
        return <Badge key={b.id} />;
      })}
    </Suspense>
  );
}
