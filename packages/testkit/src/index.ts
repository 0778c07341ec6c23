export { startInfrastructure } from './start-infrastructure.js';
export { testNamespace } from './namespace.js';
export { infraUrls } from './test-env.js';
export { freeLoopbackPort } from './local/free-port.js';
export { waitForPort } from './local/wait-for-port.js';
export type { Infrastructure, InfraKind, InfraSource, StartOptions } from './infrastructure.js';
export { startLocal as startLocalServer } from './local/start-local.js';
export type { StartedServer } from './infrastructure.js';
export { startSmtpSink, decodeMessage } from './smtp-sink.js';
export type { SinkMessage, SmtpSink } from './smtp-sink.js';
export { startOidcProvider } from './oidc-test-provider.js';
export type { OidcTestAccount, OidcTestProvider } from './oidc-test-provider.js';
export {
  createCertificateAuthority,
  loadCertificateAuthority,
  LOCAL_NAMESPACE,
  LOCAL_TRUST_DOMAIN,
} from './pki/certificate-authority.js';
export type { CertificateAuthority, IssuedIdentity } from './pki/certificate-authority.js';
export { testIdentity, testIdentityEnv } from './pki/test-pki.js';
export type { ServiceName } from './pki/test-pki.js';
export { DEV_IDENTITIES, ensureDevPki } from './pki/dev-pki.js';
export { testClock } from './test-clock.js';
export type { TestClock } from './test-clock.js';
export { gateOpen, waitFor, waitForDrain } from './wait-for.js';
