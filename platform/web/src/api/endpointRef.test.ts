import { declareEndpoint } from '@portal/core';
import { describe, expect, it } from 'vitest';
import { endpointRef } from './endpointRef';

const Api = {
  recent: declareEndpoint<{ response: never }>()({ method: 'GET', path: '/api/things/recent' }),
  upload: declareEndpoint<{ body: never }>()({ method: 'POST', path: '/api/things/:id', bodyEncoding: 'form' }),
  file: declareEndpoint<{ response: never }>()({ method: 'GET', path: '/api/things/export', answer: 'file' }),
};

describe('an endpoint named by its type only', () => {
  it('carries what the client reads: method, path and how the body and answer travel', () => {
    expect(endpointRef<typeof Api.recent>({ method: 'GET', path: '/api/things/recent' })).toEqual({
      method: 'GET',
      path: '/api/things/recent',
      kind: 'endpoint',
    });
    expect(endpointRef<typeof Api.upload>({ method: 'POST', path: '/api/things/:id', bodyEncoding: 'form' })).toMatchObject({ bodyEncoding: 'form' });
    expect(endpointRef<typeof Api.file>({ method: 'GET', path: '/api/things/export', answer: 'file' })).toMatchObject({ answer: 'file' });
  });

  it('must agree with the contract (checked by the compiler)', () => {
    // @ts-expect-error another path than the contract's
    endpointRef<typeof Api.recent>({ method: 'GET', path: '/api/things/other' });
    // @ts-expect-error another method than the contract's
    endpointRef<typeof Api.recent>({ method: 'POST', path: '/api/things/recent' });
    // @ts-expect-error the contract's body encoding is part of it
    endpointRef<typeof Api.upload>({ method: 'POST', path: '/api/things/:id' });
    // @ts-expect-error and so is its answer
    endpointRef<typeof Api.file>({ method: 'GET', path: '/api/things/export' });
  });
});
