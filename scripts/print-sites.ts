/** Prints every brand site's address and the demo logins written by the seed. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBrands } from '@portal/brands';
import { installedPluginIds } from '@portal/brands/plugins';

const port = process.env.PORT ?? '8080';
const dataDir = process.env.DATA_DIR ?? '.data';
const brands = loadBrands(installedPluginIds());
console.log('\nBrand sites:');
for (const b of brands) console.log(`  ${b.displayName.padEnd(20)} http://${b.marker}.localhost:${port}/`);
console.log(`  Index of sites       http://localhost:${port}/`);
const sandbox = process.env.SANDBOX_URL ?? 'http://localhost:8090';
console.log(`  Sandbox providers    ${sandbox}/ (mail inbox at /mail)`);
console.log(
  `  Gateway merchant     ${sandbox}/gateway/merchant (held charges; login id ${process.env.GATEWAY_LOGIN_ID || 'sandbox-merchant'}, key ${process.env.GATEWAY_TRANSACTION_KEY ? '$GATEWAY_TRANSACTION_KEY' : 'sandbox-transaction-key'})`,
);
const host = process.env.HOST || '127.0.0.1';
console.log(
  host === '127.0.0.1' ? '  Reachable from this machine only (HOST=127.0.0.1).' : `  Listening on ${host}: reachable by whoever can reach this machine.`,
);
const file = join(dataDir, 'demo-users.json');
if (existsSync(file)) {
  const users = JSON.parse(readFileSync(file, 'utf8')) as { brand: string; role: string; userName: string; password: string }[];
  console.log(`\nDemo logins (password ${users[0]?.password ?? ''} for all):`);
  for (const u of users) console.log(`  ${u.brand.padEnd(8)} ${u.role.padEnd(28)} ${u.userName}`);
}
console.log('');
