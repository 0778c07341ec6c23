/** The slice of a pino logger the connectors use. */
export interface DependencyLogger {
  info(object: object, message: string): void;
  warn(object: object, message: string): void;
}
