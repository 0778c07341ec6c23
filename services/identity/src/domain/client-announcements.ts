/** What the bus was last told about an OAuth client (on its document), or null: nothing yet. */
export interface AnnouncedClient {
  readonly secretId: string;
}

/** The client as stored now. */
export interface CurrentClient {
  readonly clientId: string;
  readonly tenantId: string;
  readonly name: string;
  readonly scopes: readonly string[];
  readonly secretId: string;
  readonly deleted: boolean;
}

export type ClientEventType = 'oauth_client.created' | 'oauth_client.secret_rotated' | 'oauth_client.deleted';

/** One oauth_client.* event to publish, without its envelope's id and time. */
export interface ClientChange {
  readonly type: ClientEventType;
  readonly data: Readonly<Record<string, unknown>>;
}

/**
 * The oauth_client.* events that take consumers from `announced` to `current`, in order; pure,
 * like memberChanges. Rotations made while the bus was down collapse into one; a rotation of a
 * client deleted since is not announced (its deletion is). The data never holds a secret or
 * its id (the secret id keys revocations).
 */
export function clientChanges(announced: AnnouncedClient | null, current: CurrentClient): ClientChange[] {
  const changes: ClientChange[] = [];
  if (announced === null)
    changes.push({ type: 'oauth_client.created', data: { name: current.name, scopes: [...current.scopes] } });
  else if (announced.secretId !== current.secretId && !current.deleted)
    changes.push({ type: 'oauth_client.secret_rotated', data: {} });
  if (current.deleted) changes.push({ type: 'oauth_client.deleted', data: {} });
  return changes;
}
