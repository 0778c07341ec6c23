import { describe, expect, it } from '@jest/globals';
import { clientChanges } from './client-announcements.js';

const client = {
  clientId: 'c-1',
  tenantId: 't-1',
  name: 'ERP',
  scopes: ['products:read'],
  secretId: 's-1',
  deleted: false,
};

describe('OAuth client announcements', () => {
  it('announces a creation with name and scopes, never a secret id', () => {
    expect(clientChanges(null, client)).toEqual([
      { type: 'oauth_client.created', data: { name: 'ERP', scopes: ['products:read'] } },
    ]);
  });

  it('announces one rotation for any number of new secrets, and none for a deleted client', () => {
    expect(clientChanges({ secretId: 's-1' }, { ...client, secretId: 's-3' })).toEqual([
      { type: 'oauth_client.secret_rotated', data: {} },
    ]);
    expect(clientChanges({ secretId: 's-1' }, { ...client, secretId: 's-2', deleted: true })).toEqual([
      { type: 'oauth_client.deleted', data: {} },
    ]);
    expect(clientChanges({ secretId: 's-1' }, client)).toEqual([]);
  });

  it('announces the creation and then the deletion of a client made and deleted while the bus was down', () => {
    expect(clientChanges(null, { ...client, deleted: true }).map((c) => c.type)).toEqual([
      'oauth_client.created',
      'oauth_client.deleted',
    ]);
  });
});
