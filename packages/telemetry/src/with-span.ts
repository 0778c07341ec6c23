import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

const tracer = () => trace.getTracer('tap');

/** Errors that are an expected outcome (a 4xx to the caller), not a failure of ours. */
export type ExpectedErrorTest = (error: unknown) => boolean;

export interface SpanOptions {
  readonly kind?: SpanKind;
  readonly attributes?: Attributes;
  /** When it returns true for a thrown error, the span is not marked as an error. */
  readonly isExpected?: ExpectedErrorTest;
}

/**
 * Runs `fn` inside an active span named `name`. Unexpected errors are recorded and mark the
 * span as failed; expected ones (bad input, not found) do not, so error rates stay meaningful.
 */
export async function withSpan<T>(
  name: string,
  fn: (span: Span) => Promise<T>,
  options: SpanOptions = {},
): Promise<T> {
  return tracer().startActiveSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      ...(options.attributes ? { attributes: options.attributes } : {}),
    },
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        if (!options.isExpected?.(error)) {
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
