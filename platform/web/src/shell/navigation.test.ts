import { describe, expect, it } from 'vitest';
import { contribute, defineWebPlugin, Extensions } from '../plugin';
import { contributionsTo, visibleContributions } from './extensions';
import { type FlatRoute, navTree } from './routes';

const page = () => Promise.resolve({ default: () => null });
const r = (path: string, order: number, access: FlatRoute['access'], group?: string): FlatRoute => ({
  path,
  access,
  title: `t:${path}`,
  nav: { label: `n:${path}`, order, group },
  load: page,
  pluginId: 'p',
  namespace: 'p',
});
const groups = [
  { id: 'support', label: 'core:nav.support', order: 50, namespace: 'core' },
  { id: 'admin', label: 'core:nav.admin', order: 5, namespace: 'core' },
];

describe('navigation tree', () => {
  it('orders top-level links and groups together and puts grouped entries inside their group', () => {
    const routes = [
      r('/help', 90, 'authenticated'),
      r('/a', 1, 'authenticated', 'support'),
      r('/b', 2, 'authenticated', 'support'),
      r('/claims', 10, 'authenticated'),
    ];
    const tree = navTree(routes, groups, ['CareSupport']);
    expect(tree.map((i) => (i.kind === 'link' ? i.route.path : i.group.id))).toEqual(['/claims', 'support', '/help']);
    const support = tree[1];
    expect(support?.kind === 'group' && support.routes.map((x) => x.path)).toEqual(['/a', '/b']);
  });
  it('hides entries the roles may not open and shows a group with one visible entry as a plain link', () => {
    const routes = [r('/users', 1, ['SuperUser'], 'admin'), r('/coupons', 2, ['CareSupport'], 'admin')];
    expect(navTree(routes, groups, ['CareSupport'])).toEqual([{ kind: 'link', route: routes[1] }]);
    expect(navTree(routes, groups, ['CareGuard'])).toEqual([]);
  });
  it('keeps an entry whose group nobody declared at the top level', () => {
    const routes = [r('/x', 3, 'authenticated', 'nowhere')];
    expect(navTree(routes, groups, ['CareGuard']).map((i) => i.kind)).toEqual(['link']);
  });
});

describe('extension points', () => {
  const widget = () => Promise.resolve({ default: () => null });
  const a = defineWebPlugin({
    id: 'a',
    i18n: { namespace: 'a', load: () => Promise.resolve({ default: {} }) },
    routes: [],
    contributes: [
      contribute(Extensions.dashboardWidgets, { id: 'a.late', order: 20, title: 'a:late', load: widget }),
      contribute(Extensions.dashboardWidgets, { id: 'a.staff', order: 5, title: 'a:staff', access: ['SuperUser'], load: widget }),
      contribute(Extensions.helpDialogs, { id: 'a.help', order: 1, load: widget }),
    ],
  });
  const b = defineWebPlugin({
    id: 'b',
    i18n: { namespace: 'b', load: () => Promise.resolve({ default: {} }) },
    routes: [],
    contributes: [contribute(Extensions.dashboardWidgets, { id: 'b.first', order: 1, title: 'b:first', load: widget })],
  });
  it('collects one point from every enabled plugin, ordered, each knowing its plugin', () => {
    const found = contributionsTo([a, b], Extensions.dashboardWidgets);
    expect(found.map((c) => [c.id, c.pluginId])).toEqual([
      ['b.first', 'b'],
      ['a.staff', 'a'],
      ['a.late', 'a'],
    ]);
  });
  it('gates contributions by role like routes', () => {
    const found = contributionsTo([a, b], Extensions.dashboardWidgets);
    expect(visibleContributions(found, ['CareGuard']).map((c) => c.id)).toEqual(['b.first', 'a.late']);
    expect(visibleContributions(found, ['superuser']).map((c) => c.id)).toEqual(['b.first', 'a.staff', 'a.late']);
  });
  it('offers nothing from a plugin the brand does not enable', () => {
    expect(contributionsTo([b], Extensions.helpDialogs)).toEqual([]);
  });
});
