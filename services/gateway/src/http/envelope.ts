/** The spec's success envelope. */
export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

/** JSON Schema of the envelope around `data`, for response schemas. */
export function envelopeSchema(data: object): object {
  return {
    type: 'object',
    required: ['success', 'data'],
    properties: { success: { const: true }, data },
  };
}
