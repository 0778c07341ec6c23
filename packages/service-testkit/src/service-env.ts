/**
 * The least environment a consuming service's loadConfig accepts (its database and gRPC TLS
 * files; everything else has a default), for config tests to add the variables they try.
 */
export const REQUIRED_SERVICE_ENV: Readonly<Record<string, string>> = {
  MONGO_URL: 'mongodb://127.0.0.1:27017/',
  GRPC_TLS_CERT_FILE: '/tls/tls.crt',
  GRPC_TLS_KEY_FILE: '/tls/tls.key',
  GRPC_TLS_CA_FILE: '/tls/ca.crt',
};
