import { describe, expect, it } from 'vitest';
import { parseOptions } from './workload';
import { arrivalSpreadMs, STEP_ORDER } from './workload-members';

describe('workload arrivals: when the simulated members start', () => {
  it('by default members arrive over one whole cycle (a think time after each step), and the window opens 15 s after the last', () => {
    const o = parseOptions([]);
    expect(o.arrival).toBe('cycle');
    expect(arrivalSpreadMs(o.arrival, o.thinkMs)).toBe(STEP_ORDER.length * 5000);
    expect(o.warmup).toBe((STEP_ORDER.length * 5000) / 1000 + 15);
  });

  it('the earlier method (over one think time) can still be asked for, with its 20 s warm-up', () => {
    const o = parseOptions(['--arrival', 'think']);
    expect(arrivalSpreadMs(o.arrival, o.thinkMs)).toBe(5000);
    expect(o.warmup).toBe(20);
  });

  it('the warm-up follows the think time, and an explicit one is kept when every member has arrived by then', () => {
    expect(parseOptions(['--think-ms', '2000']).warmup).toBe(18 + 15);
    expect(parseOptions(['--warmup', '50']).warmup).toBe(50);
  });

  it('refuses a window that would open before the last member arrives, and an unknown arrival', () => {
    expect(() => parseOptions(['--warmup', '15'])).toThrow(/ends before the last member arrives/);
    expect(() => parseOptions(['--arrival', 'burst'])).toThrow(/cycle or think/);
  });
});
