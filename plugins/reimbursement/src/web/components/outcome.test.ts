import { ApiCallError, type ApiClient, SessionEndedError } from '@portal/web';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The web kernel's entry cannot load in a unit test (it creates vanilla-extract styles, which need the build's plugin);
// this page's code uses only its call errors from it, so those come from their own module, the real classes.
vi.mock('@portal/web', () => import('../../../../../platform/web/src/api/errors'));

import { ReimbursementApi, type UploadStatus } from '../../contract';
import { ReimbursementMessages as M } from '../../rules';
import en from '../i18n/en.json';
import { duplicateOf, failureText } from './outcome';
import { uploadFile } from './uploader';

const UNEXPECTED = en.rules.unexpected;
const envelope = (MsgText: string | null) => ({ Data: null, Unwrap: true, MsgText, HasError: true });
/** The client's own words for a failure without a server message (what the page showed before). */
const unreachable = 'The server could not be reached. Check your connection and try again.';

describe("a file's failure beside it", () => {
  it("is the spec's unexpected error, spelled as the spec spells it", () => {
    expect(UNEXPECTED).toBe('An unexpected error has occured.');
    expect(M.unexpected).toBe(UNEXPECTED);
  });

  it('shows the unexpected error for a network failure (status 0), not the client text', () => {
    expect(failureText(new ApiCallError(unreachable, 0, null), UNEXPECTED)).toBe(UNEXPECTED);
  });

  it('shows the unexpected error for a server error, with or without a message', () => {
    expect(failureText(new ApiCallError('The request failed (502). Please try again.', 502, '<html>Bad gateway</html>'), UNEXPECTED)).toBe(UNEXPECTED);
    expect(failureText(new ApiCallError('Internal error.', 500, envelope('Internal error.')), UNEXPECTED)).toBe(UNEXPECTED);
  });

  it("shows the server's message for a refusal (4xx), in the words the server chose", () => {
    expect(failureText(new ApiCallError(M.futureDate, 400, envelope(M.futureDate)), UNEXPECTED)).toBe(M.futureDate);
    const spanish = 'Esta solicitud pertenece a otro miembro. Inicie una nueva solicitud de reembolso.';
    expect(failureText(new ApiCallError(spanish, 409, envelope(spanish)), UNEXPECTED)).toBe(spanish);
  });

  it('shows the unexpected error for a failure the server did not word: a 4xx without an envelope, an ended session, a thrown error', () => {
    expect(failureText(new ApiCallError('The request failed (413). Please try again.', 413, 'Payload Too Large'), UNEXPECTED)).toBe(UNEXPECTED);
    expect(failureText(new ApiCallError('The request failed (400). Please try again.', 400, envelope(null)), UNEXPECTED)).toBe(UNEXPECTED);
    expect(failureText(new SessionEndedError(), UNEXPECTED)).toBe(UNEXPECTED);
    expect(failureText(new TypeError('x is undefined'), UNEXPECTED)).toBe(UNEXPECTED);
  });
});

describe("the uploader's chunk retries running out on the network", () => {
  const store = new Map<string, string>();
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('sessionStorage', {
      get length() {
        return store.size;
      },
      key: (i: number) => [...store.keys()][i] ?? null,
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => store.set(k, v),
      removeItem: (k: string) => store.delete(k),
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    store.clear();
  });

  it('ends in the unexpected error beside the file, after 3 retries from the server offset', async () => {
    const status: UploadStatus = { UploadId: 'u-1', FileName: 'r.pdf', Size: 10, Offset: 0, ChunkSize: 4 };
    const calls: string[] = [];
    const api = {
      call: async (endpoint: unknown) => {
        const name = endpoint === ReimbursementApi.uploadStart ? 'start' : endpoint === ReimbursementApi.uploadStatus ? 'status' : 'chunk';
        calls.push(name);
        if (name === 'chunk') throw new ApiCallError(unreachable, 0, null);
        return status;
      },
    } as unknown as ApiClient;
    const failed = uploadFile(api, new File([new Uint8Array(10)], 'r.pdf'), () => {}).catch((e: unknown) => e);
    // The file's resume key is hashed first (Web Crypto, outside the fake clock); then the retries wait on the clock.
    await vi.waitFor(() => expect(calls).toContain('chunk'));
    await vi.runAllTimersAsync();
    const error = await failed;
    expect(calls).toEqual(['start', 'chunk', 'status', 'chunk', 'status', 'chunk', 'status', 'chunk']);
    expect(error).toBeInstanceOf(ApiCallError);
    expect(failureText(error, UNEXPECTED)).toBe(UNEXPECTED);
  });
});

describe('a create refused as looking like a request already sent', () => {
  const data = {
    Duplicate: true,
    Reason: 'dateAndAmount',
    Earlier: { Id: 7, ClaimNumber: 'RB26000007', ServiceDate: '2026-11-02', Amount: 42.5, CreatedAt: '2026-11-30T10:00:00.000Z' },
  };
  const refused = (status: number, Data: unknown) =>
    new ApiCallError('refused', status, { Data, Unwrap: true, MsgText: 'You already sent a reimbursement request for $42.50 …', HasError: true });

  it('is told by its 409 with the earlier request in its Data (the page asks "Send anyway?")', () => {
    expect(duplicateOf(refused(409, data))).toEqual(data);
  });

  it('is no other refusal: another 409, a 400 with the same data, a network failure', () => {
    expect(duplicateOf(refused(409, null))).toBeNull();
    expect(duplicateOf(refused(409, { Offset: 10 }))).toBeNull();
    expect(duplicateOf(refused(400, data))).toBeNull();
    expect(duplicateOf(new ApiCallError('offline', 0, null))).toBeNull();
    expect(duplicateOf(new Error('boom'))).toBeNull();
  });
});
