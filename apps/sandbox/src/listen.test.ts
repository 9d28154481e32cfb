import { describe, expect, it } from 'vitest';
import { sandboxListenOptions } from './listen';

describe('where the sandbox listens', () => {
  it('binds to 127.0.0.1:8090 by default: its inbox shows every reset link', () => {
    expect(sandboxListenOptions({})).toEqual({ host: '127.0.0.1', port: 8090 });
    expect(sandboxListenOptions({ HOST: '', SANDBOX_PORT: '' })).toEqual({ host: '127.0.0.1', port: 8090 });
  });

  it('takes HOST and SANDBOX_PORT', () => {
    expect(sandboxListenOptions({ HOST: '0.0.0.0', SANDBOX_PORT: '9000' })).toEqual({ host: '0.0.0.0', port: 9000 });
    expect(() => sandboxListenOptions({ SANDBOX_PORT: '80a' })).toThrow(/SANDBOX_PORT/);
  });
});
