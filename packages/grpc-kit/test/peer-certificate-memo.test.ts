import { once } from 'node:events';
import { connect, createServer, type TLSSocket } from 'node:tls';
import { afterAll, describe, expect, it } from '@jest/globals';
import { testIdentity } from '@tap/testkit';
import { memoisePeerCertificates } from '../src/tls/peer-certificate-memo.js';

/** A real mutual-TLS connection on loopback; resolves to the server's side of it. */
async function mutualTlsConnection() {
  const [server, client] = [await testIdentity('identity'), await testIdentity('gateway')];
  const tlsServer = createServer({
    cert: server.cert,
    key: server.key,
    ca: server.ca,
    requestCert: true,
    rejectUnauthorized: true,
  });
  tlsServer.listen(0, '127.0.0.1');
  await once(tlsServer, 'listening');
  const address = tlsServer.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const accepted = once(tlsServer, 'secureConnection') as Promise<[TLSSocket]>;
  const socket = connect({
    host: '127.0.0.1',
    port,
    cert: client.cert,
    key: client.key,
    ca: client.ca,
    servername: 'localhost',
    checkServerIdentity: () => undefined,
  });
  const [serverSide] = await accepted;
  return {
    serverSide,
    close: async () => {
      socket.destroy();
      serverSide.destroy();
      tlsServer.close();
      await once(tlsServer, 'close');
    },
  };
}

describe('remembered peer certificates', () => {
  const opened: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of opened) await close();
  });

  it("answers a connection's peer certificate from memory after the first time, per connection", async () => {
    // Without it Node builds a new object on every call (the cost being removed). Installed once
    // per process: the prototype is shared by every test file of this worker.
    memoisePeerCertificates();
    const first = await mutualTlsConnection();
    const second = await mutualTlsConnection();
    opened.push(first.close, second.close);
    const remembered = first.serverSide.getPeerCertificate();
    expect(remembered.subjectaltname).toContain('gateway');
    expect(first.serverSide.getPeerCertificate()).toBe(remembered);
    // Another connection has its own certificate object; the detailed form is always asked afresh.
    expect(second.serverSide.getPeerCertificate()).not.toBe(remembered);
    expect(first.serverSide.getPeerCertificate(true)).not.toBe(remembered);
  });
});
