/**
 * Where the sandbox listens: SANDBOX_PORT (8090) on HOST. HOST defaults to 127.0.0.1 because the inbox shows
 * every reset and activation link to whoever can reach it; set HOST=0.0.0.0 only on a private network.
 */
export function sandboxListenOptions(env: NodeJS.ProcessEnv = process.env): { port: number; host: string } {
  const raw = env.SANDBOX_PORT;
  let port = 8090;
  if (raw !== undefined && raw !== '') {
    port = Number(raw);
    if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`SANDBOX_PORT must be a port number, got "${raw}"`);
  }
  return { port, host: env.HOST || '127.0.0.1' };
}
